/**
 * Rows taken out of the array a driver answered with, and that array emptied.
 *
 * Why: node-postgres makes each result's `rows` array when the query is sent, and V8 allocates it in
 * the old generation (measured under load at 50 connections: 95 % of them were old at their first row,
 * while the result object holding them was young; V8 pretenures an allocation site whose objects tend
 * to survive). Every row pushed into an old array is kept alive by it through every scavenge until the
 * next full collection, so every record of every page was promoted: 839 MB of 2,743 MB allocated in 8 s
 * on a 25-product page, the old generation collected seven times (4–12 ms pauses, and V8's helper
 * threads marking). An emptied array lets the rows die young: 4–8 MB promoted, no full collection.
 * Harmless where the driver's array is young (SQLite, better-sqlite3 and the read workers).
 */
export function takeRows<R, T>(rows: R[], take: (row: R) => T): T[] {
  const out = rows.map(take);
  rows.length = 0;
  return out;
}

/** The first row, the array emptied (see `takeRows`). */
export function takeFirst<R>(rows: R[]): R | undefined {
  const first = rows[0];
  rows.length = 0;
  return first;
}
