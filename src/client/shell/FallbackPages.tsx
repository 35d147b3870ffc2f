/**
 * The pages for an address that shows no screen: an unknown path ("Not Found"), and a screen the role
 * may not open ("Access denied"). react-admin registers only the resources a role may read, so a
 * seller typing `#/auditLog` lands on the catch-all like a typo would; here the catch-all tells a
 * declared resource the role may not read apart from a path nothing declares. Both show the app's
 * name in the app bar (react-admin's pages showed 'React Admin') and a level-two heading under it.
 */
import { Box, Button, Typography } from '@mui/material';
import BlockIcon from '@mui/icons-material/Block';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import type { ReactNode } from 'react';
// react-admin's router hooks and link (router-agnostic), not react-router's: one router context.
import { LinkBase, Loading, Title, useAuthenticated, useLocation, usePermissions } from 'react-admin';
import { useRegistry } from '../registry/context.tsx';
import type { Registry, ResourceDef } from '../../manifest/index.ts';
import { mayList } from '../generate/access.ts';
import { APP_NAME } from './app-name.ts';

/** The words of both pages, declared once (the tests find the pages by them). */
export const FALLBACK = {
  notFound: 'Not Found',
  notFoundText: 'Nothing is at this address. The link may be wrong, or the page was moved.',
  denied: 'Access denied',
  deniedText: (what: string) => `Your role may not open ${what}.`,
  home: 'Back to the dashboard',
} as const;

function Page({ icon, heading, children }: { icon: ReactNode; heading: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: 2, py: 8, px: 2 }}>
      <Title title={APP_NAME} />
      <Box sx={{ color: 'text.secondary', '& svg': { fontSize: 64 } }} aria-hidden>
        {icon}
      </Box>
      <Typography component="h2" variant="h5">
        {heading}
      </Typography>
      <Typography>{children}</Typography>
      <Button component={LinkBase} to="/" variant="contained">
        {FALLBACK.home}
      </Button>
    </Box>
  );
}

/** The resource an address names (its first path segment), when a manifest declares one. */
function declaredAt(registry: Registry, pathname: string): ResourceDef | undefined {
  const name = decodeURIComponent(pathname.split('/')[1] ?? '');
  return registry.resources.find((r) => r.name === name && r.reads.list?.kind === 'list');
}

/** "Access denied": a screen that exists, not for this role. */
export function AccessDeniedPage({ resource }: { resource?: ResourceDef }) {
  return (
    <Page icon={<BlockIcon />} heading={FALLBACK.denied}>
      {FALLBACK.deniedText(resource ? resource.plural : 'this page')}
    </Page>
  );
}

/** The catch-all route: "Access denied" for a declared resource the role may not read, else "Not Found". */
export function NotFoundPage() {
  const { isPending: checking } = useAuthenticated();
  const { permissions, isPending } = usePermissions();
  const { pathname } = useLocation();
  const registry = useRegistry();
  if (checking || isPending) return <Loading />;
  const resource = declaredAt(registry, pathname);
  if (resource && !mayList(resource, permissions)) return <AccessDeniedPage resource={resource} />;
  return (
    <Page icon={<SearchOffIcon />} heading={FALLBACK.notFound}>
      {FALLBACK.notFoundText}
    </Page>
  );
}
