/**
 * List search (`filter={"q":"…"}`): a case-insensitive substring of any of the resource's searchable
 * fields, answered from an index on both engines instead of a scan of the table.
 *
 * The meaning is one predicate, the same as a plain scan's: `lower(field) like '%needle%'` with the
 * needle lowered (JavaScript's `toLowerCase`) and its `%`, `_` and `\` taken literally. The indexes
 * only find the rows that predicate selects, faster:
 *
 * - SQLite: an FTS5 table per searchable resource, `<table>_search`, tokenized in trigrams and
 *   case-sensitive, holding `lower(field)` exactly as SQLite computes it, keyed by the row's rowid and
 *   kept in step by triggers (insert, update of a searched field, delete; moving a row to the recycle
 *   bin and back is a delete and an insert), whose written rows are indexed as their transaction
 *   commits (sqlite/search-pending.ts). A needle of three characters or more is a quoted FTS5
 *   phrase over those trigrams, which matches exactly the rows whose lowered text holds it: the count
 *   is read from the index, and a page too, unless its matches are common enough that walking the
 *   sort's index and testing each row reaches the page sooner (`pageSearchBy`). A shorter needle has
 *   no trigram; it falls back to the scan's predicate (a page in sort order stops at its 25th match;
 *   the count reads the table).
 * - PostgreSQL: a pg_trgm GIN index on `lower(field)` (migrate.ts) answers the same `like`. A page is
 *   read from it, or by walking the sort's index, as on SQLite: chosen from the count (`pageSearchBy`).
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { listOptions, type Registry, type ResourceDef } from '../../manifest/index.ts';
import type { Database, SearchBy } from './types.ts';
import { isSqlite } from './count.ts';
import { likeBound, likeLiteral } from './like.ts';
import { quote } from './sql-names.ts';
import { queueRow, SEARCH_PENDING, SEARCH_PENDING_DDL, searchedValues, searchTableOf } from './sqlite/search-pending.ts';
import { keptState } from './sqlite/trigger-tables.ts';

const searchFields = new WeakMap<ResourceDef, readonly string[]>();

/** The fields a list search reads (asked several times a list request: found once per resource). */
export function searchFieldsOf(r: ResourceDef): readonly string[] {
  let fields = searchFields.get(r);
  if (!fields) searchFields.set(r, (fields = Object.freeze(listOptions(r).search)));
  return fields;
}

/**
 * What a page of matches costs, read either way (50,000 top categories, SQLite alone): from the
 * trigram index, every match is found, read and sorted, about 0.4 to 0.8 µs a match (1.1 ms for 1,394
 * of 'glass', 3 µs a match for a two-word phrase); walking the sort's index and testing each row stops
 * at the page's last row, 0.05 to 0.09 µs a row walked (63 µs for 'glass', about 900 rows, alone, its
 * pattern bound as like.ts binds it). With the matches evenly spread, a page ending at row `end` is
 * reached after `end × rows / matches` rows. PostgreSQL's ratio is about the same: 3.6 µs a match from the
 * trigram index (each match's row visited, 5 ms for 'glass'), 0.35 µs a row walked, index only (0.5 ms).
 */
export const SCAN_ROWS_PER_MATCH = 8;

/**
 * How a page of a search is read, from its count (kept between writes, so known first): by
 * walking the sort's index (`scan`) when that walk is expected to be shorter than SCAN_ROWS_PER_MATCH
 * rows a match, else from the trigram index (`index`). Same rows either way.
 */
export function pageSearchBy(matches: number, tableRows: number, end: number): SearchBy {
  if (matches <= 0) return 'index';
  // The walk never reads more than the whole table.
  const walk = Math.min((end * tableRows) / matches, tableRows);
  return walk <= SCAN_ROWS_PER_MATCH * matches ? 'scan' : 'index';
}

/** The shortest needle a trigram index can look up: shorter ones are answered by the scan's predicate. */
export const TRIGRAM = 3;

/**
 * The FTS5 query that matches the needle as one run of characters: a double-quoted string (its own
 * double quotes doubled) is a phrase, so nothing in a needle (`OR`, `NEAR`, `*`, `^`, `:`, parentheses)
 * is read as query syntax.
 */
export function ftsPhrase(needle: string): string {
  return `"${needle.replace(/"/g, '""')}"`;
}

/**
 * The search condition for a list query on `r`'s table: true for the rows a plain scan
 * (`lower(field) like '%needle%'`) would select, read from the engine's index where it can be. Written
 * as SQL rather than through Kysely's expression builder: a `where` given a callback makes a builder of
 * some hundred closures on every request (a search's queries took 18–30 µs to build, a third of it that).
 */
