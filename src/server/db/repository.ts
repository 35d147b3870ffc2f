/**
 * Generic data access for any manifest resource: lists in the simple-rest dialect, lookups, embeds and
 * row-level writes. Values arriving here are already validated; the rules of writing (slugs, parents,
 * hashes) live in `records/writes.ts`.
 */
import { sql, type AliasedRawBuilder, type CompiledQuery, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Embed, Registry, ResourceDef } from '../../manifest/index.ts';
import type { ListQuery } from './list-query.ts';
import type { ReadCache } from './read-cache.ts';
import { columnName, sortKeyOf, unservedFilters } from './tables.ts';
import { pageSearchBy, searchCondition, searchFieldsOf, searchOnlyCount } from './search.ts';
import { countRows, isSqlite, tableRowsOf, type Total } from './count.ts';
import { isBlobRefusal, joinedPage, JSON_COLUMN, recordByRowidOf, recordJsonOf, WALKED, WALKED_KEY, type JoinedRow } from './json-records.ts';
import { readRows } from './sqlite/read-pool.ts';
import { takeFirst, takeRows } from './taken-rows.ts';
import { compiledListOf, compiledListStats, recordQuery, type CompiledList } from './compiled-queries.ts';
import type { Db, Narrow, Row, Scope, SearchBy } from './types.ts';

// Declared in types.ts; also answered here, where most readers of the records already import from.
export type { Db, Narrow, Row, Scope } from './types.ts';

/** A row as the API answers it: no secret columns, ever; booleans (stored 0/1) as JSON booleans. */
export function toRecord(r: ResourceDef, row: Row | undefined): Row | undefined {
  if (!row) return undefined;
  const out: Row = { ...row };
  for (const f of r.fields) {
    if (f.secret) delete out[columnName(f)];
    else if (f.kind === 'boolean' && f.name in out) out[f.name] = fromStoredBoolean(out[f.name]);
  }
  return out;
}

/** A stored boolean (0/1, or whatever a driver hands back) as JSON; an absent one stays null. */
export function fromStoredBoolean(value: unknown): boolean | null {
  if (value === null || value === undefined) return null;
  return value === true || value === 1 || value === '1' || value === 't' || value === 'true' || value === 1n;
}

/** A JSON boolean as stored (0/1). */
export function toStoredBoolean(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  return value === true || value === 1 || value === '1' || value === 'true' ? 1 : 0;
}

/**
 * The two queries behind a list answer: the page and its count. Built apart from running them so the
 * query-plan test can EXPLAIN exactly what the server runs.
 */
