/**
 * PostgreSQL: the reads Kysely runs are prepared once per connection (pg-statements.ts), writes are
 * not, the names a connection keeps are bounded, and a statement prepared before its table changed
 * shape is prepared again rather than failing, and a first page of a plain list (`pagedAs`: its size in
 * the text, no offset) is planned once and its plan kept, where a page bounded by parameters (a filtered
 * list's) is planned for its values on every run.
 * Read off the server's own `pg_prepared_statements`, in a pool of one connection so every query below
 * meets the same one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { connect, dropSchema, type Database } from '../../src/server/db/connect.ts';
import { prepareReadingStatements } from '../../src/server/db/postgres/pg-statements.ts';
import { pagedAs } from '../../src/server/db/repository.ts';

const url = process.env.DATABASE_URL;

describe.skipIf(!url?.startsWith('postgres'))('prepared reading statements (postgres)', () => {
  const schema = `test_prepared_${Date.now().toString(36)}`;
  let setup: Database;
  let db: Kysely<any>;
  const MAX = 5;
  /** A pool of one connection that prepares its reads, as the server's pools do, bounded at MAX. */
  const poolOfOne = () => {
    const pool = new pg.Pool({ connectionString: url, max: 1, options: `-c search_path="${schema}"` });
    pool.on('connect', (client) => prepareReadingStatements(client, MAX));
    return new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  };

  beforeAll(async () => {
    // The app's own connect makes the schema (and is the path the server takes).
    setup = await connect({ url, schema });
    await setup.db.schema.createTable('things').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('name', 'text').execute();
    db = poolOfOne();
  });
  afterAll(async () => {
    await db?.destroy();
    await setup?.close();
    if (url) await dropSchema(url, schema);
  });

  /** The statements this (one) connection holds prepared. */
  const prepared = async () =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)).rows.map((r) => r.statement);

  it('prepares a read once and runs it again with other values; a write stays unnamed', async () => {
    await db.insertInto('things').values([{ id: 1, name: 'one' }, { id: 2, name: 'two' }]).execute();
    const byId = (id: number) => db.selectFrom('things').select('name').where('id', '=', id).executeTakeFirst();
    expect(await byId(1)).toEqual({ name: 'one' });
    expect(await byId(2)).toEqual({ name: 'two' });
    expect(await byId(3)).toBeUndefined();
    const text = db.selectFrom('things').select('name').where('id', '=', 0).compile().sql;
    const statements = await prepared();
    expect(statements.filter((s) => s === text)).toHaveLength(1);
    expect(statements.some((s) => /^\s*insert/i.test(s))).toBe(false);
  });

  it("is what the server's own connection does", async () => {
    // One pooled connection for the read and the look at what it holds.
    const statements = await setup.db.connection().execute(async (c) => {
      await c.selectFrom('things').select('id').where('name', '=', 'one').execute();
      return (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(c)).rows.map((r) => r.statement);
    });
    expect(statements).toContain(setup.db.selectFrom('things').select('id').where('name', '=', '').compile().sql);
  });

  it('keeps at most its bound of names; further reads run unnamed and still answer', async () => {
    for (let n = 1; n <= MAX + 3; n++) {
      const ids = Array.from({ length: n }, (_, i) => i + 1);
      const rows = await db.selectFrom('things').select('id').where('id', 'in', ids).orderBy('id').execute();
      expect(rows.map((r) => r.id)).toEqual(ids.filter((i) => i <= 2));
    }
    expect((await prepared()).length).toBe(MAX);
  });

  it('a read prepared before its table gained a column answers with the column', async () => {
    const all = () => db.selectFrom('things').selectAll().where('id', '=', 1).executeTakeFirst();
    // A fresh pool of one, so the bound above leaves room for this statement.
    await db.destroy();
    db = poolOfOne();
    expect(await all()).toEqual({ id: 1, name: 'one' });
    await setup.db.schema.alterTable('things').addColumn('colour', 'text', (c) => c.defaultTo('blue')).execute();
    expect(await all()).toEqual({ id: 1, name: 'one', colour: 'blue' });
    expect(await all()).toEqual({ id: 1, name: 'one', colour: 'blue' });
  });

  it('prepares a read again whose statement is gone from the session', async () => {
    const one = () => db.selectFrom('things').select('name').where('id', '=', 2).executeTakeFirst();
    expect(await one()).toEqual({ name: 'two' });
    // Gone under node-postgres, which still counts it prepared (as when it closes one it failed to bind).
    await sql.raw('deallocate all').execute(db);
    expect(await one()).toEqual({ name: 'two' });
    expect(await one()).toEqual({ name: 'two' });
  });

  it('keeps one plan for a first page of a plain list; pages bounded by parameters are planned every time', async () => {
    await db.destroy();
    db = poolOfOne();
    await setup.db.schema.createTable('pages').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('name', 'text').execute();
    await setup.db.schema.createIndex('pages_name_id').on('pages').columns(['name', 'id']).execute();
    const names = Array.from({ length: 5000 }, (_, i) => ({ id: i + 1, name: `name ${String(i % 977).padStart(4, '0')}` }));
    for (let i = 0; i < names.length; i += 1000) await setup.db.insertInto('pages').values(names.slice(i, i + 1000)).execute();
    await sql`analyze pages`.execute(setup.db);
    const sorted = () => db.selectFrom('pages').select(['id', 'name']).orderBy('name').orderBy('id');
    const expected = [...names].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
    const plans = async (text: string) =>
      (await sql<{ generic: string; custom: string }>`select generic_plans as generic, custom_plans as custom from pg_prepared_statements where statement = ${text}`.execute(db)).rows[0];

    const first = pagedAs(sorted(), 25, 0, true);
    for (let run = 0; run < 8; run++) expect(await first.execute()).toEqual(expected.slice(0, 25));
    expect(first.compile().parameters).toEqual([]);
    expect(Number((await plans(first.compile().sql)).custom)).toBe(0);
    expect(Number((await plans(first.compile().sql)).generic)).toBeGreaterThanOrEqual(8);

    // Bounds bound as parameters (a filtered list's, and every page's before): PostgreSQL plans each run for its values.
    const bound = pagedAs(sorted(), 25, 0, false);
    for (let run = 0; run < 8; run++) expect(await bound.execute()).toEqual(expected.slice(0, 25));
    expect(Number((await plans(bound.compile().sql)).custom)).toBe(8);

    // A page further on keeps its offset a parameter (one statement for every such page) and answers its rows.
    for (const offset of [25, 4990]) expect(await pagedAs(sorted(), 25, offset, true).execute()).toEqual(expected.slice(offset, offset + 25));
    expect(pagedAs(sorted(), 25, 25, true).compile().sql).toBe(pagedAs(sorted(), 25, 4990, true).compile().sql);
  });
});
