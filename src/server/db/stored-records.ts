/**
 * Each table's records kept as their JSON text (json-records.ts) in a table beside it
 * (`<table>_records`: the row's key and its record's text), written by triggers in the transaction that
 * writes the row, so a list page or a record read answers kept texts instead of writing each record
 * again. Each engine makes and keeps them its own way: SQLite by triggers keyed by the row's rowid
 * (sqlite/stored-records.ts, where why and what it saves is measured), PostgreSQL by a trigger function
 * keyed by the row's id (postgres/pg-stored-records.ts). What is read is the same on both: `storedOr`,
 * the kept text, else the record written now. The migration of either is given each table's record as
 * this layer writes it (json-records.ts `keptRecordsTables`). A resource that says `keptRecords: false`
 * (written far more than each row is read again) keeps none.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from './types.ts';
import { isSqlite } from './count.ts';
import { storedRecordsOf } from './sql-names.ts';

/** Whether `table` has its records kept (the migration made the table beside it). */
export async function hasStoredRecords(db: Db, table: string): Promise<boolean> {
  const { rows } = isSqlite(db)
    ? await sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'table' and name = ${storedRecordsOf(table)}`.execute(db)
    : await sql<{ n: number }>`select count(*) as n from pg_tables where schemaname = current_schema() and tablename = ${storedRecordsOf(table)}`.execute(db);
  return Number(rows[0]?.n) > 0;
}

/** The key a row's record is kept under: its rowid on SQLite, its id on PostgreSQL. */
export const keptKeyOf = (db: Db, table: string): RawBuilder<unknown> => (isSqlite(db) ? sql`${sql.table(table)}.rowid` : sql`${sql.ref(`${table}.id`)}`);

/**
 * The record of the row of `table` being read (the row whose key is `key`: by default the one the query
 * is on): its kept text, else `written` (the record written now).
 */
export function storedOr(db: Db, table: string, written: RawBuilder<string>, key: RawBuilder<unknown> = keptKeyOf(db, table)): RawBuilder<string> {
  return sql<string>`coalesce((select "record" from ${sql.table(storedRecordsOf(table))} where "rid" = ${key}), ${written})`;
}
