/**
 * The database writes a list page's records as JSON text itself, so a page is never made into
 * JavaScript objects only to be written out again. For a page of 25 products (22 columns), in SQLite
 * alone, one run: the values read out as arrays cost 58 µs, before each row is made an object, passed
 * through `toRecord` and written by fast-json-stringify; `json_object` per row cost 49 µs in all, and its
 * text is the answer (under the bench's load, +21–23 % pages a second). On PostgreSQL node-postgres no
 * longer parses 550 values a page (and the garbage they made): it receives 25 texts.
 *
 * The text is the record `toRecord` makes, as JSON: every column the table has (a column a migration
 * left behind included, as `selectAll` reads it), in the table's order, without the secret ones, a
 * boolean field as `true`/`false` by `fromStoredBoolean`'s rule. Strings are escaped as
 * `JSON.stringify` escapes them; a number may be spelt differently (SQLite: `100.0`,
 * `0.33333333333333332`; PostgreSQL: `1e-07`) but always parses back to the very number the row path
 * would have answered (both write floats so they round-trip), so `JSON.parse` of either answer gives the
 * same value (tests/api/response-schemas.test.ts, on both engines).
 *
 * A column holding a BLOB (SQLite keeps what it is given; no validated write stores one) makes
 * `json_object` fail; the caller then answers by the row path (`listJson` in repository.ts). So does a
 * SQLite table with more columns than its functions take arguments.
 *
 * Both engines keep each record's text as it is written (stored-records.ts, postgres/pg-stored-records.ts): a read
 * answers the kept text, and writes the record itself only for a row that has none.
 */
import { CompiledQuery, sql, type RawBuilder } from 'kysely';
import type { Registry, ResourceDef } from '../../manifest/index.ts';
import { isSqlite } from './count.ts';
import type { Db, KeptRecordsTable } from './types.ts';
import { columnName } from './tables.ts';
import { hasStoredRecords, keptKeyOf, storedOr } from './stored-records.ts';

/** The column a query selecting records as JSON text answers them in (`listJson`, `findReachableJson`). */
export const JSON_COLUMN = 'record';

/**
 * The most arguments SQLite's `json_object` is given (two a column): its limit on a function's arguments
 * is 127 unless it was built with more. A wider table goes by the row path.
 */
const MAX_SQLITE_ARGUMENTS = 126;

/**
 * A page of records as JSON (`page`, selecting JSON_COLUMN), answered as one row: how many records
 * (`n`) and their texts joined by commas in the page's order, in brackets (`page`, a JSON array; `[]` for
 * none), by the database: SQLite's `group_concat`, PostgreSQL's `string_agg`.
 *
 * Why: 25 texts a page were 25 strings made as they were read (on SQLite, by a read worker, then copied
 * one by one to the main thread; on PostgreSQL, 25 rows parsed by node-postgres) and written into the
 * answer's Buffer one by one; now one string is. Measured on SQLite alone (50,000 products, a page of 25
 * by name): the query 60 → 50 µs, the copy between threads 11.4 → 5.4 µs. Under load (two servers at
 * once, 3 s turns, 8 each, 50 connections; 2026-11-27): SQLite 6,681 → 7,815 pages a second (+15 %), our
 * process's CPU 190 → 159 µs a page; PostgreSQL 3,100 → 3,216 (its backends are the bound there), ours
 * 219 → 197 µs a page. The joined text made a BLOB did no better on SQLite alone (−3 %, noise); with the
 * bytes moved from the worker (not copied) and the statement sent by number (sqlite/read-pool.ts), our process's
 * CPU a cold page under load went 108 → 97 µs on the main thread, 255 → 230 µs in all (50,000 products,
 * alternating, 4 runs each, 2026-11-28).
 *
 * The order: the page is a subquery with its `order by` and `limit`, which neither engine flattens into
 * the aggregate above it; SQLite runs it as a co-routine and PostgreSQL as a Limit under the Aggregate,
 * whose rows are aggregated as they come, in that order. tests/api/response-schemas.test.ts compares
 * the joined page with the row path's, record by record, on every resource, for sorts, pages and
 * searches, on both engines (an aggregate ordered otherwise fails it).
 */
