/**
 * The list's next page, read before it is asked for (issue 51.10): once a page is on screen and the
 * browser is idle, the next one is read into react-query's cache with the records its reference columns
 * show (read-ahead.ts). A click on "next page" then draws the new rows at once, their references named,
 * instead of redrawing the old rows, asking, and waiting. The list still asks again beside it (its data
 * is stale at once: what is shown is never older than one round trip).
 */
import { useEffect } from 'react';
import { useDataProvider, useListContext } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import type { ResourceDef } from '../../manifest/index.ts';
import { useRegistry } from '../registry/context.tsx';
import { pageReferenceFields } from './page-references.tsx';
import { pageKnown, readPageAhead, type PageParams } from './read-ahead.ts';
import { useSignedIn } from './signed-in.tsx';

type Idle = (run: () => void) => number;
// (happy-dom, where the screen tests run, has no idle callbacks: a short timer stands in.)
const hasIdle = typeof globalThis.requestIdleCallback === 'function';
const onIdle: Idle = (run) => (hasIdle ? requestIdleCallback(run, { timeout: 1000 }) : (setTimeout(run, 50) as unknown as number));
const cancelIdle = (handle: number) => (hasIdle ? cancelIdleCallback(handle) : clearTimeout(handle));

/** Reads the next page (and its rows' references) into the cache while the current one is looked at. */
export function PrefetchNextPage({ resource }: { resource: ResourceDef }) {
  const { page, perPage, sort, filterValues, total, isPending, isFetching, error } = useListContext();
  const { role } = useSignedIn();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider();
  const registry = useRegistry();
  const settled = !isPending && !isFetching && !error;
  const more = typeof total === 'number' && page * perPage < total;
  const filterKey = JSON.stringify(filterValues ?? {});
  const { field, order } = sort;

  useEffect(() => {
    if (!settled || !more) return;
    const params: PageParams = { pagination: { page: page + 1, perPage }, sort: { field, order }, filter: JSON.parse(filterKey) as Record<string, unknown> };
    // Already read (this page was the next one a moment ago, or is being read): nothing to do.
    if (pageKnown(queryClient, resource.name, params)) return;
    const references = pageReferenceFields(registry, resource, role);
    const handle = onIdle(() => void readPageAhead(queryClient, dataProvider, resource.name, params, references));
    return () => cancelIdle(handle);
  }, [settled, more, page, perPage, field, order, filterKey, resource, registry, role, queryClient, dataProvider]);
  return null;
}
