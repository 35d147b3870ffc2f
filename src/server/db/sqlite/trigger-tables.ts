/**
 * SQLite: a table kept by triggers beside a resource's table (its search index, db/search.ts; its records as
 * JSON, db/stored-records.ts), and whether it and its triggers are as the manifest now wants them. Compared
 * by the texts SQLite keeps of them (`sqlite_master.sql`: exactly the statements that made them), so a
 * migration makes them again only when what they would be has changed.
 */
import { sql } from 'kysely';
import type { Db } from '../types.ts';
import { quote } from '../sql-names.ts';

export interface KeptTable {
  /** The kept table's name. */
  name: string;
  /** Its `CREATE` statement; undefined: the table is not wanted (and is dropped). */
  wanted: string | undefined;
  /** Its triggers' names (quoted) and `CREATE TRIGGER` statements, each named `<name>_…` (none when not wanted). */
  triggers: { name: string; sql: string }[];
}

/**
 * The kept table's statement as it is now (undefined: none), whether it and its triggers are as wanted, and
 * the names (quoted) of its triggers there now and wanted, to drop before making them again.
 */
export async function keptState(db: Db, table: string, kept: KeptTable): Promise<{ have: string | undefined; asWanted: boolean; triggerNames: string[] }> {
  const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${kept.name}`.execute(db);
  const have = rows[0]?.sql;
  const { rows: onTable } = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master where type = 'trigger' and tbl_name = ${table}`.execute(db);
  const haveTriggers = onTable.filter((t) => t.name.startsWith(`${kept.name}_`));
  const triggersAsWanted = kept.wanted === undefined ? haveTriggers.length === 0 : kept.triggers.every((t) => haveTriggers.some((h) => h.sql === t.sql));
  const triggerNames = [...new Set([...kept.triggers.map((t) => t.name), ...haveTriggers.map((t) => quote(t.name))])];
  return { have, asWanted: have === kept.wanted && triggersAsWanted, triggerNames };
}
