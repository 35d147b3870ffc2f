/**
 * A list's total. Exact up to EXACT_COUNT_UP_TO rows; above that, on PostgreSQL, the planner's own
 * estimate (kept close by analysing a table after bulk writes: table-statistics.ts), marked as
 * one: counting a million rows exactly reads a million index entries on every request (tens of
 * milliseconds), while a list's pagination only needs "about how many pages". The
 * answer keeps `Content-Range`'s total a number and adds `X-Total-Estimated: true` (reads.ts), and the
 * list then says "about N".
 *
 * SQLite counts in process, from the same indexes the pages are read from, at the sizes it is used
 * for: its totals stay exact.
 */
import { CompiledQuery, sql, SqliteAdapter, type Kysely, type SelectQueryBuilder } from 'kysely';

/**
 * The most rows a PostgreSQL list counts one by one; a larger total is the planner's estimate. Why
 * 20,000: at 1,000 an admin was told "about 1,001" of a table of 10,050 rows (issue 50 part 10: the
 * planner's estimate of a table just written in bulk can be far short, see table-statistics.ts), and
 * counting is cheap at these sizes: 10,001 rows of 50,000 counted in 0.47 ms, 20,001 in 0.90 ms (a
 * filter's index or the whole table alike; docs/performance.md, "Totals, searches and statements"), once
 * a second at most for one list (a total is kept: read-cache.ts).
 */
export const EXACT_COUNT_UP_TO = 20_000;

export { ESTIMATED_HEADER } from '../../domain/list-total.ts';

export interface Total {
  total: number;
  /** True when `total` is an estimate (above EXACT_COUNT_UP_TO, PostgreSQL). */
  estimated?: boolean;
}

export const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * Counts the rows `matched` selects (a list's base query, selecting anything). `exact` counts them all
 * (SQLite, and whatever must be exact).
 */
export async function countRows(
  db: Kysely<any>,
  matched: SelectQueryBuilder<any, any, any>,
  exact: SelectQueryBuilder<any, any, { total: unknown }>,
): Promise<Total> {
  if (isSqlite(db)) return { total: Number((await exact.executeTakeFirstOrThrow()).total) };
  const counted = Number((await boundedCount(db, matched).executeTakeFirstOrThrow()).total);
  if (counted <= EXACT_COUNT_UP_TO) return { total: counted };
  return { total: Math.max(counted, await plannedRows(db, matched)), estimated: true };
}

/** The count PostgreSQL runs: of at most one row more than the bound, so it stops there whatever the table holds. */
export function boundedCount(db: Kysely<any>, matched: SelectQueryBuilder<any, any, any>) {
  return db.selectFrom(matched.limit(EXACT_COUNT_UP_TO + 1).as('matched')).select((eb) => eb.fn.countAll().as('total'));
}

/** The planner's estimate of how many rows a query selects (PostgreSQL `EXPLAIN`, nothing run). */
async function plannedRows(db: Kysely<any>, query: SelectQueryBuilder<any, any, any>): Promise<number> {
  const { sql: text, parameters } = query.compile();
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${text}`, [...parameters]),
  );
  const plan = rows[0]?.['QUERY PLAN'];
  return Math.round(Number((typeof plan === 'string' ? JSON.parse(plan) : plan)?.[0]?.Plan?.['Plan Rows']) || 0);
}

/**
 * About how many rows a table holds, for choosing how a search's page is read (`pageSearchBy`): SQLite
 * counts them; PostgreSQL gives the planner's estimate (counting a million rows exactly takes tens of
 * milliseconds, and the choice needs only their order of magnitude).
 */
export async function tableRowsOf(db: Kysely<any>, table: string): Promise<number> {
  const all = db.selectFrom(table);
  if (!isSqlite(db)) return plannedRows(db, all.select(sql<number>`1`.as('one')));
  return Number((await all.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
}
