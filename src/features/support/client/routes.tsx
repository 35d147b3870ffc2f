/**
 * The support pages, in the layout (they use the session's socket): a request's live thread, a
 * representative's page with the chat, and the staff's queue (a screen: src/client/areas/screens.ts).
 * Each page's code loads when it is first opened.
 */
import { CustomRoutes, reactRouterProvider, useParams } from 'react-admin';
import { deferred } from '../../../client/shell/deferred.tsx';
import { ContentLoading } from '../../../client/shell/loading.tsx';

const { Route } = reactRouterProvider;

const RequestPage = deferred(() => import('./RequestPage.tsx').then((m) => m.RequestPage), <ContentLoading />);
const TeamMemberPage = deferred(() => import('./TeamMemberPage.tsx').then((m) => m.TeamMemberPage), <ContentLoading />);

function RequestRoute() {
  const { id = '' } = useParams();
  return <RequestPage key={id} id={id} />;
}
function MemberRoute() {
  const { id = '' } = useParams();
  return <TeamMemberPage key={id} id={id} />;
}

export const supportRoutes = (
  <CustomRoutes key="support">
    <Route path="/support/requests/:id" element={<RequestRoute />} />
    <Route path="/support-team/:id" element={<MemberRoute />} />
  </CustomRoutes>
);
