/**
 * The admin's landing page after sign-in (react-admin's `dashboard`, at `/`): how many records each
 * list the role may use holds, grouped as the side menu groups them, each a link to its list; and, for
 * a role that may read the audit log, the latest changes, each a link to its record's history.
 * Generated from the registry, so a new resource appears here as it appears in the menu. Every other
 * role has an area of its own (src/client/areas/): arriving here, it is sent on to it.
 */
import { startTransition, useEffect, useState } from 'react';
import { Box, Card, CardActionArea, List, ListItem, ListItemButton, ListItemText, Typography } from '@mui/material';
import { Link, Navigate, Title, useCreatePath, useGetList, usePermissions, type RaRecord } from 'react-admin';
import type { Registry, ResourceDef } from '../../manifest/index.ts';
import { useRegistry } from '../registry/context.tsx';
import { AUDIT_LOG } from '../../../resources/system.ts';
import { mayList } from '../generate/access.ts';
import { iconFor } from '../generate/icons.ts';
import { homeOf, usableLists } from '../areas/areas.ts';
import { ContentLoading, LoadingSkeleton } from './loading.tsx';
import { Section } from './section.tsx';
import { LedgerSummary } from '../../features/checkout/client/LedgerSummary.tsx';

/** How many of the latest changes are shown. */
export const RECENT_CHANGES = 8;

/** The lists a role may use (areas.ts `mayUse`), by menu group (in registry order; lists outside the menu last). */
export function dashboardGroups(registry: Registry, role: unknown): [group: string, resources: ResourceDef[]][] {
  const groups = new Map<string, ResourceDef[]>();
  for (const r of usableLists(registry.resources, role)) {
    const group = r.menu?.group ?? 'Other';
    groups.set(group, [...(groups.get(group) ?? []), r]);
  }
  return [...groups];
}

export { Section };

/**
 * Whether the browser has had an idle moment since the page was drawn (or a second has passed). The
 * counts, and the three dozen cards that show them, wait for it: a person who signed in to go to a list
 * clicks its menu entry as soon as it shows, and the count requests and the cards' drawing would stand
 * between that click and the list (issue 51.10). What it starts is drawn in a transition, which a
 * click interrupts: left that fast, the dashboard never draws its cards nor asks their counts.
 */
function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const done = () => startTransition(() => setIdle(true));
    // (happy-dom, where the screen tests run, has no idle callbacks: the next turn stands in.)
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(done, 0);
      return () => clearTimeout(timer);
    }
    const handle = requestIdleCallback(done, { timeout: 1000 });
    return () => cancelIdleCallback(handle);
  }, []);
  return idle;
}

/**
 * How many records of a list the signed-in user reaches, as a link to the list. Read as the list
 * reads (one row, `range=[0,0]`, the total from `Content-Range`), so the server's ownership rules
 * decide the number.
 */
export function CountCard({ resource, label, filter }: { resource: ResourceDef; label?: string; filter?: Record<string, unknown> }) {
  const createPath = useCreatePath();
  const idle = useIdle();
  const { total, isPending, error } = useGetList(resource.name, { pagination: { page: 1, perPage: 1 }, sort: resource.sort, filter }, { enabled: idle });
  const Icon = iconFor(resource.menu?.icon);
  const list = createPath({ resource: resource.name, type: 'list' });
  return (
    <Card variant="outlined">
      <CardActionArea component={Link} to={filter ? `${list}?filter=${encodeURIComponent(JSON.stringify(filter))}` : list} sx={{ p: 2, display: 'flex', gap: 2, justifyContent: 'flex-start', height: '100%' }}>
        <Icon color="primary" aria-hidden />
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" color="text.secondary">
            {label ?? resource.plural}
          </Typography>
          <Typography variant="h5" component="p">
            {isPending ? <LoadingSkeleton width={40} label="Counting" /> : error ? '–' : (total ?? 0).toLocaleString()}
          </Typography>
        </Box>
      </CardActionArea>
    </Card>
  );
}

