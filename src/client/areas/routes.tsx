/**
 * The routes of the hand-written screens (screens.ts), in the layout beside the generated lists. Each
 * screen's code loads when it is first opened; a role that may not open one is told so ("Access
 * denied"), not shown a missing page.
 */
import type { ReactElement, ReactNode } from 'react';
import { CustomRoutes, reactRouterProvider, usePermissions } from 'react-admin';
import { allows } from '../generate/access.ts';
import { deferred } from '../shell/deferred.tsx';
import { AccessDeniedPage } from '../shell/FallbackPages.tsx';
import { ContentLoading } from '../shell/loading.tsx';
import { SCREENS, type Screen } from './screens.ts';
import { QUEUE_PATH } from '../../features/support/contract.ts';

// The router react-admin runs (its default): its routes must be its own Route elements.
const { Route } = reactRouterProvider;

const AreaPage = deferred(() => import('./AreaPage.tsx').then((m) => m.AreaPage), <ContentLoading />);
const ReferralsScreen = deferred(() => import('./ReferralsScreen.tsx').then((m) => m.ReferralsScreen), <ContentLoading />);
const PeopleScreen = deferred(() => import('./PeopleScreen.tsx').then((m) => m.PeopleScreen), <ContentLoading />);
const SupportQueue = deferred(() => import('../../features/support/client/SupportQueue.tsx').then((m) => m.SupportQueue), <ContentLoading />);

/** The component each screen shows, by path (areas by their role). */
function contentOf(screen: Screen): ReactNode {
  if (screen.area) return <AreaPage role={screen.area} />;
  if (screen.path === '/referrals') return <ReferralsScreen />;
  if (screen.path === '/people') return <PeopleScreen />;
  if (screen.path === QUEUE_PATH) return <SupportQueue />;
  throw new Error(`No component for the screen at ${screen.path}`);
}

function Guarded({ screen }: { screen: Screen }) {
  const { permissions, isPending } = usePermissions();
  if (isPending) return <ContentLoading />;
  return allows(screen.access, permissions) ? contentOf(screen) : <AccessDeniedPage />;
}

/** Every screen's route, for react-admin's children. */
export function screenRoutes(): ReactElement {
  return (
    <CustomRoutes key="screens">
      {SCREENS.map((s) => (
        <Route key={s.path} path={s.path} element={<Guarded screen={s} />} />
      ))}
    </CustomRoutes>
  );
}
