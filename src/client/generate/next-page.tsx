/**
 * The list's next page, read before it is asked for (issue 51.10): once a page is on screen and the
 * browser is idle, the next one is fetched into react-query's cache under the very key react-admin's
 * list reads it by (`useGetList`: `[resource, 'getList', { pagination, sort, filter }]`), and the
 * records its reference columns show under the keys their cells read first (`[target, 'getOne', { id }]`,
 * `useGetManyAggregate`'s placeholder). A click on "next page" then draws the new rows at once, their
 * references named, instead of redrawing the old rows, asking, and waiting. The list still asks again
 * beside it (its data is stale at once: what is shown is never older than one round trip).
 */
import { useEffect } from 'react';
import { useDataProvider, useListContext, usePermissions, type RaRecord } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import type { ResourceDef } from '../../manifest/index.ts';
import { useRegistry } from '../registry/context.tsx';
import { readsReference } from './access.ts';

type Idle = (run: () => void) => number;
// (happy-dom, where the screen tests run, has no idle callbacks: a short timer stands in.)
const hasIdle = typeof globalThis.requestIdleCallback === 'function';
const onIdle: Idle = (run) => (hasIdle ? requestIdleCallback(run, { timeout: 1000 }) : (setTimeout(run, 50) as unknown as number));
const cancelIdle = (handle: number) => (hasIdle ? cancelIdleCallback(handle) : clearTimeout(handle));

/** Reads the next page (and its rows' references) into the cache while the current one is looked at. */
export function PrefetchNextPage({ resource }: { resource: ResourceDef }) {
  const { page, perPage, sort, filterValues, total, isPending, isFetching, error } = useListContext();
  const { permissions } = usePermissions();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider();
  const registry = useRegistry();
  const settled = !isPending && !isFetching && !error;
  const more = typeof total === 'number' && page * perPage < total;
  const filterKey = JSON.stringify(filterValues ?? {});
  const { field, order } = sort;

  useEffect(() => {
    if (!settled || !more) return;
    const params = { pagination: { page: page + 1, perPage }, sort: { field, order }, filter: JSON.parse(filterKey) as Record<string, unknown> };
    const queryKey = [resource.name, 'getList', params];
    // Already read (this page was the next one a moment ago, or is being read): nothing to do.
    if (queryClient.getQueryState(queryKey)?.status === 'success' || queryClient.isFetching({ queryKey }) > 0) return;
    const references = resource.fields.filter((f) => f.kind === 'reference' && f.list && !f.referenceBy && readsReference(registry, f, permissions));
    const handle = onIdle(() => {
      void queryClient
        .fetchQuery({
          queryKey,
          queryFn: ({ signal }) =>
            dataProvider.getList(resource.name, { ...params, signal }).then(({ data, total, pageInfo, meta }) => ({ data, total, pageInfo, meta })),
        })
        .then(({ data }: { data: RaRecord[] }) =>
          Promise.all(
            references.map(async (f) => {
              const target = f.reference!;
              const ids = [...new Set(data.map((row) => row[f.name]).filter((id) => id !== null && id !== undefined && id !== '').map(String))].filter(
                (id) => queryClient.getQueryData([target, 'getOne', { id }]) === undefined,
              );
              if (!ids.length) return;
              const { data: records } = await dataProvider.getMany(target, { ids });
              for (const record of records) queryClient.setQueryData([target, 'getOne', { id: String(record.id) }], (old: RaRecord | undefined) => old ?? record);
            }),
          ),
        )
        // A failed read ahead is no failure of the page shown: the click asks again, and says so if it fails.
        .catch(() => {});
    });
    return () => cancelIdle(handle);
  }, [settled, more, page, perPage, field, order, filterKey, resource, registry, permissions, queryClient, dataProvider]);
  return null;
}