/** One change: who did what to which record, and when; a link to that record's history. */
function Change({ entry }: { entry: RaRecord }) {
  const createPath = useCreatePath();
  const target = useRegistry().resources.find((r) => r.name === entry.resource);
  const what = target?.label ?? String(entry.resource ?? '');
  const when = entry.at ? new Date(String(entry.at)).toLocaleString() : '';
  const filter = JSON.stringify({ resource: entry.resource, recordId: String(entry.recordId ?? '') });
  return (
    <ListItem disablePadding>
      <ListItemButton component={Link} to={`${createPath({ resource: AUDIT_LOG, type: 'list' })}?filter=${encodeURIComponent(filter)}`}>
        <ListItemText
          primary={`${String(entry.user ?? 'Someone')}: ${String(entry.action ?? 'change')} ${what}`}
          secondary={`${when} · record ${String(entry.recordId ?? '')}`}
          slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } }, secondary: { sx: { overflowWrap: 'anywhere' } } }}
        />
      </ListItemButton>
    </ListItem>
  );
}

export function RecentChanges() {
  const createPath = useCreatePath();
  const idle = useIdle();
  const { data, isPending } = useGetList(AUDIT_LOG, { pagination: { page: 1, perPage: RECENT_CHANGES }, sort: { field: 'at', order: 'DESC' } }, { enabled: idle });
  return (
    <Section title="Recent changes">
      <Card variant="outlined">
        {isPending ? (
          <Box sx={{ p: 2 }}>
            <LoadingSkeleton label="Loading recent changes" />
          </Box>
        ) : data?.length ? (
          <List dense disablePadding>
            {data.map((entry) => (
              <Change key={entry.id} entry={entry} />
            ))}
          </List>
        ) : (
          <Typography sx={{ p: 2 }} color="text.secondary">
            No changes yet.
          </Typography>
        )}
      </Card>
      <Box sx={{ mt: 1 }}>
        <Link to={createPath({ resource: AUDIT_LOG, type: 'list' })}>The whole audit log</Link>
      </Box>
    </Section>
  );
}

/**
 * The records waiting for the role's work (each resource's `waiting`: proofs to check, payouts to
 * pay), counted within its reach, each a link to the list so filtered. Nothing when none is declared.
 */
export function WaitingSection({ role }: { role: unknown }) {
  const registry = useRegistry();
  const items = registry.resources.flatMap((r) =>
    (r.waiting ?? []).filter((w) => (w.roles as readonly unknown[]).includes(role) && mayList(r, role)).map((w) => ({ r, w })),
  );
  if (!items.length) return null;
  return (
    <Section title="Waiting for you">
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 200px), 1fr))' }}>
        {items.map(({ r, w }) => (
          <CountCard key={`${r.name} ${w.label}`} resource={r} label={w.label} filter={w.filter} />
        ))}
      </Box>
    </Section>
  );
}

/** Count cards of `groups`, a section each. */
export function CountSections({ groups }: { groups: [string, ResourceDef[]][] }) {
  return groups.map(([group, resources]) => (
    <Section key={group} title={group}>
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 160px), 1fr))' }}>
        {resources.map((r) => (
          <CountCard key={r.name} resource={r} />
        ))}
      </Box>
    </Section>
  ));
}

export function Dashboard() {
  const { permissions, isPending } = usePermissions();
  const registry = useRegistry();
  const home = homeOf(permissions);
  const idle = useIdle();
  if (isPending) return null;
  // Another role's landing page is its area: sent there, in place of this page in the history.
  if (home !== '/') return <Navigate to={home} replace />;
  const groups = dashboardGroups(registry, permissions);
  const auditLog = registry.resources.find((r) => r.name === AUDIT_LOG);
  return (
    <Box sx={{ py: 2, px: { xs: 1, sm: 0 } }}>
      <Title title="Dashboard" />
      <WaitingSection role={permissions} />
      <LedgerSummary role={permissions} />
      {idle ? (
        <>
          <CountSections groups={groups} />
          {auditLog && mayList(auditLog, permissions) && <RecentChanges />}
        </>
      ) : (
        <ContentLoading label="Loading the counts" />
      )}
    </Box>
  );
}