export function searchCondition(db: Kysely<any>, r: ResourceDef, q: string, by: SearchBy = 'index'): Expression<SqlBool> {
  const needle = q.toLowerCase();
  if (by === 'index' && isSqlite(db) && [...needle].length >= TRIGRAM) {
    const fts = sql.table(searchTableOf(r.name));
    return sql<SqlBool>`${sql.table(r.name)}.rowid in (select rowid from ${fts} where ${fts} match ${ftsPhrase(needle)})`;
  }
  // PostgreSQL, walking the sort's index: `strpos`, true for exactly the rows the `like` below selects
  // (the needle found as it is, no pattern), but which no index answers. Given the `like`, the planner
  // chooses between the trigram index and the walk by its guess of how common the needle is, and it
  // guesses from a sample: 43 rows for 'glass' where 1,394 of 50,000 top categories hold it, so it read
  // and sorted all 1,394 (5 ms) where the walk reaches the page's 25 after 1,422 index entries (0.5 ms).
  // The choice is made here, from the count (`pageSearchBy`), as on SQLite.
  if (by === 'scan' && !isSqlite(db)) {
    return anyOf(searchFieldsOf(r).map((f) => sql<SqlBool>`strpos(lower(${sql.ref(f)}), ${needle}) > 0`));
  }
  const pattern = `%${likeLiteral(needle)}%`;
  // SQLite's `lower` and its `like` both fold ASCII letters only (no ICU here), so `field like p`
  // selects exactly the rows `lower(field) like p` does, without making a lowered copy of every
  // field tested (a walk of 900 rows: 236 -> 159 µs). PostgreSQL's `like` does not fold case: its
  // trigram index holds `lower(field)` (migrate.ts), and the condition reads the same.
  const test = (f: string) => (isSqlite(db) ? sql`${sql.ref(f)}` : sql`lower(${sql.ref(f)})`);
  return anyOf(searchFieldsOf(r).map((f) => likeBound(db, test(f), pattern)));
}

/** True where any of the fields' tests is: the one test alone, or all of them or'd. */
const anyOf = (tests: Expression<SqlBool>[]): Expression<SqlBool> => (tests.length === 1 ? tests[0] : sql<SqlBool>`(${sql.join(tests, sql` or `)})`);

/**
 * SQLite, a search and nothing else: its count read from the FTS5 table alone (no row of the table is
 * visited), undefined where that cannot be (PostgreSQL, a needle under three characters).
 */
export function searchOnlyCount(db: Kysely<any>, r: ResourceDef, q: string) {
  const needle = q.toLowerCase();
  if (!isSqlite(db) || [...needle].length < TRIGRAM) return undefined;
  const fts = searchTableOf(r.name);
  return db
    .selectFrom(fts)
    .where(sql<SqlBool>`${sql.table(fts)} match ${ftsPhrase(needle)}`)
    .select((eb) => eb.fn.countAll().as('total'));
}

/**
 * SQLite: creates, rebuilds or drops each resource's FTS5 table and its triggers so they match the
 * manifest's searchable fields. A table made now (a new database, a database from before this index,
 * a resource that gained or changed a searchable field) is filled from the rows already there. The
 * triggers queue written rows for the commit to index (sqlite/search-pending.ts); a database whose triggers
 * wrote the index row by row gets the queueing ones, its index kept as it is.
 */
export async function migrateSearch(database: Database, registry: Registry): Promise<void> {
  if (database.engine !== 'sqlite') return;
  const { db } = database;
  await sql.raw(SEARCH_PENDING_DDL).execute(db);
  for (const r of registry.resources) {
    const name = searchTableOf(r.name);
    const fields = searchFieldsOf(r);
    const q = quote;
    const table = q(r.name);
    const fts = q(name);
    const wanted = fields.length
      ? `CREATE VIRTUAL TABLE ${fts} USING fts5(${fields.map(q).join(', ')}, content='', contentless_delete=1, tokenize='trigram case_sensitive 1')`
      : undefined;
    const columns = fields.map(q).join(', ');
    const remove = (row: string) => `DELETE FROM ${fts} WHERE rowid = ${row}.rowid;`;
    const triggers = [
      { name: q(`${name}_insert`), sql: `CREATE TRIGGER ${q(`${name}_insert`)} AFTER INSERT ON ${table} BEGIN ${queueRow(r.name, 'new')} END` },
      { name: q(`${name}_update`), sql: `CREATE TRIGGER ${q(`${name}_update`)} AFTER UPDATE OF ${columns} ON ${table} BEGIN ${remove('old')} ${queueRow(r.name, 'new')} END` },
      { name: q(`${name}_delete`), sql: `CREATE TRIGGER ${q(`${name}_delete`)} AFTER DELETE ON ${table} BEGIN ${remove('old')} END` },
    ];
    const { have, asWanted, triggerNames } = await keptState(db, r.name, { name, wanted, triggers: wanted ? triggers : [] });
    if (asWanted) continue;
    await db.transaction().execute(async (trx) => {
      for (const t of triggerNames) await sql.raw(`DROP TRIGGER IF EXISTS ${t}`).execute(trx);
      if (!wanted) {
        if (have !== undefined) await sql.raw(`DROP TABLE ${fts}`).execute(trx);
        return;
      }
      for (const t of triggers) await sql.raw(t.sql).execute(trx);
      // Only the triggers changed (their index was kept in step by the old ones): nothing to fill.
      if (have === wanted) return;
      if (have !== undefined) await sql.raw(`DROP TABLE ${fts}`).execute(trx);
      await sql.raw(wanted).execute(trx);
      // Rows written before the index existed; the queue's rows of this table are among them.
      await sql.raw(`INSERT INTO ${fts}(rowid, ${columns}) SELECT rowid, ${searchedValues(fields, table)} FROM ${table}`).execute(trx);
      await sql`DELETE FROM ${sql.table(SEARCH_PENDING)} WHERE "tbl" = ${r.name}`.execute(trx);
    });
  }
}
