/**
 * A search (or a filter) applied once its first page is here, read as the filter form applies it
 * (issue 51.10). The form's `setFilters` reaches react-admin's `changeParams`, which writes the new filter
 * into the address in a later task; the list then redrew for the address (45–80 ms on a profiled search)
 * and only after that, from an effect, asked for the page, and drew the rows a third time when it came:
 * 210 ms from the end of the debounce to the rows. Now the page the list will ask for (and its rows'
 * references: read-ahead.ts) is read at once, in the form's own task, and the filter goes into the
 * address when it has come: the list redraws once, with the new rows, finding them under its own key.
 * The rows shown stay until then, as a transition keeps a screen; a slow answer (SEARCH_WAIT_MS) is not
 * waited for, and a later search wins over an earlier one still on its way.
 */
import { useCallback, useMemo, useRef, type ReactNode } from 'react';
import { ListContextProvider, removeEmpty, useDataProvider, useListContext, type ListControllerResult } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import type { ResourceDef } from '../../manifest/index.ts';
import { useRegistry } from '../registry/context.tsx';
import { pageReferenceFields } from './page-references.tsx';
import { dropPageRead, pageHeld, readPageAhead, type PageParams } from './read-ahead.ts';
import { useSignedIn } from './signed-in.tsx';

/** The longest a search's page is waited for before the list shows it as loading (its own request on its way). */
export const SEARCH_WAIT_MS = 500;

/**
 * The list's context as react-admin's list made it, but for `setFilters`, which first reads the page the
 * new filter opens at (its first, in the list's sort and page size, the filter with its empty values
 * dropped: react-admin's SET_FILTER) and applies the filter when it has come. A delayed call (`debounce`)
 * is left to react-admin as it is.
 */
export function SearchAhead({ resource, children }: { resource: ResourceDef; children: ReactNode }) {
  const list = useListContext();
  const { role } = useSignedIn();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider();
  const registry = useRegistry();
  const { setFilters, perPage, sort } = list;
  // The list's own, as it is when a page comes (react-admin's works from the parameters of its render).
  const apply = useRef(setFilters);
  apply.current = setFilters;
  /** The latest call: an earlier one whose page comes after it is dropped. */
  const latest = useRef(0);
  /** The page of a call still waiting for it. */
  const waiting = useRef<PageParams | undefined>(undefined);
  const readingAhead = useCallback<ListControllerResult['setFilters']>(
    (filter, displayedFilters, debounce) => {
      const turn = ++latest.current;
      // A search typed further: the earlier one's page, if nothing shows it, is no longer asked for.
      if (waiting.current) dropPageRead(queryClient, resource.name, waiting.current);
      waiting.current = undefined;
      if (debounce) return apply.current(filter, displayedFilters, debounce);
      const params: PageParams = { pagination: { page: 1, perPage }, sort: { field: sort.field, order: sort.order }, filter: removeEmpty(filter ?? {}) };
      const now = () => {
        if (latest.current !== turn) return;
        waiting.current = undefined;
        apply.current(filter, displayedFilters);
      };
      if (pageHeld(queryClient, resource.name, params)) return now();
      // (Read once: one already on its way is joined, not asked again: react-query's fetchQuery.)
      waiting.current = params;
      const read = readPageAhead(queryClient, dataProvider, resource.name, params, pageReferenceFields(registry, resource, role));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, SEARCH_WAIT_MS)));
      void Promise.race([read, late]).then(() => {
        clearTimeout(timer);
        now();
      });
    },
    [perPage, sort.field, sort.order, queryClient, dataProvider, registry, resource, role],
  );
  const value = useMemo(() => ({ ...list, setFilters: readingAhead }), [list, readingAhead]);
  return <ListContextProvider value={value}>{children}</ListContextProvider>;
}
