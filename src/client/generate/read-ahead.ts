/**
 * A list's page read before the list asks for it (issue 51.10), into react-query's cache under the very
 * key react-admin's list reads it by (`useGetList`: `[resource, 'getList', { pagination, sort, filter,
 * meta }]`), then the records its reference columns show, under the keys their cells read first
 * (`[target, 'getOne', { id }]`: page-references.tsx's placeholder). The list then finds its rows (and
 * their references' names) there, or its request already on its way, and asks once.
 *  - the next page, while a page is looked at (next-page.tsx);
 *  - a list's first page, from the click on its menu entry (`useOpenList`): the list's own request went
 *    out only once its screen was drawn and react-admin had checked the session again, 350 ms after the
 *    click on a profiled sign-in; now it goes out with the click, and the screen is drawn while it travels;
 *  - a search's first page, as the filter form applies it (search-ahead.tsx).
 */
import { useCallback } from 'react';
import { useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import { getQuery, parseQueryFromLocation, useDataProvider, useStoreContext, type DataProvider, type RaRecord, type SortPayload } from 'react-admin';
import type { FieldDef, ResourceDef } from '../../manifest/index.ts';
import { useRegistry } from '../registry/context.tsx';
import { pageReferenceFields } from './page-references.tsx';

/**
 * How long a page just read counts as fresh for a list screen that mounts and shows it: a page read
 * ahead from the menu, its screen drawn while the read travels, is not asked for a second time. A
 * refresh (after a write, a live event) reads again whatever its age.
 */
export const LIST_FRESH_MS = 2_000;

/**
 * How long a page read ahead waits for the screen that shows it. Its freshness (LIST_FRESH_MS) counts
 * from when a screen first shows it, not from its answer: on a slow or busy machine the screen may be
 * drawn more than LIST_FRESH_MS after the answer came, and would read the page again at once.
 */
export const AHEAD_WAITS_MS = 60_000;

/** A page's query, whatever its data's type. */
type AnyQuery = Query<any, any, any, any>;

/** Pages read ahead, with when a screen first showed them (undefined: not yet). */
const readAhead = new WeakMap<AnyQuery, number | undefined>();

/**
 * A list screen's `staleTime` (react-query calls it with the page's query): LIST_FRESH_MS, counted for a
 * page read ahead from when a screen first watched it (its first observer), and at most AHEAD_WAITS_MS
 * for one no screen has shown yet.
 */
export function listFreshness(query: AnyQuery): number {
  if (!readAhead.has(query)) return LIST_FRESH_MS;
  let shownAt = readAhead.get(query);
  if (shownAt === undefined) {
    if (query.getObserversCount() === 0) return AHEAD_WAITS_MS;
    shownAt = Date.now();
    if (shownAt - query.state.dataUpdatedAt > AHEAD_WAITS_MS) {
      readAhead.delete(query); // its screen came too late: as old as any page
      return LIST_FRESH_MS;
    }
    readAhead.set(query, shownAt);
  }
  return Math.max(LIST_FRESH_MS, shownAt + LIST_FRESH_MS - query.state.dataUpdatedAt);
}

/** Spec's page size; the server answers `Content-Range: … 0-24/…` for the first page. */
export const PER_PAGE = 25;

/** A list's sort before the user chooses one: its reorder order (a reorderable list), else its declared sort. */
export function listSort(resource: ResourceDef): SortPayload | undefined {
  const reorder = resource.list?.reorder;
  return reorder ? { field: reorder.field, order: 'ASC' } : resource.sort;
}

/** What a list asks its data provider for a page (react-admin's `useGetList` parameters). */
export interface PageParams {
  pagination: { page: number; perPage: number };
  sort: SortPayload;
  filter: Record<string, unknown>;
}

/** react-admin's own list defaults where a list declares none (useListParams). */
const RA_DEFAULT_SORT: SortPayload = { field: 'id', order: 'ASC' };

/**
 * The page a list screen asks for when it opens at `search` (the address's search, '' from a menu): as
 * react-admin's useListParams works it out, from the address's parameters, else those it remembers of the
 * list's last visit (`remembered`, its store's `<resource>.listParams`), else the list's defaults.
 */
export function openingPage(resource: ResourceDef, search: string, remembered: unknown): PageParams {
  const query = getQuery({
    queryFromLocation: parseQueryFromLocation({ search }),
    params: remembered ?? {},
    filterDefaultValues: undefined,
    sort: listSort(resource) ?? RA_DEFAULT_SORT,
    perPage: PER_PAGE,
  });
  return {
    pagination: { page: query.page, perPage: query.perPage },
    sort: { field: query.sort, order: query.order },
    filter: { ...(query.filter as Record<string, unknown>) },
  };
}

/** useGetList's key for `params` of `resource`. */
export const listKey = (resource: string, params: PageParams) => [resource, 'getList', { ...params, meta: undefined }];

/** Whether the page is in the cache already. */
export function pageHeld(queryClient: QueryClient, resource: string, params: PageParams): boolean {
  return queryClient.getQueryState(listKey(resource, params))?.status === 'success';
}

/**
 * Cancels a page read ahead that nothing shows (no list watches it): a search typed further no longer
 * needs its earlier query's page, and its request would queue the answers that matter behind it.
 */
export function dropPageRead(queryClient: QueryClient, resource: string, params: PageParams): void {
  const queryKey = listKey(resource, params);
  if (queryClient.getQueryCache().find({ queryKey, exact: true })?.getObserversCount() === 0) void queryClient.cancelQueries({ queryKey, exact: true });
}

/** Whether the page is in the cache already, or on its way: nothing to read then. */
export function pageKnown(queryClient: QueryClient, resource: string, params: PageParams): boolean {
  return pageHeld(queryClient, resource, params) || queryClient.isFetching({ queryKey: listKey(resource, params), exact: true }) > 0;
}

/**
 * Reads the page of `resource`, then the records of its `references` columns the cache does not hold.
 * A failure is no failure of what is shown: the list asks again itself, and says so if it fails.
 */
export function readPageAhead(queryClient: QueryClient, dataProvider: DataProvider, resource: string, params: PageParams, references: FieldDef[]): Promise<void> {
  return queryClient
    .fetchQuery({
      queryKey: listKey(resource, params),
      queryFn: ({ signal }) => dataProvider.getList(resource, { ...params, signal }).then(({ data, total, pageInfo, meta }) => ({ data, total, pageInfo, meta })),
    })
    .then(({ data }: { data: RaRecord[] }) => {
      const query = queryClient.getQueryCache().find({ queryKey: listKey(resource, params), exact: true });
      // Shown already (its screen mounted while it travelled): its freshness counts from its answer.
      if (query && query.getObserversCount() === 0) readAhead.set(query, undefined);
      return Promise.all(
        references.map(async (f) => {
          const target = f.reference!;
          const ids = [...new Set(data.map((row) => row[f.name]).filter((id) => id !== null && id !== undefined && id !== '').map(String))].filter(
            (id) => queryClient.getQueryData([target, 'getOne', { id, meta: undefined }]) === undefined,
          );
          if (!ids.length) return;
          const { data: records } = await dataProvider.getMany(target, { ids });
          for (const record of records) queryClient.setQueryData([target, 'getOne', { id: String(record.id), meta: undefined }], (old: RaRecord | undefined) => old ?? record);
        }),
      );
    })
    .then(
      () => {},
      () => {},
    );
}

/**
 * What a menu entry of a list calls as it is chosen (`role`: who is signed in): the list's first page,
 * as the list will ask for it, is read from then on.
 */
export function useOpenList(role: unknown): (name: string) => void {
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider();
  const store = useStoreContext();
  const registry = useRegistry();
  return useCallback(
    (name: string) => {
      const resource = registry.resources.find((r) => r.name === name);
      if (!resource) return;
      const params = openingPage(resource, '', store.getItem(`${name}.listParams`));
      if (pageKnown(queryClient, name, params)) return;
      void readPageAhead(queryClient, dataProvider, name, params, pageReferenceFields(registry, resource, role));
    },
    [queryClient, dataProvider, store, registry, role],
  );
}
