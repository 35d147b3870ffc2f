/**
 * Site-wide settings: a key/value table that belongs to no manifest (a default currency's id). Reads
 * of it may be cached under the table name SETTINGS; a write must invalidate that name.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../db/types.ts';

/** The table, and the name cached reads of it are kept under. */
export const SETTINGS = 'settings';

/** Creates the table when missing (called by the migrations). */
export async function migrateSettings(db: Kysely<any>) {
  await db.schema
    .createTable(SETTINGS)
    .ifNotExists()
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text')
    .addColumn('updatedAt', 'text', (c) => c.notNull())
    .execute();
}

/** The stored value of `key`, or null when it was never set. */
export async function getSetting(db: Db, key: string): Promise<string | null> {
  const row = await db.selectFrom(SETTINGS).select('value').where('key', '=', key).executeTakeFirst();
  return (row?.value as string | null | undefined) ?? null;
}

/** Sets `key` (insert or replace). */
export async function setSetting(db: Db, key: string, value: string | null): Promise<void> {
  const updatedAt = new Date().toISOString();
  await db
    .insertInto(SETTINGS)
    .values({ key, value, updatedAt })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updatedAt }))
    .execute();
}