export function listQueries(
  db: Db,
  r: ResourceDef,
  query: ListQuery,
  scope?: Scope,
  narrow?: Narrow,
  searchBy: SearchBy = 'index',
  /** What the page selects of each row: the row whole (default), or its record as JSON text (json-records.ts). */
  asJson?: RawBuilder<string>,
) {
  let base = narrow ? narrow(db.selectFrom(r.name)) : db.selectFrom(r.name);
  const equals = { ...query.equals, ...scope };
  // SQLite, walking the sort's index (`searchBy` 'scan'): a filter no index reads in the sort's order is
  // tested on each walked row (`+column`: SQLite then does not seek it in its own index and sort after).
  const walkPast = searchBy === 'scan' && isSqlite(db) ? new Set(unservedFilters(r, query.sort.field, query.equals ?? {})) : undefined;
  for (const [key, value] of Object.entries(equals))
    base = Array.isArray(value)
      ? value.length
        ? base.where(key, 'in', value)
        : base.where(sql<boolean>`1 = 0`)
      : walkPast?.has(key)
        ? base.where(sql<boolean>`+${sql.ref(`${r.name}.${key}`)} = ${value}`)
        : base.where(key, '=', value);
  // Date ranges compare ISO instants as text: the timestamps are stored so, and `rangeEnd` made the ends so.
  for (const [key, { gte, lte }] of Object.entries(query.ranges ?? {})) {
    if (gte !== undefined) base = base.where(key, '>=', gte);
    if (lte !== undefined) base = base.where(key, '<=', lte);
  }
  const searched = query.q !== undefined && query.q !== '' && searchFieldsOf(r).length > 0;
  // Nothing selects the rows but, at most, a search: no filter, date range, scope or reach.
  const searchAtMost = !narrow && !Object.keys(equals).length && !query.ranges;
  // Read from the engine's search index (search.ts), with the meaning of a plain scan.
  if (searched) base = base.where(searchCondition(db, r, query.q!, searchBy));
  const direction = query.sort.order === 'ASC' ? 'asc' : 'desc';
  // A `sortAs: 'number'` field orders by its numeric value, the very expression its index holds.
  const key = sortKeyOf(r, query.sort.field);
  // The tie-break keeps pages from repeating or skipping rows that share a sort value; it runs in the
  // sort's direction so one `(field, id)` index, read forwards or backwards, gives the whole order.
  // A unique field orders every row by itself.
  const unique = query.sort.field === 'id' || r.fields.some((f) => f.name === query.sort.field && f.unique);
  const ordered = <QB extends SelectQueryBuilder<any, any, any>>(q: QB): QB => {
    const byKey = q.orderBy(key, direction) as QB;
    return unique ? byKey : (byKey.orderBy('id', direction) as QB);
  };
  let rows = base;
  if (query.after) {
    // Keyset paging: the rows after the given one in this very order, sought in the same index.
    const [value, id] = query.after;
    const k = typeof key === 'string' ? sql.ref(key) : key;
    const beyond = sql.raw(direction === 'asc' ? '>' : '<');
    rows = rows.where(unique ? sql<boolean>`${k} ${beyond} ${value}` : sql<boolean>`(${k}, ${sql.ref('id')}) ${beyond} (${value}, ${id})`);
  }
  // Its page's size written into its text (`pagedAs`): on SQLite always; on PostgreSQL where a plain list
  // binds nothing but a keyset's row, or a walked search nothing but its needle (whose walk is costed the
  // same for every needle: below).
  const sizeInText = isSqlite(db) || (searchAtMost && (!searched || searchBy === 'scan'));
  const paged = <QB extends SelectQueryBuilder<any, any, any>>(q: QB): QB =>
    pagedAs(q, query.end - query.start + 1, query.after ? 0 : query.start, sizeInText);
  const selected = (q: SelectQueryBuilder<any, any, any>): SelectQueryBuilder<any, any, Row> =>
    asJson ? q.select(asJson.as(JSON_COLUMN)) : q.selectAll();
  const pageQuery = () => {
    if (searchBy !== 'scan') return paged(ordered(selected(rows)));
    // A common needle, tested row by row in the sort's order: the walk reads only the sort's index (a
    // row's key and sort value; the test reads the searched field from the index where it holds it), and
    // only the page's rows are then read whole. Reading every walked row whole cost twice as much (SQLite,
    // 50,000 top categories, 'glass': 159 -> 83 µs for the walk; PostgreSQL, which fetched each walked
    // row from the table to test it: 2.1 -> 0.6 ms, an index-only walk).
    // The walk hands its rows on in its order with their sort values, and each is read by its key: the
    // engine then knows the page is already in order and sorts nothing. (SQLite: looking the walked
    // rowids up with `rowid in (walk)` and sorting the page again cost 4–8 µs more a page, alone.)
    const table = sql.table(r.name);
    const sqlite = isSqlite(db);
    const sortValue = typeof key === 'string' ? sql.ref(`${r.name}.${key}`) : key;
    // SQLite reads a row by its rowid (an integer key: the table's own B-tree), PostgreSQL by its id (the primary key).
    const rowKey = sqlite ? sql`${table}.rowid` : sql.ref(`${r.name}.id`);
    const walkedColumns: AliasedRawBuilder<unknown, string>[] = [rowKey.as(WALKED_KEY), sql`${sortValue}`.as('sortValue')];
    // The tie-break: the id, except where the sort is unique (SQLite: the id again, as a second column,
    // kept it from seeing the order) or the key is the id already (PostgreSQL).
    if (!unique && sqlite) walkedColumns.push(sql.ref(`${r.name}.id`).as('tieBreak'));
    const walked = paged(ordered(rows.select(walkedColumns)));
    const tieBreak = sqlite ? 'tieBreak' : WALKED_KEY;
    const inOrder = <QB extends SelectQueryBuilder<any, any, any>>(q: QB): QB => {
      const byValue = q.orderBy(sql.ref(`${WALKED}.sortValue`), direction) as QB;
      return unique ? byValue : (byValue.orderBy(sql.ref(`${WALKED}.${tieBreak}`), direction) as QB);
    };
    // Where the records are kept: each read by the walk's key, and the row only where none is kept.
    const byRowid = asJson && recordByRowidOf(asJson);
    if (byRowid) return inOrder(db.selectFrom(walked.as(WALKED)).select(byRowid.as(JSON_COLUMN))) as SelectQueryBuilder<any, any, Row>;
    const joined = inOrder(db.selectFrom(walked.as(WALKED)).crossJoin(r.name).where(sql<boolean>`${rowKey} = ${sql.ref(`${WALKED}.${WALKED_KEY}`)}`)) as SelectQueryBuilder<any, any, any>;
    return asJson ? joined.select(asJson.as(JSON_COLUMN)) : (joined.selectAll(r.name) as SelectQueryBuilder<any, any, Row>);
  };
  const countQuery = () =>
    // A search alone (no filter, scope or reach) is counted in the search index itself.
    (searched && searchAtMost ? searchOnlyCount(db, r, query.q!) : undefined) ??
    base.select((eb) => eb.fn.countAll().as('total'));
  // Each built when first asked for: a request whose total is kept builds no count, a walked search no
  // page from the index (building Kysely's queries was about a tenth of a search's time).
  let page: ReturnType<typeof pageQuery> | undefined;
  let count: ReturnType<typeof countQuery> | undefined;
  let matched: SelectQueryBuilder<any, any, { one: number }> | undefined;
  return {
    get page() {
      return (page ??= pageQuery());
    },
    get count() {
      return (count ??= countQuery());
    },
    /** The rows the list selects, unordered: what a bounded count or an estimate reads (count.ts). */
    get matched() {
      return (matched ??= base.select(sql<number>`1`.as('one')));
    },
  };
}

