/**
 * SQLite: rows written to a searchable table wait in `search_pending` and enter their FTS5 table once,
 * just before their transaction commits, instead of one at a time as each statement runs.
 *
 * Why: FTS5 buffers the terms of the rows written to it in memory and writes them out as a new segment
 * of its index whenever a savepoint opens while it holds some: a `SAVEPOINT` and every statement that
 * needs a statement journal (any insert into a table with a trigger) open one. The group-commit driver
 * runs each write as a savepoint and a create writes two searchable tables (the record's and the audit
 * log's), so every create wrote two segments of a row each and merged them: measured on 50,000 top
 * categories, SQLite alone, 25 creates a commit, 5.7 µs an FTS insert in one transaction against 72-78
 * µs inside a savepoint or a trigger, about 130 µs a create (README, Performance). Queued, a group's rows
 * are written to the index by one statement a table, one segment a commit.
 *
 * How: the insert trigger of a searchable table (db/search.ts) appends its rowid here; the update trigger
 * of a searched field deletes the row from the index and appends it here (a delete of a rowid the index
 * does not hold, a row queued in this very transaction, changes nothing); the delete trigger deletes it
 * from the index (a queued row deleted before the commit is no longer in its table, so nothing indexes it). `flushSearchQueue` (run by the group-commit driver before every commit, db/connect.ts) indexes
 * the queued rows as they are at that moment and empties the queue, inside the same transaction: what a
 * commit makes visible is indexed, for any reader on any connection. A write rolled back to its
 * savepoint takes its queued rows with it.
 */
import type SQLite from 'better-sqlite3';
import { quote } from '../sql-names.ts';

/** The queue: one row per (searchable table, rowid) written in the open transaction. */
export const SEARCH_PENDING = 'search_pending';

/** The FTS5 table that indexes a resource's searchable fields (db/search.ts). */
export const searchTableOf = (table: string) => `${table}_search`;
/** An SQL string literal. */
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * What the index holds of a row (`row`: the table or its alias, quoted): SQLite's own `lower` of each
 * searched field, what the scan compares (db/search.ts), so both agree on every character.
 */
export const searchedValues = (fields: readonly string[], row: string) => fields.map((f) => `lower(${row}.${quote(f)})`).join(', ');

export const SEARCH_PENDING_DDL = `CREATE TABLE IF NOT EXISTS ${quote(SEARCH_PENDING)} ("tbl" text not null, "row" integer not null, primary key ("tbl", "row")) WITHOUT ROWID`;

/** The trigger statement that queues `row` (`new`) of `table`; a row queued twice stays one entry. */
export const queueRow = (table: string, row: string) =>
  `INSERT OR IGNORE INTO ${quote(SEARCH_PENDING)}("tbl", "row") VALUES (${literal(table)}, ${row}.rowid);`;

/**
 * The statement that indexes every queued row of `table` in `fts` (its columns `fields`).
 */
export function indexQueuedSql(table: string, fts: string, fields: readonly string[]) {
  const columns = fields.map(quote).join(', ');
  return `INSERT INTO ${quote(fts)}(rowid, ${columns}) SELECT t.rowid, ${searchedValues(fields, 't')} FROM ${quote(SEARCH_PENDING)} p JOIN ${quote(table)} t ON t.rowid = p."row" WHERE p."tbl" = ${literal(table)}`;
}

/**
 * Makes the function that empties the queue into the FTS5 tables on `sqlite`, inside whatever
 * transaction is open (the caller commits). Cheap when the queue is empty (one indexed read); before
 * the queue exists (a database not yet migrated) it does nothing. Each table's statement is prepared
 * once and made again when the schema changes (a migration rebuilt an index with other fields).
 */
export function searchQueueFlusher(sqlite: SQLite.Database): () => void {
  let ready = false;
  let any: SQLite.Statement | undefined;
  let tables: SQLite.Statement | undefined;
  let empty: SQLite.Statement | undefined;
  const exists = sqlite.prepare(`select 1 from sqlite_master where type = 'table' and name = ?`).pluck();
  const columns = sqlite.prepare(`select name from pragma_table_info(?)`).pluck();
  let built = -1;
  const indexers = new Map<string, SQLite.Statement>();
  return () => {
    if (!ready) {
      if (!exists.get(SEARCH_PENDING)) return;
      ready = true;
      any = sqlite.prepare(`select 1 from ${quote(SEARCH_PENDING)} limit 1`).pluck();
      tables = sqlite.prepare(`select distinct "tbl" from ${quote(SEARCH_PENDING)}`).pluck();
      empty = sqlite.prepare(`delete from ${quote(SEARCH_PENDING)}`);
    }
    if (!any!.get()) return;
    const version = sqlite.pragma('schema_version', { simple: true }) as number;
    if (version !== built) {
      indexers.clear();
      built = version;
    }
    for (const table of tables!.all() as string[]) {
      let indexer = indexers.get(table);
      if (!indexer) {
        const fts = searchTableOf(table);
        // A queued row of a table no longer searched (its index dropped by a migration): nothing to index.
        if (exists.get(fts)) indexer = sqlite.prepare(indexQueuedSql(table, fts, columns.all(fts) as string[]));
        if (!indexer) continue;
        indexers.set(table, indexer);
      }
      indexer.run();
    }
    empty!.run();
  };
}
