/**
 * How a SQLite search reads its page (search.ts `pageSearchBy`): walking the sort's index when the walk
 * to the page's end is expected to be shorter than SCAN_ROWS_PER_MATCH rows a match, else from the
 * trigram index. The rows are the same either way (tests/api/search.test.ts); this is only the cost.
 */
import { describe, expect, it } from 'vitest';
import { pageSearchBy, SCAN_ROWS_PER_MATCH } from '../../src/server/db/search.ts';

describe('pageSearchBy', () => {
  it('walks for a common word’s first pages, reads the index for a rare one', () => {
    // 'glass': 1,394 of 50,000; the first page ends about 900 rows in.
    expect(pageSearchBy(1394, 50_000, 25)).toBe('scan');
    // A two-word phrase, 185 of 50,000: the walk would be 6,757 rows for 185 matches.
    expect(pageSearchBy(185, 50_000, 25)).toBe('index');
    expect(pageSearchBy(1, 50_000, 25)).toBe('index');
  });

  it('reads the index for a deep page of a common word, once the walk would pass the bound', () => {
    const matches = 1394;
    const rows = 50_000;
    // The largest page end the walk still takes: end × rows / matches ≤ 8 × matches.
    const lastEnd = Math.floor((SCAN_ROWS_PER_MATCH * matches * matches) / rows);
    expect(pageSearchBy(matches, rows, lastEnd)).toBe('scan');
    expect(pageSearchBy(matches, rows, lastEnd + 1)).toBe('index');
  });

  it('never walks for no matches (the walk would read the whole table for nothing)', () => {
    expect(pageSearchBy(0, 50_000, 25)).toBe('index');
    expect(pageSearchBy(0, 0, 25)).toBe('index');
  });

  it('walks when nearly every row matches', () => {
    expect(pageSearchBy(50_000, 50_000, 25)).toBe('scan');
    expect(pageSearchBy(3, 3, 25)).toBe('scan');
  });
});