/**
 * A page's bounds as SQL. Where `sizeInText` (a list that binds no value but a keyset's row), the page size
 * is written into the text and an offset of 0 left out; else both are parameters, as Kysely binds them.
 *
 * Why: PostgreSQL keeps one plan for a prepared statement (a generic plan) only when its parameters do not
 * change what the plan is estimated to cost, and `limit $1 offset $2` does (it assumes a tenth of the table
 * is read): every page was planned afresh for its values. A first page of a plain sorted list then has no
 * parameter at all, and is planned once per connection for exactly its values (pgbench, 50,000 top
 * categories, a page as JSON: 12,000 -> 16,000 pages a second). A keyset page binds only the row it
 * follows, and every value of that is best read by walking the sort's index. A filtered list keeps its
 * bounds bound: with its size in the text, the generic plan of `sellerId = $1` guessed 20 rows for a
 * seller with 990, read them all, wrote each as JSON and sorted them (6.4 ms a page, against 0.2 ms
 * planned for the seller); bound, PostgreSQL plans each page for its values, or keeps a generic plan
 * costed for reading a tenth of the rows, which walks the sort's index (0.3 ms). Page sizes are few (the
 * client asks 10, 25, 50 or 100; at most MAX_PAGE), so are the texts; an offset as text would make a
 * statement a page, so it stays a parameter.
 *
 * SQLite writes every list's page size into the text, filtered, searched and narrowed ones too: with a
 * bound LIMIT, SQLite (3.53, as better-sqlite3 12 bundles it) ran a page as if it prepared its statement
 * again each time (as it does, documented, for a value compared with an index that has STAT4 samples):
 * a page of 25 products of one seller cost 170–250 µs with `limit ?` against 40–80 µs with `limit 25`,
 * measured alone, about what preparing that statement (44 columns written as JSON, a kept record looked
 * up) costs. A bound offset showed no such cost, and stays a parameter.
 */
export function pagedAs<QB extends SelectQueryBuilder<any, any, any>>(query: QB, limit: number, offset: number, sizeInText: boolean): QB {
  if (!Number.isSafeInteger(limit) || limit < 0 || !Number.isSafeInteger(offset) || offset < 0)
    throw new Error(`A page's bounds must be whole numbers, not ${limit} and ${offset}`);
  if (!sizeInText) return query.limit(limit).offset(offset) as QB;
  const limited = query.limit(sql.lit(limit)) as QB;
  return offset ? (limited.offset(offset) as QB) : limited;
}

