/**
 * SQLite: each table's records kept as their JSON text (db/json-records.ts), written by triggers as rows
 * are written, in a table beside it (`<table>_records`: the row's rowid and its record's text), so a list page
 * reads 25 texts instead of writing 25 records with `json_object`.
 *
 * Keyed by the row's rowid, not its id: a page finds each of its rows' texts by one search of an integer
 * key (a table's own B-tree) where an id was a search of a text key, comparing strings at every level
 * (a page of 25 products read alone: 35 -> 25 µs, of which 14 walk the page). A row keeps its rowid
 * while it lives (an update keeps it; the server runs no VACUUM, which could renumber them, and the
 * search index, db/search.ts, is keyed so too); one deleted and written again, as the recycle bin does,
 * gets a new one and its text with it, both by the triggers.
 *
 * Why: writing a page of 25 products (44 columns, 7 of them REAL, which SQLite formats digit by digit)
 * was most of a cold page's cost: under the bench's load the read worker spent about 120 µs a page, the
 * server's process about 210 µs in all; read from the kept texts, about 40 and 125 (50,000 products,
 * cold, 50 connections, alternating). A write pays instead, once: its record written by its trigger in the
 * same transaction (so the text can never be older than the row a reader sees with it).
 *
 * What is read: `storedOr` (db/stored-records.ts) — the kept text, else the record written now. A row
 * has no kept text when a value of it is a BLOB (`json_object` refuses one: the trigger leaves it out rather than fail the write,
 * and the page's read then fails as before and is answered by the row path), or when it was written by a
 * server from before these triggers (the migration fills the table whenever it makes or remakes them).
 *
 * When the table's columns change (a migration adds one), the record's text changes: the triggers are
 * made again and every record rewritten, in one transaction. A table too wide for `json_object` has none.
 * PostgreSQL keeps them too, by its own trigger function, keyed by the row's id
 * (postgres/pg-stored-records.ts); what is read is the same `storedOr`.
 */
import { sql } from 'kysely';
import type { Db, KeptRecordsTable } from '../types.ts';
import { quote, storedRecordsOf } from '../sql-names.ts';
import { keptState } from './trigger-tables.ts';

/**
 * Makes, remakes or drops each table's kept records and their triggers, as its columns now are (the
 * record's columns and text as the query layer writes them: db/json-records.ts `keptRecordsTables`).
 */
export async function migrateSqliteStoredRecords(db: Db, tables: readonly KeptRecordsTable[]): Promise<void> {
  for (const { table: name, columns, recordSql } of tables) {
    const kept = storedRecordsOf(name);
    const table = quote(name);
    const side = quote(kept);
    // "rid": the row's rowid in its table (an alias of this table's own rowid).
    const wanted = columns ? `CREATE TABLE ${side} ("rid" integer primary key, "record" text not null)` : undefined;
    // The record of `row` (a trigger's `new`, or every row of the table), unless a value of it is a BLOB
    // (json_object refuses one: the write goes on, and that row's record is written when read).
    const write = (row: 'new' | string) => {
      const from = row === 'new' ? 'new' : quote(row);
      return (
        `INSERT OR REPLACE INTO ${side} ("rid", "record") SELECT ${from}.rowid, ${recordSql(row)}` +
        `${row === 'new' ? '' : ` FROM ${from}`} WHERE NOT (${columns!.map((c) => `typeof(${from}.${quote(c)}) = 'blob'`).join(' OR ')});`
      );
    };
    const remove = (row: string) => `DELETE FROM ${side} WHERE "rid" = ${row}.rowid;`;
    const triggers = !columns
      ? []
      : [
          { name: quote(`${kept}_insert`), sql: `CREATE TRIGGER ${quote(`${kept}_insert`)} AFTER INSERT ON ${table} BEGIN ${write('new')} END` },
          { name: quote(`${kept}_update`), sql: `CREATE TRIGGER ${quote(`${kept}_update`)} AFTER UPDATE ON ${table} BEGIN ${remove('old')} ${write('new')} END` },
          { name: quote(`${kept}_delete`), sql: `CREATE TRIGGER ${quote(`${kept}_delete`)} AFTER DELETE ON ${table} BEGIN ${remove('old')} END` },
        ];
    const { have, asWanted, triggerNames } = await keptState(db, name, { name: kept, wanted, triggers });
    if (asWanted) continue;
    await db.transaction().execute(async (trx) => {
      for (const t of triggerNames) await sql.raw(`DROP TRIGGER IF EXISTS ${t}`).execute(trx);
      if (!wanted) {
        if (have !== undefined) await sql.raw(`DROP TABLE ${side}`).execute(trx);
        return;
      }
      if (have !== wanted) {
        if (have !== undefined) await sql.raw(`DROP TABLE ${side}`).execute(trx);
        await sql.raw(wanted).execute(trx);
      }
      for (const t of triggers) await sql.raw(t.sql).execute(trx);
      // New triggers write a record another way (a column added, or none kept yet): every record again.
      await sql.raw(`DELETE FROM ${side}`).execute(trx);
      await sql.raw(write(name)).execute(trx);
    });
  }
}
