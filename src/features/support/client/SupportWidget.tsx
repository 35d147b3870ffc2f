/**
 * The support-team widget (spec §2, issue 53 point 4): a fixed bottom-left green button with a badge of
 * the team's count; opening it lists the representatives (`GET /support-team`: the avatar or an initial,
 * the name, the role; at most 350 px high) with 'Available 24/7', and 'Online' for those whose account
 * has a page open now (`GET /support-team/online`, from the socket's presence). Choosing one goes to
 * /support-team/{id}. Shown to the roles that ask for help, not to the staff who give it.
 */
import { useState } from 'react';
import { Avatar, Badge, Box, Chip, Fab, List, ListItemAvatar, ListItemButton, ListItemText, Popover, Typography } from '@mui/material';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import { useGetList, useNavigate, usePermissions } from 'react-admin';
import { supportTeam } from '../../../../resources/support-requests.ts';
import { allows } from '../../../manifest/index.ts';
import { send } from '../../../client/providers/http.ts';
import { isStaffRole, memberPath, SUPPORT_TEAM, WIDGET_TEXTS } from '../contract.ts';

/** Spec §2: the list is at most 350 px high. */
export const WIDGET_LIST_HEIGHT = 350;
/** The widget's green (MUI's success colour is a green in both schemes). */
const GREEN = 'success' as const;
/** Read by assistive technology, not shown. */
const VISUALLY_HIDDEN = { position: 'absolute', width: 1, height: 1, p: 0, m: '-1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap', border: 0 } as const;
const TEAM_READ = { pagination: { page: 1, perPage: 100 }, sort: { field: 'name', order: 'ASC' as const } };

export function SupportWidget() {
  const { permissions } = usePermissions();
  const shown = allows(supportTeam.access.read, permissions) && !isStaffRole(permissions);
  const { data: team = [], total } = useGetList(SUPPORT_TEAM, TEAM_READ, { enabled: shown });
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [online, setOnline] = useState<ReadonlySet<string>>(new Set());
  const navigate = useNavigate();
  if (!shown) return null;

  const open = (el: HTMLElement) => {
    setAnchor(el);
    send(supportTeam.operations.online.call, {})
      .then(({ json }) => setOnline(new Set((json?.online ?? []).map(String))))
      .catch(() => setOnline(new Set()));
  };
  const count = total ?? team.length;
  return (
    <>
      {/* Its name is its text, "Support team" (read, not shown) and the count (shown): the name holds
          what is seen (WCAG 2.5.3), so no aria-label or tooltip names it otherwise. */}
      <Fab
        color={GREEN}
        aria-haspopup="dialog"
        onClick={(e) => open(e.currentTarget)}
        sx={{ position: 'fixed', left: 16, bottom: 16, zIndex: (t) => t.zIndex.speedDial }}
      >
        <Box component="span" sx={VISUALLY_HIDDEN}>
          {`${WIDGET_TEXTS.button} `}
        </Box>
        <Badge badgeContent={count} color="primary" showZero max={99}>
          <SupportAgentIcon />
        </Badge>
      </Fab>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'left' }}
        transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { role: 'dialog', 'aria-label': WIDGET_TEXTS.button, sx: { width: 320, maxWidth: 'calc(100vw - 32px)' } } }}
      >
        <Box sx={{ px: 2, pt: 1.5 }}>
          <Typography component="h2" variant="subtitle1">
            {WIDGET_TEXTS.button}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {WIDGET_TEXTS.available}
          </Typography>
        </Box>
        {!team.length ? (
          <Typography sx={{ p: 2 }} color="text.secondary">
            No representatives yet.
          </Typography>
        ) : (
          <List aria-label="Representatives" sx={{ maxHeight: WIDGET_LIST_HEIGHT, overflowY: 'auto' }}>
            {team.map((m) => (
              <ListItemButton
                key={m.id}
                onClick={() => {
                  setAnchor(null);
                  navigate(memberPath(String(m.id)));
                }}
              >
                <ListItemAvatar>
                  <Avatar src={m.avatar || undefined} alt="">
                    {String(m.name ?? '?').charAt(0).toUpperCase()}
                  </Avatar>
                </ListItemAvatar>
                <ListItemText primary={m.name} secondary={m.role} />
                {online.has(String(m.id)) && <Chip size="small" color={GREEN} variant="outlined" label={WIDGET_TEXTS.online} />}
              </ListItemButton>
            ))}
          </List>
        )}
      </Popover>
    </>
  );
}
