/**
 * Migrations from the manifests: additive, except that an index derived from the list options which
 * the manifest no longer implies is dropped (a field that became long text must not keep a btree index
 * that a 10,000-character value would overflow). On every engine this machine has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { registry } from '../../resources/index.ts';
import { connect, dropSchema, exclusively, type Database } from '../../src/server/db/connect.ts';
import { demoEmail, seedIfEmpty } from '../../src/server/seed/index.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { indexesOf } from '../../src/server/db/tables.ts';
import { engines } from '../support/server.ts';

describe.each(engines)('migrations (%s)', (engine) => {
  let database: Database;
  const schema = `test_migrate_${Date.now().toString(36)}`;
  beforeAll(async () => {
    database = engine === 'postgres' ? await connect({ url: process.env.DATABASE_URL, schema }) : await connect({ file: ':memory:' });
    await migrate(database, registry);
  });
  afterAll(async () => {
    await database?.close();
    if (engine === 'postgres') await dropSchema(process.env.DATABASE_URL!, schema);
  });

  const indexNames = async (table: string) => {
    const { rows } =
      engine === 'postgres'
        ? await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = ${table}`.execute(database.db)
        : await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}`.execute(database.db);
    return rows.map((r) => r.name);
  };

  it('drops a derived index the manifest no longer implies, and keeps every one it does', async () => {
    // An index an older manifest made: comments' long text, once sortable.
    await database.db.schema.createIndex('comments_content_id_idx').ifNotExists().on('comments').columns(['content', 'id']).execute();
    expect(await indexNames('comments')).toContain('comments_content_id_idx');
    await migrate(database, registry);
    const names = await indexNames('comments');
    expect(names).not.toContain('comments_content_id_idx');
    for (const index of indexesOf(registry.resource('comments'), engine)) expect(names).toContain(index.name);
  });

  it("holds a searched field's lowered text in its sort indexes on PostgreSQL, replacing the index made without it", async () => {
    // The sort index of a searched field as made before its lowered text was held.
    await database.db.schema.createIndex('topCategories_name_id_idx').ifNotExists().on('topCategories').columns(['name', 'id']).execute();
    await migrate(database, registry);
    const names = await indexNames('topCategories');
    if (engine === 'postgres') {
      expect(names).not.toContain('topCategories_name_id_idx');
      expect(names).toContain('topCategories_name_id_nameLower_idx');
      const { rows } = await sql<{ def: string }>`select indexdef as def from pg_indexes where schemaname = current_schema() and indexname = 'topCategories_name_id_nameLower_idx'`.execute(database.db);
      expect(rows[0].def).toMatch(/\(name, id, lower\(name\)\)$/);
    } else {
      expect(names).toContain('topCategories_name_id_idx');
      expect(names.some((n) => n.includes('Lower'))).toBe(false);
    }
  });

  it('gives rows inserted without a version (seeds, rows older than versions) version 1', async () => {
    await database.db.insertInto('notices').values({ id: 'a'.repeat(24), title: 'Old', message: 'Kept', type: 'info' }).execute();
    const row = await database.db.selectFrom('notices').select('version').where('id', '=', 'a'.repeat(24)).executeTakeFirstOrThrow();
    expect(Number(row.version)).toBe(1);
  });
});

/**
 * A node migrating while other schemas of the same database come and go (another node's tests, another
 * test file's clean-up): it reads only its own schema's tables, so a schema dropped meanwhile cannot fail
 * it ('schema "…" does not exist', which Kysely's introspection of every schema gave in a full local run).
 */
describe.skipIf(!process.env.DATABASE_URL)('migrating beside schemas being dropped (postgres)', () => {
  const schema = `test_beside_${Date.now().toString(36)}`;
  let database: Database;
  afterAll(async () => {
    await database?.close();
    await dropSchema(process.env.DATABASE_URL!, schema);
  });

  it('migrates again and again while another connection creates and drops schemas', async () => {
    database = await connect({ url: process.env.DATABASE_URL, schema });
    await migrate(database, registry);
    const churn = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await churn.connect();
    let running = true;
    let dropped = 0;
    const churning = (async () => {
      for (let i = 0; running; i++) {
        const other = `${schema}_other_${i}`;
        await churn.query(`create schema "${other}"; create table "${other}".t (a int, b text, c serial)`);
        await churn.query(`drop schema "${other}" cascade`);
        dropped++;
      }
    })();
    try {
      for (let i = 0; i < 16; i++) await migrate(database, registry);
    } finally {
      running = false;
      await churning;
      await churn.end();
    }
    expect(dropped).toBeGreaterThan(0);
    // Seventeen migrations of every table: on CI's two loaded cores that is more than the default 30 s.
  }, 120_000);
});

/**
 * Nodes started together against one PostgreSQL: each migrates and seeds inside `exclusively` (what
 * `startServer` does), so they take turns; without the lock both find the database empty, race to create
 * the same tables (one fails) and both seed.
 */
describe.skipIf(!process.env.DATABASE_URL)('nodes starting together (postgres)', () => {
  const schema = `test_together_${Date.now().toString(36)}`;
  const databases: Database[] = [];
  afterAll(async () => {
    for (const d of databases) await d.close();
    await dropSchema(process.env.DATABASE_URL!, schema);
  });

  it('migrate and seed one at a time: no failure, one set of demo accounts', async () => {
    for (let i = 0; i < 3; i++) databases.push(await connect({ url: process.env.DATABASE_URL, schema }));
    const seeded = await Promise.all(
      databases.map((database) =>
        exclusively(database, async () => {
          await migrate(database, registry);
          return seedIfEmpty(database.db, registry, { catalogue: false });
        }),
      ),
    );
    expect(seeded.filter(Boolean)).toHaveLength(1);
    const admins = await databases[0].db.selectFrom('users').select('id').where('email', '=', demoEmail('admin')).execute();
    expect(admins).toHaveLength(1);
  });
});
