/**
 * react-admin's router, changed only for the navigations that change nothing but the search (a list
 * writing its filter, sort or page into the URL, or restoring the parameters it remembers), which are
 * judged against the URL as it is now: such a write keeps the dialog address the URL holds, so no list
 * can bring back a dialog the user has closed; and a restore is dropped once the URL holds a list's
 * parameters, so none can overwrite a search the user has typed.
 *
 * react-admin builds such a write from the query it last rendered, and the router renders a new location
 * in a transition, which a busy machine can leave pending for seconds. Typing in a list's search right
 * after a dialog closed then wrote the closed dialog's address back, and the dialog opened again (CI at
 * 280521f, 2026-11-28; the category tree's browser test, on a loaded machine, failed so in 2 runs of 3
 * before this and in none of 8 after). A list left while a dialog was open remembered the dialog's
 * address with its parameters, and opened it again on the next visit. The dialog's parameters belong to
 * the dialog host (deep-link.ts), which writes whole locations (a pathname with its search), so its own
 * navigations pass through untouched.
 *
 * The same lag let a list opened from the menu restore the parameters it remembers over a search the
 * user had typed a moment after (CI at 5999890: the saved-query browser test's list showed the old
 * search's rows under the new search's words); that restore is dropped when the address already holds
 * parameters of a list, as react-admin itself means it to be.
 *
 * And a navigate that does not redraw who holds it (issue 51.10): react-router's `useNavigate` reads
 * the current route, which is new at every navigation, so every component holding a navigate was drawn
 * again at each page, sort or search of a list, every row of the table among them (react-admin's row
 * holds one for its click). Under a data router (the app's) the router's own `navigate` serves: it is
 * the same function throughout, and react-admin navigates to whole paths or to a search, which it
 * resolves against the current location as the hook would.
 */
import { useCallback, useContext } from 'react';
// react-router-dom: the module react-admin imports, so its contexts are the same objects in every setting.
import { UNSAFE_DataRouterContext as DataRouterContext } from 'react-router-dom';
import { reactRouterProvider, type RouterProvider } from 'react-admin';
import { hasListParams, keepDialogAddress } from './address.ts';

type Navigate = ReturnType<RouterProvider['useNavigate']>;

/** The search of the URL as it is now (the hash router's `#/path?search`), ahead of any render of it. */
function searchNow(): string {
  const at = window.location.hash.indexOf('?');
  return at < 0 ? '' : window.location.hash.slice(at);
}

/** The search of a navigation that changes nothing else (a list's write), or `undefined` for any other. */
function searchOnly(to: Parameters<Navigate>[0]): string | undefined {
  if (typeof to === 'string') return to.startsWith('?') ? to : undefined;
  if (typeof to === 'object' && to.pathname === undefined && typeof to.search === 'string') return to.search;
  return undefined;
}

type Router = NonNullable<React.ContextType<typeof DataRouterContext>>['router'];

/** Each data router's navigate, made once. */
const routerNavigates = new WeakMap<Router, Navigate>();

function navigateOf(router: Router): Navigate {
  let navigate = routerNavigates.get(router);
  if (!navigate) {
    navigate = ((to: Parameters<Navigate>[0], options?: Parameters<Navigate>[1]) =>
      typeof to === 'number' ? void router.navigate(to) : void router.navigate(to, options)) as Navigate;
    routerNavigates.set(router, navigate);
  }
  return navigate;
}

/**
 * The router's navigate: under a data router, its own (the same function at every render, reading no
 * route); elsewhere (a test's memory router) react-admin's. Whether there is a data router never
 * changes while a component lives, so the hooks called stay the same.
 */
function useRouterNavigate(): Navigate {
  const dataRouter = useContext(DataRouterContext);
  if (dataRouter) return navigateOf(dataRouter.router);
  return reactRouterProvider.useNavigate();
}

function useNavigate(): Navigate {
  const navigate = useRouterNavigate();
  return useCallback<Navigate>(
    (to, options) => {
      const search = searchOnly(to);
      if (search === undefined) return navigate(to, options);
      const now = searchNow();
      // A list restores the parameters it remembers into an address that has none, with the one
      // search-only `replace` react-admin makes (ra-core 5's useListParams). By the time it runs, the
      // address may hold parameters the user has since chosen (typing in the search right after opening
      // the list): react-admin's own rule is not to override those, so the stale restore is dropped.
      if (options?.replace && hasListParams(now)) return;
      const kept = keepDialogAddress(search, now);
      // A list's own write (its page, sort, search: made from a timer, never while React renders) is
      // drawn at once, not in a transition: React slices a transition's drawing between frames, and
      // batches it with any other pending (the dashboard's cards, the form warm-up), so the new page or
      // the search's request waited on them (issue 51.10). A restore (`replace`, from an effect) is left be.
      const sync = options?.replace ? options : { ...options, flushSync: true };
      return navigate(typeof to === 'object' ? { ...to, search: kept } : kept, sync);
    },
    [navigate],
  );
}

export const addressRouterProvider: RouterProvider = { ...reactRouterProvider, useNavigate };
