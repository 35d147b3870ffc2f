/**
 * "Referrals" (admin): who brought whom (`GET /flowchart/agents`, `GET /flowchart/users`), drawn as a
 * tree chart of nested lists: each account with the accounts it brought in under it, joined by lines.
 * Plain lists and buttons, so a screen reader reads the nesting and a keyboard opens and closes each
 * branch; the chart scrolls in its own box, so a deep tree never widens the page on a phone.
 */
import { useState } from 'react';
import { Alert, Avatar, Box, Chip, IconButton, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { useQuery } from '@tanstack/react-query';
import { Title } from 'react-admin';
import { referrals, type ReferralNode, type ReferralTree } from '../../../resources/referrals.ts';
import { send } from '../providers/http.ts';
import { AVATAR_FALLBACK } from '../providers/auth.ts';
import { LoadingSkeleton } from '../shell/loading.tsx';

/** The two trees: the agents' downlines, or every referral. */
const TREES = {
  agents: { label: 'Agents', heading: 'Every agent and who it brought in', call: referrals.operations.agentTree.call, empty: 'No agents yet.' },
  users: { label: 'Everyone', heading: 'Everyone who brought someone in', call: referrals.operations.userTree.call, empty: 'Nobody has referred anyone yet.' },
} as const;
type TreeName = keyof typeof TREES;

/** Branches shown open at first: the top two levels. */
const OPEN_LEVELS = 2;
const INDENT = 2; // theme spacing units per level: small, so deep trees stay narrow

function useReferralTree(name: TreeName) {
  return useQuery({
    queryKey: ['referrals', name],
    queryFn: async () => (await send(TREES[name].call, {})).json as ReferralTree,
  });
}

function Node({ node, level }: { node: ReferralNode; level: number }) {
  const [open, setOpen] = useState(level < OPEN_LEVELS);
  const name = node.name || node.email || 'Unnamed account';
  const branch = node.children.length > 0;
  return (
    <Box component="li" sx={{ position: 'relative', listStyle: 'none', '&::before': level ? connector : undefined }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5, minWidth: 'max-content' }}>
        {branch ? (
          <IconButton size="small" aria-expanded={open} aria-label={`${open ? 'Hide' : 'Show'} who ${name} brought in`} onClick={() => setOpen(!open)}>
            {open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
          </IconButton>
        ) : (
          <Box sx={{ width: 34 }} aria-hidden />
        )}
        <Avatar src={node.image || AVATAR_FALLBACK} alt="" sx={{ width: 28, height: 28 }} />
        <Typography component="span" variant="body2">
          {name}
        </Typography>
        {node.role && <Chip size="small" variant="outlined" label={node.role} />}
        {branch && (
          <Typography component="span" variant="caption" color="text.secondary">
            brought in {node.descendants}
          </Typography>
        )}
      </Box>
      {branch && open && <Branch nodes={node.children} level={level + 1} />}
    </Box>
  );
}

/** The line from a parent's stem to a child (INDENT is 16 px at the default spacing). */
const connector = { content: '""', position: 'absolute', left: -16, top: 22, width: 12, borderTop: 1, borderColor: 'divider' } as const;

function Branch({ nodes, level, label }: { nodes: ReferralNode[]; level: number; label?: string }) {
  return (
    <Box
      component="ul"
      aria-label={label}
      sx={{ m: 0, p: 0, ...(level ? { ml: 2, pl: INDENT, borderLeft: 1, borderColor: 'divider' } : {}) }}
    >
      {nodes.map((n) => (
        <Node key={n.id} node={n} level={level} />
      ))}
    </Box>
  );
}

export function ReferralsScreen() {
  const [tree, setTree] = useState<TreeName>('agents');
  const { data, isPending, error } = useReferralTree(tree);
  return (
    <Box sx={{ py: 2, px: { xs: 1, sm: 0 }, minWidth: 0 }}>
      <Title title="Referrals" />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mb: 2 }}>
        <ToggleButtonGroup size="small" exclusive value={tree} onChange={(_e, v: TreeName | null) => v && setTree(v)} aria-label="Whose referrals">
          {(Object.keys(TREES) as TreeName[]).map((k) => (
            <ToggleButton key={k} value={k}>
              {TREES[k].label}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        {data && (
          <Typography variant="body2" color="text.secondary" role="status">
            {data.total.toLocaleString()} accounts
          </Typography>
        )}
      </Box>
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {TREES[tree].heading}
      </Typography>
      {error ? (
        <Alert severity="error">Unable to load the referrals.</Alert>
      ) : isPending ? (
        <LoadingSkeleton variant="rounded" height={120} label="Loading referrals" />
      ) : (
        <>
          {data.truncated && (
            <Alert severity="info" sx={{ mb: 2 }}>
              The tree is too large to show whole: its deepest levels and last accounts are left out.
            </Alert>
          )}
          {data.data.length ? (
            <Box sx={{ overflowX: 'auto', pb: 1 }} tabIndex={0} role="region" aria-label={`Referral chart: ${TREES[tree].label}`}>
              <Branch nodes={data.data} level={0} label={`Referral tree: ${TREES[tree].label}`} />
            </Box>
          ) : (
            <Typography color="text.secondary">{TREES[tree].empty}</Typography>
          )}
        </>
      )}
    </Box>
  );
}
