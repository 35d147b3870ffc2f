/**
 * Queries built and compiled once, so a repeated read runs the very SQL text again without Kysely
 * building it again: a list's (`compiledListOf`), kept by everything it was built from (the same
 * resource, filters, search, sort, range and scope), a record's by one field (`recordQuery`), the
 * insert of rows by their table, number and columns (`insertQuery`, `insertRowsQuery`), and a write's
 * lookups of its parents by their shape (`lookupsQuery`).
 *
 * Why: building a page's query and its count's key through Kysely (a few hundred frozen nodes, then
 * compiled) cost about 43 µs a request on the main thread (50,000 top categories, sorted page, on a
 * slow day: the whole request was about 430 µs there), while the database itself runs on a worker
 * (sqlite/read-pool.ts). Kept, a repeated page costs one lookup.
 *
 * What is kept is only SQL text and its values, never rows: an entry is a pure function of its key, so
 * it never goes stale when the data changes. The key is the parsed query as JSON (`parseListQuery`
 * already dropped whatever the server ignores, such as a cache-busting `_=<n>`), so distinct queries
 * never share an entry. A list narrowed to its user's reach (ownership) carries that reach as a
 * function: its queries are built every time, not kept. Bounded: at MAX_KEPT entries the whole memo
 * starts again, as the statement caches do (sqlite/sqlite-statements.ts).
 */
