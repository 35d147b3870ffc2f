/**
 * The bell in the app bar (hand-written shell part, spec §4 and §9): the unread count as a badge, and a
 * list of the user's notifications that reads the next page as it is scrolled to its end. A click or
 * Enter on an unread notification marks it read; "Mark all as read" marks every one. The list is a
 * menu: arrow keys move through it (and, reaching its end, scroll it, which reads the next page).
 */
import { useId, useState, type UIEvent } from 'react';
import { Badge, Box, Button, CircularProgress, Divider, IconButton, MenuItem, MenuList, Popover, Tooltip, Typography } from '@mui/material';
import NotificationsIcon from '@mui/icons-material/Notifications';
import { useGetIdentity } from 'react-admin';
import type { NotificationWire } from '../contract.ts';
import { useNotifications } from './use-notifications.ts';

/** How close to the list's end (px) the next page is read: before the reader hits the bottom. */
const LOAD_AHEAD_PX = 64;
const LIST_MAX_HEIGHT = 420;
/** The badge counts up to this, then shows "99+". */
const MAX_BADGE = 99;
/** Read by screen readers, not shown. */
const hidden = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;
const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function NotificationBell() {
  const { identity } = useGetIdentity();
  if (identity?.id === undefined || identity?.id === null) return null;
  // Keyed by user: another user's session starts from nothing (its own cache, its own pages).
  return <Bell key={String(identity.id)} userId={String(identity.id)} />;
}

function Bell({ userId }: { userId: string }) {
  const state = useNotifications(userId);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const id = useId();
  const open = !!anchor;
  const count = state.unreadCount;
  const onScroll = (e: UIEvent<HTMLElement>) => {
    const el = e.currentTarget;
    if (el.scrollTop + el.clientHeight >= el.scrollHeight - LOAD_AHEAD_PX) state.loadMore();
  };

  const shown = count > MAX_BADGE ? `${MAX_BADGE}+` : String(count);

  return (
    <>
      <Tooltip title="Notifications">
        <IconButton
          color="inherit"
          // The name holds the badge's own text (axe's label-content-name-mismatch): "99+" past 99.
          aria-label={count ? `Notifications, ${shown} unread` : 'Notifications'}
          aria-haspopup="dialog"
          aria-expanded={open}
          aria-controls={open ? `${id}-popover` : undefined}
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          {/* No badge at all when nothing is unread: MUI keeps a hidden badge's last number in the page. */}
          {count ? (
            <Badge badgeContent={shown} color="error">
              <NotificationsIcon />
            </Badge>
          ) : (
            <NotificationsIcon />
          )}
        </IconButton>
      </Tooltip>
      <Popover
        id={`${id}-popover`}
        open={open}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        disableScrollLock
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: 'dialog', 'aria-labelledby': `${id}-heading`, sx: { width: 'min(380px, calc(100vw - 16px))' } } }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, px: 2, py: 1 }}>
          <Typography id={`${id}-heading`} component="h2" variant="subtitle1">
            Notifications
          </Typography>
          <Button size="small" onClick={state.markAllRead} disabled={!count}>
            Mark all as read
          </Button>
        </Box>
        <Divider />
        {state.loading ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
            <CircularProgress size={28} aria-label="Loading notifications" />
          </Box>
        ) : state.list.length === 0 ? (
          <Typography sx={{ p: 3 }} color="text.secondary">
            No notifications yet
          </Typography>
        ) : (
          <MenuList autoFocusItem aria-labelledby={`${id}-heading`} onScroll={onScroll} sx={{ maxHeight: LIST_MAX_HEIGHT, overflowY: 'auto', py: 0 }}>
            {state.list.map((n) => (
              <NotificationItem key={n.id} notification={n} onRead={state.markRead} />
            ))}
          </MenuList>
        )}
        {state.loadingMore && (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 1 }}>
            <CircularProgress size={20} aria-label="Loading more notifications" />
          </Box>
        )}
        {state.fromCache && state.list.length > 0 && (
          <Typography variant="caption" component="p" color="text.secondary" sx={{ px: 2, py: 1 }}>
            Showing the notifications saved on this device.
          </Typography>
        )}
      </Popover>
    </>
  );
}

function NotificationItem({ notification: n, onRead }: { notification: NotificationWire; onRead(id: string): void }) {
  const date = new Date(n.createdAt);
  return (
    <MenuItem
      onClick={() => !n.isRead && onRead(n.id)}
      sx={{ alignItems: 'flex-start', gap: 1.5, whiteSpace: 'normal', py: 1.25, borderBottom: 1, borderColor: 'divider' }}
    >
      {/* The dot is for the eye; a screen reader hears "Unread" before the title. */}
      <Box
        aria-hidden
        sx={{ mt: 0.75, width: 8, height: 8, flex: 'none', borderRadius: '50%', bgcolor: n.isRead ? 'transparent' : 'primary.main' }}
      />
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: n.isRead ? 400 : 700, overflowWrap: 'anywhere' }}>
          {!n.isRead && <span style={hidden}>Unread: </span>}
          {n.title}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {n.message}
        </Typography>
        {!Number.isNaN(date.getTime()) && (
          <Typography variant="caption" color="text.secondary" component="time" dateTime={n.createdAt}>
            {when.format(date)}
          </Typography>
        )}
      </Box>
    </MenuItem>
  );
}
