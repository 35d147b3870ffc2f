/**
 * The read cache with other server nodes (src/server/cluster): a write here is told to them and a
 * write's answer can wait for that; their writes drop answers here; while this node cannot hear them,
 * nothing is served from or kept in the cache.
 */
import { describe, expect, it } from 'vitest';
import { ReadCache } from '../../src/server/db/read-cache.ts';

function peers() {
  const told: string[] = [];
  const pending: Array<() => void> = [];
  let listening = true;
  return {
    told,
    release: () => pending.splice(0).forEach((done) => done()),
    setListening: (value: boolean) => (listening = value),
    api: {
      publish: (table: string) => {
        told.push(table);
        return new Promise<void>((resolve) => pending.push(resolve));
      },
      listening: () => listening,
    },
  };
}

describe('read cache with peers', () => {
  it('tells the peers of a write, and `published` waits until they have handled it', async () => {
    const cache = new ReadCache();
    const p = peers();
    cache.connectPeers(p.api);
    cache.invalidate('categories');
    expect(p.told).toEqual(['categories']);
    let settled = false;
    const waiting = cache.published().then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    p.release();
    await waiting;
    expect(settled).toBe(true);
  });

  it('drops answers when a peer wrote their table, without telling anyone', async () => {
    const cache = new ReadCache();
    const p = peers();
    cache.connectPeers(p.api);
    let reads = 0;
    const read = () => cache.get('list', ['categories'], async () => ++reads);
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    cache.invalidateHere('categories');
    expect(await read()).toBe(2);
    expect(p.told).toEqual([]);
  });

  it('serves and keeps nothing while it cannot hear the peers, and forgets all when asked', async () => {
    const cache = new ReadCache();
    const p = peers();
    cache.connectPeers(p.api);
    let reads = 0;
    const read = () => cache.get('list', ['categories'], async () => ++reads);
    await read();
    p.setListening(false);
    expect(await read()).toBe(2);
    expect(await read()).toBe(3);
    p.setListening(true);
    // The answer kept before is there again; the cluster calls `invalidateAll` as it hears again.
    expect(await read()).toBe(1);
    cache.invalidateAll();
    expect(cache.size).toBe(0);
    expect(await read()).toBe(4);
  });
});