/** Where a list's total may be kept between writes: the cache, and every table the list reads. */
export interface KeptTotal {
  cache: ReadCache;
  tables: readonly string[];
}

/** A compiled query as `readRows` takes it: sent to a worker as it is, or run on the main connection. */
class Runnable<R> {
  constructor(
    private readonly db: Db,
    private readonly compiled: CompiledQuery<R>,
  ) {}
  compile() {
    return this.compiled;
  }
  async execute() {
    return (await this.db.executeQuery(this.compiled)).rows;
  }
}

/**
 * One read of a list's page: its queries, built when first needed (a page compiled before needs none),
 * and its total. A class, not the seven named closures `readPage` made on every list read (README,
 * Performance: under tsx each costs a naming call, about 0.3 µs).
 */
class PageRead {
  readonly #built: Partial<Record<SearchBy, ReturnType<typeof listQueries>>> = {};
  /** What was compiled for this very list before (compiled-queries.ts), where that may be kept. */
  readonly #memo: CompiledList | undefined;

  constructor(
    private readonly db: Db,
    private readonly r: ResourceDef,
    private readonly query: ListQuery,
    private readonly scope: Scope | undefined,
    private readonly kept: KeptTotal | undefined,
    private readonly narrow: Narrow | undefined,
    private readonly asJson: RawBuilder<string> | undefined,
  ) {
    this.#memo = compiledListOf(db, r, query, scope, narrow !== undefined, asJson);
  }

