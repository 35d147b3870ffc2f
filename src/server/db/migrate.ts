/**
 * Migrations from the manifests: create missing tables, add missing columns, create missing indexes.
 * Additive only, so a manifest change never loses data; a removed field's column simply stays.
 */
import { sql, type Kysely } from 'kysely';
import type { Registry } from '../../manifest/index.ts';
import type { Database, Engine } from './types.ts';
import { columnsOf, createIndex, indexesOf, itemsTablesOf, type ColumnDef } from './tables.ts';
import { migrateSettings } from '../settings/index.ts';
import { migrateSearch } from './search.ts';
import { keptRecordsTables } from './json-records.ts';
import { migrateSqliteStoredRecords } from './sqlite/stored-records.ts';
import { migratePgStoredRecords } from './postgres/pg-stored-records.ts';

function sqlType(storage: ColumnDef['storage'], engine: Engine) {
  if (storage === 'real') return engine === 'postgres' ? 'double precision' : 'real';
  return storage;
}

/**
 * The columns of the tables already there. PostgreSQL: read from the catalog for the schema in use only.
 * Kysely's introspector reads every schema of the database and calls `has_schema_privilege` and
 * `pg_get_serial_sequence` on their names, which fails ('schema "…" does not exist') when another
 * process drops a schema during the read: a node starting beside a test run, or two test files.
 */
async function existingColumns(database: Database): Promise<Map<string, Set<string>>> {
  const columns =
    database.engine === 'postgres'
      ? (
          await sql<{ table: string; column: string }>`
            select c.relname as "table", a.attname as "column"
            from pg_catalog.pg_class c
            join pg_catalog.pg_namespace n on n.oid = c.relnamespace
            join pg_catalog.pg_attribute a on a.attrelid = c.oid
            where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v') and a.attnum > 0 and not a.attisdropped`.execute(database.db)
        ).rows
      : (await database.db.introspection.getTables()).flatMap((t) => t.columns.map((c) => ({ table: t.name, column: c.name })));
  const tables = new Map<string, Set<string>>();
  for (const { table, column } of columns) {
    if (!tables.has(table)) tables.set(table, new Set());
    tables.get(table)!.add(column);
  }
  return tables;
}

export async function migrate(database: Database, registry: Registry) {
  const { db, engine } = database;
  const existing = await existingColumns(database);
  for (const r of registry.resources) {
    const columns = columnsOf(r);
    const have = existing.get(r.name);
    if (!have) {
      let create = db.schema.createTable(r.name).ifNotExists();
      for (const c of columns)
        create = create.addColumn(c.name, sqlType(c.storage, engine) as 'text', (col) =>
          c.name === 'id' ? col.primaryKey() : c.default !== undefined ? col.notNull().defaultTo(c.default) : col,
        );
      await create.execute();
    } else {
      for (const c of columns)
        if (!have.has(c.name))
          await db.schema
            .alterTable(r.name)
            .addColumn(c.name, sqlType(c.storage, engine) as 'text', (col) =>
              c.default !== undefined ? col.notNull().defaultTo(c.default) : col,
            )
            .execute();
    }
    const indexes = indexesOf(r, engine);
    for (const index of indexes) await createIndex(db, r.name, index);
    if (have) await dropStaleIndexes(database, r.name, new Set(indexes.map((i) => i.name)));
    await migrateItemsTables(database, r, existing);
  }
  if (engine === 'postgres') await trigramIndexes(database, registry);
  await migrateSearch(database, registry);
  await migrateStoredRecords(database, registry);
  await migrateInfrastructure(db);
}

/**
 * The child tables of the resource's `items` fields (tables.ts `itemsTablesOf`), made or given their
 * missing columns like any table, with their `(parentId, position)` index. The parent's writes delete
 * its items (records/writes.ts): no foreign key, so a table may be made before or after its parent's.
 */
async function migrateItemsTables(database: Database, r: Registry['resources'][number], existing: Map<string, Set<string>>) {
  const { db, engine } = database;
  for (const t of itemsTablesOf(r)) {
    const have = existing.get(t.name);
    if (!have) {
      let create = db.schema.createTable(t.name).ifNotExists();
      for (const c of t.columns)
        create = create.addColumn(c.name, sqlType(c.storage, engine) as 'text', (col) =>
          c.name === 'id' ? col.primaryKey() : c.name === 'parentId' || c.name === 'position' ? col.notNull() : col,
        );
      await create.execute();
    } else {
      for (const c of t.columns)
        if (!have.has(c.name)) await db.schema.alterTable(t.name).addColumn(c.name, sqlType(c.storage, engine) as 'text').execute();
    }
    await createIndex(db, t.name, t.index);
  }
}

/** Makes, remakes or drops each table's kept records (stored-records.ts) as its columns now are, each engine its own way. */
async function migrateStoredRecords(database: Database, registry: Registry) {
  const tables = await keptRecordsTables(database.db, registry);
  if (database.engine === 'sqlite') await migrateSqliteStoredRecords(database.db, tables);
  else await migratePgStoredRecords(database.db, tables);
}

/**
 * The one exception to "additive only": an index derived from the list options (`<table>_…_idx`) that
 * the manifest no longer implies is dropped. Such an index holds no data, and keeping it can hurt: a
 * field that became long text (up to 10,000 characters) would overflow PostgreSQL's btree row limit
 * on an index made when it was short, and every write pays for indexes nobody reads.
 */
async function dropStaleIndexes(database: Database, table: string, wanted: Set<string>) {
  const { db, engine } = database;
  const { rows } =
    engine === 'postgres'
      ? await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = ${table}`.execute(db)
      : await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}`.execute(db);
  for (const { name } of rows)
    if (name.startsWith(`${table}_`) && name.endsWith('_idx') && !wanted.has(name)) await db.schema.dropIndex(name).ifExists().execute();
}

/**
 * PostgreSQL: substring search (`lower(name) like '%…%'`) can use a trigram index (pg_trgm). Where the
 * extension cannot be had (no rights to create it), search still works, by scanning.
 */
async function trigramIndexes(database: Database, registry: Registry) {
  const { db } = database;
  try {
    // In `public`, never in the schema being migrated: a test's schema is dropped with cascade, which
    // would take the extension, and every other schema's trigram indexes, with it.
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  } catch (error) {
    console.warn(`pg_trgm is unavailable (${(error as Error).message}); list search will scan tables.`);
    return;
  }
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  const opclass = sql.raw(`"${rows[0].schema}".gin_trgm_ops`);
  for (const r of registry.resources)
    for (const f of r.fields.filter((x) => x.searchable))
      await sql`create index if not exists ${sql.ref(`${r.name}_${f.name}_trgm`)} on ${sql.table(r.name)}
        using gin (lower(${sql.ref(f.name)}) ${opclass})`.execute(db);
}

/** The password reset links' table (src/server/auth/password-reset.ts): each link's SHA-256, never the link. */
export const PASSWORD_RESETS = 'passwordResets';

/** Tables that belong to no manifest: the sign-in sessions, password reset links and the site settings. */
async function migrateInfrastructure(db: Kysely<any>) {
  await db.schema
    .createTable('sessions')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('userId', 'text', (c) => c.notNull())
    .addColumn('expiresAt', 'text', (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_userId_idx').ifNotExists().on('sessions').column('userId').execute();
  await db.schema
    .createTable(PASSWORD_RESETS)
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('userId', 'text', (c) => c.notNull())
    .addColumn('expiresAt', 'text', (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex(`${PASSWORD_RESETS}_userId_idx`).ifNotExists().on(PASSWORD_RESETS).column('userId').execute();
  await migrateSettings(db);
}
