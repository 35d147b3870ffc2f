import { describe, expect, it } from 'vitest';
import { TableCounts } from '../../src/server/db/counts.ts';

describe('TableCounts', () => {
  it('keeps a count until a write invalidates it', async () => {
    const counts = new TableCounts();
    let n = 10;
    const compute = async () => n;
    expect(await counts.get('t', compute)).toBe(10);
    n = 11;
    expect(await counts.get('t', compute)).toBe(10);
    counts.invalidate('t');
    expect(await counts.get('t', compute)).toBe(11);
  });

  it('does not keep a count that a write overtook while it was computed', async () => {
    const counts = new TableCounts();
    let n = 5;
    const pending = counts.get('t', async () => {
      const seen = n;
      counts.invalidate('t'); // a write lands while the count runs
      n = 6;
      return seen;
    });
    expect(await pending).toBe(5);
    expect(await counts.get('t', async () => n)).toBe(6);
  });

  it('trusts a count only for its time to live', async () => {
    const counts = new TableCounts(0);
    let n = 1;
    expect(await counts.get('t', async () => n)).toBe(1);
    n = 2;
    expect(await counts.get('t', async () => n)).toBe(2);
  });
});