export function joinedPage(db: Db, page: CompiledQuery): CompiledQuery<JoinedRow> {
  // SQLite: as bytes (a BLOB), which the read worker hands to the main thread without a copy and the
  // answer takes as they are; a text is made a string in the worker, copied across and encoded again.
  // With its brackets, so a plain list's answer is these very bytes (routes/reads.ts), not a copy with them added.
  const joined = isSqlite(db)
    ? `cast('[' || coalesce(group_concat("${JSON_COLUMN}", ','), '') || ']' as blob)`
    : `'[' || coalesce(string_agg("${JSON_COLUMN}", ','), '') || ']'`;
  return CompiledQuery.raw(`select count(*) as "n", ${joined} as "page" from (${page.sql}) as "joined"`, [...page.parameters]) as CompiledQuery<JoinedRow>;
}

/** What `joinedPage` answers: PostgreSQL's count is a bigint, which node-postgres gives as text; SQLite's page is bytes. The page is a JSON array (`[]` for none). */
export interface JoinedRow {
  n: number | string;
  page: string | Uint8Array;
}

/** SQLite's refusal to write a BLOB into JSON: the caller answers by the row path instead. */
export const isBlobRefusal = (error: unknown) => error instanceof Error && error.message.includes('JSON cannot hold BLOB values');

/** What each database's tables' records are written as, per table: found once (migrations run before the app). */
const made = new WeakMap<Db, Map<string, Promise<RawBuilder<string> | undefined>>>();

/**
 * The SQL expression that writes one row of `r`'s table as its record's JSON text, or undefined where
 * the row path must be taken (a table too wide).
 */
export function recordJsonOf(db: Db, r: ResourceDef): Promise<RawBuilder<string> | undefined> {
  let tables = made.get(db);
  if (!tables) made.set(db, (tables = new Map()));
  let expression = tables.get(r.name);
  if (!expression) {
    const mine = tables;
    // A failed look-up (the database unreachable a moment) is not kept: the next page asks again.
    tables.set(r.name, (expression = make(db, r).catch((error) => (mine.delete(r.name), Promise.reject(error)))));
  }
  return expression;
}

/**
 * The columns a record's JSON holds, as `select *` reads them, in the table's order (the manifest's and
 * any a migration left behind), without the secret ones; undefined where the row path must be taken
 * (no columns, or a SQLite table wider than `json_object` takes arguments).
 */
export async function recordColumns(db: Db, r: ResourceDef): Promise<string[] | undefined> {
  const sqlite = isSqlite(db);
  const { rows } = await (sqlite
    ? sql<{ name: string }>`select name from pragma_table_info(${r.name}) order by cid`
    : sql<{ name: string }>`select attname as name from pg_attribute where attrelid = to_regclass(quote_ident(${r.name})) and attnum > 0 and not attisdropped order by attnum`
  ).execute(db);
  const secret = new Set(r.fields.filter((f) => f.secret).map(columnName));
  const columns = rows.map((c) => c.name).filter((name) => !secret.has(name));
  if (!columns.length || (sqlite && columns.length * 2 > MAX_SQLITE_ARGUMENTS)) return undefined;
  return columns;
}

/**
 * The SQL expression writing the row `row` (the table's name, or a trigger's `new`) of `r`'s table as its
 * record's JSON text, from `columns` (`recordColumns`).
 */
export function recordJsonExpression(db: Db, r: ResourceDef, columns: readonly string[], row: string = r.name): RawBuilder<string> {
  const sqlite = isSqlite(db);
  const booleans = new Set(r.fields.filter((f) => !f.secret && f.kind === 'boolean').map((f) => f.name));
  const values = columns.map((name) => {
    const value = sql.ref(`${row}.${name}`);
    // `fromStoredBoolean`: null stays null; 1 is true (SQLite, which keeps any type: also '1', 't', 'true'); anything else false.
    if (!booleans.has(name)) return value;
    return sqlite
      ? sql`case when ${value} is null then null when ${value} in (1, '1', 't', 'true') then json('true') else json('false') end`
      : sql`case when ${value} is null then null else ${value} = 1 end`;
  });
  return sqlite
    ? sql<string>`json_object(${sql.join(columns.map((name, i) => sql`${sql.lit(name)}, ${values[i]}`))})`
    : // PostgreSQL: `row_to_json` of the row's own columns writes compact JSON (`json_build_object` puts
      // " : " between each key and value, 8 % more bytes a page), as text: node-postgres would parse json.
      sql<string>`(select row_to_json(json_row) from (select ${sql.join(columns.map((name, i) => sql`${values[i]} as ${sql.ref(name)}`))}) as json_row)::text`;
}

/**
 * Each resource's table as the engines' migrations of kept records take it (stored-records.ts): its
 * record's columns and the SQL writing a row as that record. A text that binds a value could not be a
 * trigger's: refused.
 */
