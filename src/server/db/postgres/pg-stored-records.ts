/**
 * PostgreSQL: each table's records kept as their JSON text, as SQLite keeps them (sqlite/stored-records.ts), in a
 * table beside it (`<table>_records`: the row's id and its record's text), written by a trigger in the
 * transaction that writes the row, so a list page or a record read answers 25 kept texts instead of
 * writing 25 records with `row_to_json`.
 *
 * Keyed by the row's id (its primary key): PostgreSQL has no row number that a row keeps (a row's `ctid`
 * moves when it is updated).
 *
 * Why: with reads pipelined (pg-pipeline.ts), one PostgreSQL backend was the bound of a cold page, and
 * about half of its time wrote records as JSON (`row_to_json`, `escape_json` alone 12 %). Measured in
 * PostgreSQL alone (pgbench, one client, prepared, a page of 25 of 50,000 products, 44 columns): 3,254 and
 * 3,614 pages a second written as read, 5,429 and 5,594 read from kept texts. A write pays instead, once:
 * a second row, in the same transaction (so no reader sees a text older or newer than the row).
 *
 * The trigger, one function a table: an insert or update writes the row's record (an update that changes
 * the id drops the old id's); a delete drops it; a `TRUNCATE` of the table empties the kept table. The
 * function names its kept table with its schema, so a write from a session with another `search_path`
 * keeps it too.
 *
 * The migration compares what it would make with what it made before: a digest of the statements,
 * written as the kept table's comment, and the triggers there now. When the table's columns change (a
 * migration adds one), the record's text changes with them: the function and triggers are made again and
 * every record written again, in one transaction (run while no other server migrates: `exclusively`). A
 * process that dropped the triggers (the bench's bulk seed, scripts/bench/seed.ts) gets them back the same way.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db, KeptRecordsTable } from '../types.ts';
import { quote, storedRecordsOf } from '../sql-names.ts';

/** The names of the kept records' trigger function and triggers of `table` (unquoted). */
export const keptTriggersOf = (table: string) => ({
  fn: `${storedRecordsOf(table)}_keep`,
  row: `${storedRecordsOf(table)}_keep`,
  truncate: `${storedRecordsOf(table)}_truncate`,
});

/** The name of the hash index through which `table`'s kept records are found by id (unquoted). */
export const keptHashIndexOf = (table: string) => `${storedRecordsOf(table)}_rid_hash`;

/** The statements that make the kept records of `name` in `schema`, from its record's text (`recordSql`: db/json-records.ts). */
export function keptRecordStatements(name: string, recordSql: KeptRecordsTable['recordSql'], schema: string) {
  const names = keptTriggersOf(name);
  const at = (object: string) => `${quote(schema)}.${quote(object)}`;
  const side = at(storedRecordsOf(name));
  const table = at(name);
  const record = recordSql('new');
  const fn = `CREATE OR REPLACE FUNCTION ${at(names.fn)}() RETURNS trigger LANGUAGE plpgsql AS $keep$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    TRUNCATE ${side};
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND old."id" IS DISTINCT FROM new."id") THEN
    DELETE FROM ${side} WHERE "rid" = old."id";
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO ${side} ("rid", "record") VALUES (new."id", ${record})
      ON CONFLICT ("rid") DO UPDATE SET "record" = excluded."record";
  END IF;
  RETURN NULL;
END
$keep$`;
  return {
    side,
    // The id compared byte by byte ("C"): a kept record is only ever looked up by equality, never sorted
    // for a user, and the database's own collation (C.UTF-8 here, a language's elsewhere) compares
    // through the C library. 25 look-ups of a page, in PostgreSQL alone (pgbench, prepared, one client):
    // 10,046–10,113 → 11,152–11,297 a second. A comparison with an id of the default collation still
    // uses this index (equality is the same in every deterministic collation).
    table: `CREATE TABLE ${side} ("rid" text COLLATE "C" PRIMARY KEY, "record" text NOT NULL)`,
    // Reads find a kept record through a hash index, the primary key's B-tree kept for the upsert's
    // uniqueness: the id is only ever looked up by equality, and a hash index finds it in one bucket page
    // (its metapage is cached) where the B-tree descends three levels. PostgreSQL chooses it by its own
    // costs. A page's 25 look-ups, in PostgreSQL alone (pgbench, prepared, one client): 104 → 55 shared
    // buffers, 11,358 → 15,928 a second. A write pays one more index entry.
    index: `CREATE INDEX ${quote(keptHashIndexOf(name))} ON ${side} USING hash ("rid")`,
    fn,
    triggers: [
      `CREATE TRIGGER ${quote(names.row)} AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${at(names.fn)}()`,
      `CREATE TRIGGER ${quote(names.truncate)} AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${at(names.fn)}()`,
    ],
    /** Every row's record, written now (the fill after the triggers are made). */
    fill: `INSERT INTO ${side} ("rid", "record") SELECT ${quote(name)}."id", ${recordSql(name)} FROM ${table} AS ${quote(name)}`,
  };
}

