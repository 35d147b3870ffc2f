/**
 * A page read ahead (from a menu entry, the next page, a search) stays fresh for the screen that shows
 * it, however long that screen takes to be drawn: its freshness counts from when a screen first shows it
 * (read-ahead.ts `listFreshness`). CI saw a list read twice on a loaded machine, its screen drawn more
 * than LIST_FRESH_MS after the page read ahead had come. The cache and its observers are react-query's
 * own; the data provider counts the reads.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import type { DataProvider } from 'react-admin';
import { AHEAD_WAITS_MS, LIST_FRESH_MS, listFreshness, listKey, readPageAhead, type PageParams } from '../../src/client/generate/read-ahead.ts';

const params: PageParams = { pagination: { page: 1, perPage: 25 }, sort: { field: 'title', order: 'ASC' }, filter: {} };

/** A data provider whose list reads answer one row and are counted. */
function counting() {
  const reads = { n: 0 };
  const getList = async () => {
    reads.n += 1;
    return { data: [{ id: String(reads.n) }], total: 1 };
  };
  return { reads, dataProvider: { getList } as unknown as DataProvider, queryFn: () => getList() };
}

/** A list screen watching the page, as react-admin's useGetList does (its query options: `staleTime`). */
function show(client: QueryClient, queryFn: () => Promise<unknown>, resource = 'products') {
  const observer = new QueryObserver(client, { queryKey: listKey(resource, params), queryFn, staleTime: listFreshness });
  const stop = observer.subscribe(() => {});
  return { observer, stop };
}

/** Lets react-query's fetches (promises) settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('a page read ahead stays fresh for the screen that shows it', () => {
  let client: QueryClient;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    client = new QueryClient();
  });
  afterEach(() => {
    client.clear();
    vi.useRealTimers();
  });

  it('is not read again when its screen is drawn long after its answer came', async () => {
    const { reads, dataProvider, queryFn } = counting();
    await readPageAhead(client, dataProvider, 'products', params, []);
    expect(reads.n).toBe(1);
    vi.setSystemTime(Date.now() + 3 * LIST_FRESH_MS); // a busy machine draws the list late
    const screen = show(client, queryFn);
    await settle();
    expect(reads.n).toBe(1);
    expect(screen.observer.getCurrentResult().isStale).toBe(false);
    // LIST_FRESH_MS after it was first shown, it is as stale as any page: a screen mounting reads again.
    vi.setSystemTime(Date.now() + LIST_FRESH_MS + 1);
    screen.stop();
    show(client, queryFn);
    await settle();
    expect(reads.n).toBe(2);
  });

  it('waits for its screen at most AHEAD_WAITS_MS', async () => {
    const { reads, dataProvider, queryFn } = counting();
    await readPageAhead(client, dataProvider, 'products', params, []);
    vi.setSystemTime(Date.now() + AHEAD_WAITS_MS + 1);
    show(client, queryFn);
    await settle();
    expect(reads.n).toBe(2);
  });

  it('counts a page read by its own screen (not ahead) from its answer', async () => {
    const { reads, queryFn } = counting();
    const first = show(client, queryFn);
    await settle();
    expect(reads.n).toBe(1);
    first.stop();
    vi.setSystemTime(Date.now() + 3 * LIST_FRESH_MS);
    show(client, queryFn);
    await settle();
    expect(reads.n).toBe(2);
  });

  it('counts a page read ahead while its screen already showed it from its answer', async () => {
    const { reads, dataProvider, queryFn } = counting();
    const early = readPageAhead(client, dataProvider, 'products', params, []);
    const screen = show(client, queryFn); // drawn while the read travels: it shares that read
    await early;
    await settle();
    expect(reads.n).toBe(1);
    vi.setSystemTime(Date.now() + LIST_FRESH_MS + 1);
    screen.stop();
    show(client, queryFn);
    await settle();
    expect(reads.n).toBe(2);
  });
});
