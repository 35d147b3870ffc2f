/**
 * What it holds sees the router's location, and the route it is drawn in, as they were when the path
 * last changed (issue 51.10). react-router's hooks read the whole location, and its links the route's
 * matches as well (`useResolvedPath`, `useNavigate`), which the router makes anew at every address: so
 * every link under a changed location was drawn again. A list writes its page, sort and search into the
 * address's search, and a link of the side menu or of a table's cell (a whole path: a record, a
 * reference) shows nothing of it. Held under this, neither is drawn again for a list's page, sort or search.
 */
import { useContext, useMemo, type ReactNode } from 'react';
// react-router-dom: the module react-admin imports, so its contexts are the same objects in every setting.
import { UNSAFE_LocationContext as LocationContext, UNSAFE_RouteContext as RouteContext } from 'react-router-dom';

export function PathOnlyLocation({ children }: { children: ReactNode }) {
  const location = useContext(LocationContext);
  const route = useContext(RouteContext);
  const pathname = location?.location.pathname;
  // Kept for as long as the path stays the same (the route's matches are the path's: they stay the same too).
  const kept = useMemo(() => location, [pathname]);
  const keptRoute = useMemo(() => route, [pathname]);
  // (No router context to keep, as under a test's own router: nothing to do.)
  return kept ? (
    <LocationContext.Provider value={kept}>
      <RouteContext.Provider value={keptRoute}>{children}</RouteContext.Provider>
    </LocationContext.Provider>
  ) : (
    children
  );
}

export { LocationContext };