/** What the migration writes as the kept table's comment: a digest of the statements that made it. */
const digestOf = (statements: ReturnType<typeof keptRecordStatements>) =>
  `kept records ${createHash('sha256').update([statements.table, statements.index, statements.fn, ...statements.triggers, statements.fill].join('\n')).digest('hex').slice(0, 32)}`;

/**
 * Makes, remakes or drops each table's kept records, its function and its triggers, as its columns now
 * are (the record's columns and text as the query layer writes them: db/json-records.ts `keptRecordsTables`).
 */
export async function migratePgStoredRecords(db: Db, tables: readonly KeptRecordsTable[]): Promise<void> {
  const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0].schema;
  for (const { table: name, columns, recordSql } of tables) {
    const names = keptTriggersOf(name);
    const statements = columns && keptRecordStatements(name, recordSql, schema);
    const { rows } = await sql<{ comment: string | null; triggers: string[] }>`
      select obj_description(to_regclass(${`${quote(schema)}.${quote(storedRecordsOf(name))}`}), 'pg_class') as comment,
        array(select tgname::text from pg_trigger where tgrelid = to_regclass(${`${quote(schema)}.${quote(name)}`}) and not tgisinternal) as triggers`.execute(db);
    const have = rows[0];
    const mine = [names.row, names.truncate].filter((t) => have.triggers.includes(t));
    if (statements && have.comment === digestOf(statements) && mine.length === 2) continue;
    if (!statements && have.comment === null && !mine.length) continue;
    await db.transaction().execute(async (trx) => {
      const table = `${quote(schema)}.${quote(name)}`;
      for (const t of mine) await sql.raw(`DROP TRIGGER IF EXISTS ${quote(t)} ON ${table}`).execute(trx);
      if (!statements) {
        await sql.raw(`DROP TABLE IF EXISTS ${quote(schema)}.${quote(storedRecordsOf(name))}`).execute(trx);
        await sql.raw(`DROP FUNCTION IF EXISTS ${quote(schema)}.${quote(names.fn)}()`).execute(trx);
        return;
      }
      // Made again rather than emptied: a table made by an earlier server may be defined otherwise (its
      // id's collation before 2026-12-01); its every record is written again below anyway.
      await sql.raw(`DROP TABLE IF EXISTS ${statements.side}`).execute(trx);
      await sql.raw(statements.table).execute(trx);
      await sql.raw(statements.fn).execute(trx);
      for (const t of statements.triggers) await sql.raw(t).execute(trx);
      // New triggers write a record another way (a column added, or none kept yet): every record again.
      await sql.raw(statements.fill).execute(trx);
      // Built once over the records filled, not kept up row by row as they went in.
      await sql.raw(statements.index).execute(trx);
      await sql.raw(`COMMENT ON TABLE ${statements.side} IS '${digestOf(statements)}'`).execute(trx);
    });
  }
}

/**
 * Drops `table`'s kept-record triggers (PostgreSQL), for a bulk insert (the bench's seed): the next
 * migration sees them missing, makes them again and writes every record at once.
 */
export async function dropKeptRecordTriggers(db: Db, table: string): Promise<void> {
  const names = keptTriggersOf(table);
  for (const t of [names.row, names.truncate]) await sql.raw(`DROP TRIGGER IF EXISTS ${quote(t)} ON ${quote(table)}`).execute(db);
}
