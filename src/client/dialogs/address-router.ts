/**
 * react-admin's router with one change, so no list can bring back a dialog the user has closed: a
 * navigation that changes only the search (a list writing its filter, sort or page into the URL, or
 * restoring the parameters it remembers) keeps the dialog address the URL holds now.
 *
 * react-admin builds such a write from the query it last rendered, and the router renders a new location
 * in a transition, which a busy machine can leave pending for seconds. Typing in a list's search right
 * after a dialog closed then wrote the closed dialog's address back, and the dialog opened again (CI at
 * 280521f, 2026-11-28; the category tree's browser test, on a loaded machine, failed so in 2 runs of 3
 * before this and in none of 8 after). A list left while a dialog was open remembered the dialog's
 * address with its parameters, and opened it again on the next visit. The dialog's parameters belong to
 * the dialog host (deep-link.ts), which writes whole locations (a pathname with its search), so its own
 * navigations pass through untouched.
 */
import { useCallback } from 'react';
import { reactRouterProvider, type RouterProvider } from 'react-admin';
import { keepDialogAddress } from './address.ts';

type Navigate = ReturnType<RouterProvider['useNavigate']>;

/** The search of the URL as it is now (the hash router's `#/path?search`), ahead of any render of it. */
function searchNow(): string {
  const at = window.location.hash.indexOf('?');
  return at < 0 ? '' : window.location.hash.slice(at);
}

function useNavigate(): Navigate {
  const navigate = reactRouterProvider.useNavigate();
  return useCallback<Navigate>(
    (to, options) => {
      if (typeof to === 'string' && to.startsWith('?')) return navigate(keepDialogAddress(to, searchNow()), options);
      if (typeof to === 'object' && to.pathname === undefined && typeof to.search === 'string')
        return navigate({ ...to, search: keepDialogAddress(to.search, searchNow()) }, options);
      return navigate(to, options);
    },
    [navigate],
  );
}

export const addressRouterProvider: RouterProvider = { ...reactRouterProvider, useNavigate };
