import { describe, expect, it } from 'vitest';
import { takeFirst, takeRows } from '../../src/server/db/taken-rows.ts';

// The driver's array is emptied once read: an array V8 keeps in its old generation would otherwise hold
// every row it was given alive until the next full collection (taken-rows.ts).
describe('taken rows', () => {
  it('takeRows answers each row taken, in order, and leaves the driver array empty', () => {
    const rows = [{ record: '{"a":1}' }, { record: '{"a":2}' }, { record: '{"a":3}' }];
    const held = rows;
    expect(takeRows(rows, (row) => row.record)).toEqual(['{"a":1}', '{"a":2}', '{"a":3}']);
    expect(held).toHaveLength(0);
    expect(takeRows([], (row: { record: string }) => row.record)).toEqual([]);
  });

  it('takeFirst answers the first row (or none) and leaves the driver array empty', () => {
    const one = { id: 'x' };
    const rows = [one, { id: 'y' }];
    expect(takeFirst(rows)).toBe(one);
    expect(rows).toHaveLength(0);
    expect(takeFirst([])).toBeUndefined();
  });
});