import { CompiledQuery, sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { ResourceDef } from '../../manifest/index.ts';
import type { ListQuery } from './list-query.ts';
import type { Db, Scope, SearchBy } from './types.ts';
import { JSON_COLUMN } from './json-records.ts';
import { VERSION } from './tables.ts';

/** The most lists kept per database (a few KiB each: SQL text and values). */
export const MAX_KEPT = 500;

/** What is kept of one list: its page's SQL each way it was read, and the key its total is kept under. */
export interface CompiledList {
  pages: Partial<Record<SearchBy, CompiledQuery<Record<string, unknown>>>>;
  totalKey?: string;
}

const memos = new WeakMap<Db, Map<string, CompiledList>>();

/** Pages run from SQL kept here rather than built again (counted by repository.ts; tests read it). */
export const compiledListStats = { hits: 0 };

/**
 * The kept entry for a list, made empty when first asked for; undefined where nothing may be kept (a
 * list narrowed to its user's reach). The caller fills its fields as it compiles them.
 */
export function compiledListOf(
  db: Db,
  r: ResourceDef,
  query: ListQuery,
  scope: Scope | undefined,
  narrowed: boolean,
  asJson: RawBuilder<string> | undefined,
): CompiledList | undefined {
  if (narrowed) return undefined;
  let memo = memos.get(db);
  if (!memo) memos.set(db, (memo = new Map()));
  // `asJson` is one expression per table for the process's life (json-records.ts): a flag tells it apart.
  const key = `${r.name}\u0000${asJson ? 'json' : 'rows'}\u0000${JSON.stringify(query)}\u0000${scope ? JSON.stringify(scope) : ''}`;
  let kept = memo.get(key);
  if (kept) return kept;
  if (memo.size >= MAX_KEPT) memo.clear();
  memo.set(key, (kept = { pages: {} }));
  return kept;
}

/** A value no request can send: the one parameter a record's query is compiled with, replaced when run. */
const SLOT = Symbol('the value looked up');

/**
 * Memos of SQL text by the database's dialect adapter: the text depends only on the dialect (no plugin
 * rewrites queries here), and a database and every transaction on it share that adapter, whereas each
 * transaction is a Kysely object of its own (a memo by it would compile once a transaction).
 */
const memoOf = <T>(memos: WeakMap<object, Map<string, T>>, db: Db) => {
  const adapter = db.getExecutor().adapter;
  let memo = memos.get(adapter);
  if (!memo) memos.set(adapter, (memo = new Map()));
  return memo;
};

const byField = new WeakMap<object, Map<string, CompiledQuery<Record<string, unknown>> | null>>();

/**
 * What a record read selects from `table`: every column, or with `asJson` the record as JSON text written
 * by the database and its version (findReachableJson). Shared by the compiled read and the narrowed one.
 */
export function recordSelect(db: Db, table: string, asJson?: RawBuilder<string>): SelectQueryBuilder<any, any, any> {
  const from = db.selectFrom(table);
  return asJson ? from.select([asJson.as(JSON_COLUMN), `${table}.${VERSION}`]) : from.selectAll(table);
}

/**
 * The query of a record of `table` by one field, every row reachable (no ownership narrowing): compiled
 * once per table and field, its one value bound when run. Building it was about a tenth of a get-one's
 * time on the main thread (within the noise of whole requests: 4,668 against 4,534 req/s, alternating).
 * Should Kysely ever compile it with other values besides, it is built every time.
 */
export function recordQuery(db: Db, table: string, field: string, value: unknown, asJson?: RawBuilder<string>): CompiledQuery<Record<string, unknown>> {
  const memo = memoOf(byField, db);
  const key = `${table}\u0000${field}${asJson ? '\u0000json' : ''}`;
  let compiled = memo.get(key);
  if (compiled === undefined) {
    const made = buildRecordQuery(db, table, field, SLOT, asJson);
    memo.set(key, (compiled = made.parameters.length === 1 && made.parameters[0] === SLOT ? made : null));
  }
  return compiled ? { ...compiled, parameters: [value] } : buildRecordQuery(db, table, field, value, asJson);
}

// A function of its own, not a named closure made by every get-one's `recordQuery` (README, Performance:
// under tsx each such closure costs a naming call, about 0.3 µs).
const buildRecordQuery = (db: Db, table: string, field: string, value: unknown, asJson: RawBuilder<string> | undefined) =>
  recordSelect(db, table, asJson).where(`${table}.${field}`, '=', value).compile();

/** The column `recordsQuery` adds to each row: the value it was asked by, as text. */
export const ASKED = '__asked';

const byAny = new WeakMap<object, Map<string, CompiledQuery<Record<string, unknown>>>>();

/**
 * PostgreSQL: `recordQuery`'s select for an array of values (`<field> = any($1)`), each row with the
 * value it was asked by as text (ASKED), for the get-ones of a turn read together (postgres/record-batches.ts).
 * Compiled once per table and field, as `recordQuery` is; the array bound when run.
 */
export function recordsQuery(db: Db, table: string, field: string, values: readonly unknown[], asJson: RawBuilder<string>): CompiledQuery<Record<string, unknown>> {
  const memo = memoOf(byAny, db);
  const key = `${table}\u0000${field}`;
  let compiled = memo.get(key);
  if (compiled === undefined) {
    const column = sql.ref(`${table}.${field}`);
    compiled = recordSelect(db, table, asJson)
      .select(sql<string>`${column}::text`.as(ASKED))
      .where(sql<boolean>`${column} = any(${sql.val([])})`)
      .compile();
    memo.set(key, compiled);
  }
  return { ...compiled, parameters: [values] };
}

const inserts = new WeakMap<object, Map<string, string | null>>();

/**
 * The SQL text kept under `key`, made at its first use by `build` given a unique symbol for each of its
 * `count` values: kept when Kysely bound exactly those, in order, so the text runs with the real values
 * bound the same way; null (kept too) where it did not, and the caller builds every time.
 */
function keptText(memos: WeakMap<object, Map<string, string | null>>, db: Db, key: string, count: number, build: (slots: symbol[]) => CompiledQuery): string | null {
  const memo = memoOf(memos, db);
  let text = memo.get(key);
  if (text === undefined) {
    const slots = Array.from({ length: count }, () => Symbol('a value'));
    const made = build(slots);
    text = made.parameters.length === count && made.parameters.every((p, i) => p === slots[i]) ? made.sql : null;
    if (memo.size >= MAX_KEPT) memo.clear();
    memo.set(key, text);
  }
  return text;
}

/** A value Kysely would write into the SQL itself rather than bind (an expression, a subquery). */
const isExpression = (v: unknown) => typeof v === 'function' || (typeof v === 'object' && v !== null && 'toOperationNode' in v);

/**
 * The insert of one row into `table`: compiled once per table and set of columns (those whose value is
 * not `undefined`, as Kysely leaves the others out), its values bound in column order when run.
 * Building and compiling the two inserts of a create (the record and its audit entry) through Kysely
 * cost about 30 µs on the main thread, against 3 µs to bind them. A row holding
 * an expression is built every time, as is any row Kysely would compile with other parameters.
 */
export function insertQuery(db: Db, table: string, row: Record<string, unknown>): CompiledQuery {
  return insertRowsQuery(db, table, [row]);
}

/**
 * The insert of `rows` into `table` in one statement (a create's audit entries, the record's and its
 * notification's): as `insertQuery`, compiled once per table, number of rows and set of columns, when
 * every row sets the same columns in the same order; else built by Kysely (which fills a column some rows
 * leave out with its default), as a row holding an expression is.
 */
export function insertRowsQuery(db: Db, table: string, rows: readonly Record<string, unknown>[]): CompiledQuery {
  const built = () => db.insertInto(table).values(rows.length === 1 ? rows[0] : [...rows]).compile();
  const columns = Object.keys(rows[0]).filter((c) => rows[0][c] !== undefined);
  const values: unknown[] = [];
  for (const row of rows) {
    let n = 0;
    for (const c in row) {
      const v = row[c];
      if (v === undefined) continue;
      if (columns[n++] !== c || isExpression(v)) return built();
      values.push(v);
    }
    if (n !== columns.length) return built();
  }
  const key = `${table}\u0000${rows.length}\u0000${columns.join('\u0000')}`;
  const text = keptText(inserts, db, key, values.length, (slots) =>
    db.insertInto(table).values(rows.map((_, r) => Object.fromEntries(columns.map((c, i) => [c, slots[r * columns.length + i]])))).compile(),
  );
  return text === null ? built() : CompiledQuery.raw(text, values);
}

/** One scalar lookup of `lookupsQuery`: `column` of the row of `table` whose `by` is `key`, answered as `alias`. */
export interface Lookup {
  table: string;
  by: string;
  column: string;
  alias: string;
  key: unknown;
}

const lookupTexts = new WeakMap<object, Map<string, string | null>>();

/**
 * One row of scalar subqueries, one a lookup (a write's parents: records/parents.ts): compiled once per
 * list of tables, columns and aliases, the keys bound in order when run. A product's create asks the same
 * shape each time (its seller and category levels); building it through Kysely's `sql` was a create's
 * largest query built anew.
 */
export function lookupsQuery(db: Db, lookups: readonly Lookup[]): CompiledQuery<Record<string, unknown>> {
  const build = (keys: readonly unknown[]) =>
    sql<Record<string, unknown>>`select ${sql.join(
      lookups.map((l, i) => sql`(select ${sql.ref(l.column)} from ${sql.table(l.table)} where ${sql.ref(l.by)} = ${keys[i]} limit 1) as ${sql.ref(l.alias)}`),
    )}`.compile(db);
  const keys = lookups.map((l) => l.key);
  const shape = lookups.map((l) => `${l.table}\u0001${l.by}\u0001${l.column}\u0001${l.alias}`).join('\u0000');
  const text = keptText(lookupTexts, db, shape, keys.length, build);
  return text === null ? build(keys) : CompiledQuery.raw(text, keys);
}