export async function keptRecordsTables(db: Db, registry: Registry): Promise<KeptRecordsTable[]> {
  const tables: KeptRecordsTable[] = [];
  for (const r of registry.resources) {
    // A resource that keeps none (`keptRecords: false`): the migration drops what an earlier one made.
    const columns = r.keptRecords === false ? undefined : await recordColumns(db, r);
    const recordSql = (row: string) => {
      const record = recordJsonExpression(db, r, columns!, row).compile(db);
      if (record.parameters.length) throw new Error(`${r.name}: a record's text binds values (${record.sql})`);
      return record.sql;
    };
    tables.push({ table: r.name, columns, recordSql });
  }
  return tables;
}

/** The name a walked search's page gives its walk (repository.ts), whose WALKED_KEY column `recordByRowidOf` reads. */
export const WALKED = 'walked';
/** The walk's column holding each walked row's key: its rowid on SQLite, its id on PostgreSQL. */
export const WALKED_KEY = 'rowKey';

/** For an expression `recordJsonOf` made over kept records: the same record read by the walk's rowid (`recordByRowidOf`). */
const byRowid = new WeakMap<RawBuilder<string>, RawBuilder<string>>();

/**
 * A table whose records are kept: the record of the row whose key (SQLite's rowid, PostgreSQL's id) is
 * WALKED's WALKED_KEY, read without reading the row itself unless no record is kept for it (a row the
 * triggers could not write). A page that knows its keys before its rows (a walked search: repository.ts)
 * reads only the kept texts: on SQLite, joining the table to read its rows, for the one column the kept
 * text makes unneeded, cost 3–4 µs a page of 25 ('glass' on 50,000 top categories, alone: 79–82 → 75–78
 * µs). Compiled once, as `recordJsonOf`'s expression is. Undefined where no record is kept (the row is needed).
 */
export const recordByRowidOf = (asJson: RawBuilder<string>) => byRowid.get(asJson);

/** The alias under which a PostgreSQL kept record's fallback reads its own row again (`ownRowRecord`). */
const OWN_ROW = 'own_row';

/**
 * PostgreSQL: the record of the row being read, written now from that row read again by its id, for a
 * row that has no kept text. Why not from the row the query is on: a page's query that names no column
 * but its sort's, its filters' and the id reads them from the sort's index alone (an index-only scan),
 * and fetches no row of the table at all, where naming every column (for a fallback that is never
 * taken: COALESCE stops at the kept text) made it fetch all 25. A page of 25 of 50,000 products sorted
 * by name, in PostgreSQL alone (pgbench, prepared, one client): 128 → 104 shared buffers read, 7,275 and
 * 7,310 → 7,803 and 8,081 pages a second. A get-one reads its row anyway (the version, the owner).
 */
function ownRowRecord(db: Db, r: ResourceDef, columns: readonly string[]): RawBuilder<string> {
  const own = recordJsonExpression(db, r, columns, OWN_ROW);
  return sql<string>`(select ${own} from ${sql.table(r.name)} as ${sql.table(OWN_ROW)} where ${sql.ref(`${OWN_ROW}.id`)} = ${sql.ref(`${r.name}.id`)})`;
}

async function make(db: Db, r: ResourceDef): Promise<RawBuilder<string> | undefined> {
  const columns = await recordColumns(db, r);
  if (!columns) return undefined;
  const written = recordJsonExpression(db, r, columns);
  // The text the triggers keep (stored-records.ts) where there is one, else written now.
  const kept = await hasStoredRecords(db, r.name);
  const expression = !kept ? written : isSqlite(db) ? storedOr(db, r.name, written) : storedOr(db, r.name, ownRowRecord(db, r, columns));
  // Compiled here once, to text with no parameters (names are literals): a page's query then compiles it
  // as one raw piece, where 44 members cost ~12 µs to compile on every request (products).
  const compiled = expression.compile(db);
  const made = compiled.parameters.length ? expression : sql.raw<string>(compiled.sql);
  if (kept) {
    const table = sql.table(r.name);
    const key = sql.ref(`${WALKED}.${WALKED_KEY}`);
    const byWalk = storedOr(db, r.name, sql<string>`(select ${written} from ${table} where ${keptKeyOf(db, r.name)} = ${key})`, key);
    const text = byWalk.compile(db);
    byRowid.set(made, text.parameters.length ? byWalk : sql.raw<string>(text.sql));
  }
  return made;
}