  queries(by: SearchBy = 'index') {
    return (this.#built[by] ??= listQueries(this.db, this.r, this.query, this.scope, this.narrow, by, this.asJson));
  }

  /** The page's query; written as JSON, its records joined into one row (`joinedPage`). */
  page(by: SearchBy) {
    const memo = this.#memo;
    if (!memo && !this.asJson) return this.queries(by).page;
    let compiled = memo?.pages[by];
    if (compiled) compiledListStats.hits++;
    else {
      compiled = this.queries(by).page.compile();
      if (this.asJson) compiled = joinedPage(this.db, compiled);
      if (memo) memo.pages[by] = compiled;
    }
    return new Runnable<Row>(this.db, compiled);
  }

  counted() {
    return countRows(this.db, this.queries().matched, this.queries().count);
  }

  /**
   * A list's total is the same for every page of it: counted once between writes to what it reads,
   * kept under the query that selects its rows as run (the user's reach, filters, search and all).
   */
  total() {
    if (!this.kept) return this.counted();
    const memo = this.#memo;
    const key = memo ? (memo.totalKey ??= totalKey(this.queries().matched)) : totalKey(this.queries().matched);
    return this.kept.cache.total(key, this.kept.tables, () => this.counted());
  }
}

/** A list's page as its query selects it (rows whole, or records as JSON text) and the list's total. */
async function readPage(db: Db, r: ResourceDef, query: ListQuery, scope: Scope | undefined, kept: KeptTotal | undefined, narrow: Narrow | undefined, asJson?: RawBuilder<string>) {
  const read = new PageRead(db, r, query, scope, kept, narrow, asJson);
  if (query.q) {
    // A search: the count (from the trigram index) first; it decides how the page is read (search.ts).
    const n = await read.total();
    // (An estimated total may be short of the rows there are: its pages are read.)
    if (n.total <= query.start && !n.estimated) return { rows: [] as Row[], ...n };
    const tableRows = kept ? await kept.cache.total(`rows of ${r.name}`, [r.name], () => tableRowsOf(db, r.name)) : await tableRowsOf(db, r.name);
    // A keyset page's walk starts at the row it follows (found in the index): only its own rows are walked.
    const by = pageSearchBy(n.total, tableRows, query.after ? query.end - query.start + 1 : query.end + 1);
    const rows: Row[] = await readRows<Row>(db, read.page(by));
    return { rows, ...n };
  }
  // SQLite, a filter beside a sort no index of it holds (tables.ts `indexesOf`: a status under the
  // price's order): its rows are sought and sorted, or the sort's index walked and each row tested,
  // whichever the count says is sooner, as for a search. (PostgreSQL chooses so itself, from its
  // statistics of the column's common values.)
  if (isSqlite(db) && !query.after && unservedFilters(r, query.sort.field, query.equals ?? {}).length) {
    const n = await read.total();
    if (n.total <= query.start && !n.estimated) return { rows: [] as Row[], ...n };
    const tableRows = kept ? await kept.cache.total(`rows of ${r.name}`, [r.name], () => tableRowsOf(db, r.name)) : await tableRowsOf(db, r.name);
    const rows: Row[] = await readRows<Row>(db, read.page(pageSearchBy(n.total, tableRows, query.end + 1)));
    return { rows, ...n };
  }
  // The page by a worker where there is one (sqlite/read-pool.ts), the total (often kept) meanwhile.
  const [rows, n] = await Promise.all([readRows<Row>(db, read.page('index')), read.total()]);
  return { rows, ...n };
}

export async function list(db: Db, r: ResourceDef, query: ListQuery, scope?: Scope, kept?: KeptTotal, narrow?: Narrow) {
  const { rows, ...n } = await readPage(db, r, query, scope, kept, narrow);
  return { rows: takeRows(rows, (row) => toRecord(r, row)!), ...n };
}

/**
 * `list` with its records as JSON text written and joined into a JSON array by the database (json-records.ts):
 * the same records in the same order, never made into objects. Undefined where only `list` answers: a
 * table too wide, or (SQLite) a page holding a BLOB, which `json_object` refuses; `list` answers it as it
 * always has.
 */
export async function listJson(db: Db, r: ResourceDef, query: ListQuery, scope?: Scope, kept?: KeptTotal, narrow?: Narrow): Promise<({ count: number; joined: string | Uint8Array } & Total) | undefined> {
  const asJson = await recordJsonOf(db, r);
  if (!asJson) return undefined;
  try {
    const { rows, ...n } = await readPage(db, r, query, scope, kept, narrow, asJson);
    // One row (`joinedPage`), or none where a search's count said the page was past the end.
    const page = takeFirst(rows) as JoinedRow | undefined;
    return { count: Number(page?.n ?? 0), joined: page?.page ?? '[]', ...n };
  } catch (error) {
    if (isBlobRefusal(error)) return undefined;
    throw error;
  }
}

/** The key a list's total is kept under: the SQL that selects its rows and the values bound to it. */
function totalKey(matched: SelectQueryBuilder<any, any, any>): string {
  const { sql: text, parameters } = matched.compile();
  return `${text} ${JSON.stringify(parameters)}`;
}

export async function findBy(db: Db, r: ResourceDef, field: string, value: unknown): Promise<Row | undefined> {
  return takeFirst((await db.executeQuery(recordQuery(db, r.name, field, value))).rows);
}

export async function countWhere(db: Db, table: string, field: string, value: unknown): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .where(field, '=', value)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The tables an embed reads besides the resource's own. */
export function embeddedTables(registry: Registry, r: ResourceDef, spec: Embed | undefined): string[] {
  if (!spec) return [];
  return Object.values(spec).flatMap(({ via, embed: deeper }) => {
    const target = registry.resource(r.fields.find((f) => f.name === via)!.reference!);
    return [target.name, ...embeddedTables(registry, target, deeper)];
  });
}

/** Nests referenced records into each row, as a read's `embed` declares. */
export async function embed(db: Db, registry: Registry, r: ResourceDef, rows: Row[], spec: Embed): Promise<Row[]> {
  for (const [key, { via, embed: deeper }] of Object.entries(spec)) {
    const f = r.fields.find((x) => x.name === via)!;
    const target = registry.resource(f.reference!);
    const by = f.referenceBy ?? 'id';
    const ids = [...new Set(rows.map((row) => row[via]).filter((v): v is string => typeof v === 'string'))];
    let related = ids.length
      ? (await db.selectFrom(target.name).selectAll().where(by, 'in', ids).execute()).map((x) => toRecord(target, x)!)
      : [];
    if (deeper) related = await embed(db, registry, target, related, deeper);
    const byId = new Map(related.map((x) => [x[by], x]));
    for (const row of rows) row[key] = byId.get(row[via]) ?? null;
  }
  return rows;
}
