import { describe, expect, it } from 'vitest';
import { ReadCache } from '../../src/server/db/read-cache.ts';

describe('ReadCache', () => {
  it('keeps an answer until a write touches one of its tables', async () => {
    const cache = new ReadCache();
    let n = 10;
    const read = () => cache.get('k', ['a', 'b'], async () => n);
    expect(await read()).toBe(10);
    n = 11;
    expect(await read()).toBe(10);
    cache.invalidate('c');
    expect(await read()).toBe(10);
    cache.invalidate('b');
    expect(await read()).toBe(11);
  });

  it('does not keep an answer that a write overtook while it was read', async () => {
    const cache = new ReadCache();
    let n = 5;
    const first = await cache.get('k', ['t'], async () => {
      const seen = n;
      cache.invalidate('t'); // a write lands while the read runs
      n = 6;
      return seen;
    });
    expect(first).toBe(5);
    expect(await cache.get('k', ['t'], async () => n)).toBe(6);
  });

  it('trusts an answer only for its time to live', async () => {
    const cache = new ReadCache(0);
    let n = 1;
    expect(await cache.get('k', ['t'], async () => n)).toBe(1);
    n = 2;
    expect(await cache.get('k', ['t'], async () => n)).toBe(2);
  });

  it('holds at most maxEntries answers, dropping the oldest', async () => {
    const cache = new ReadCache(Number.POSITIVE_INFINITY, 2);
    let computed = 0;
    const read = (k: string) => cache.get(k, ['t'], async () => ++computed);
    await read('a');
    await read('b');
    await read('c'); // drops 'a'
    expect(await read('b')).toBe(2);
    expect(await read('a')).toBe(4);
  });
});
