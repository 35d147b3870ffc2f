/**
 * PostgreSQL keeps every table's records as JSON text, written by a trigger function (pg-stored-records.ts),
 * and list pages and one-record reads answer that text, as SQLite does (stored-records.test.ts). Checked
 * here against a real PostgreSQL: after migrating and seeding, every row's kept record is the record written
 * now, one for each row; writes through the API (create, update) and a delete keep it so, as do an id
 * changed, a TRUNCATE and a write from a session whose `search_path` is elsewhere; a rolled-back write
 * leaves it as it was; the answers over HTTP are the kept texts; a walked search page reads them, and a row
 * whose record is missing by the row; a column a migration adds is in every kept record; triggers dropped
 * (as the bench's bulk seed drops them), a database from before them or a kept table defined otherwise (its
 * id's collation) are remade and filled when migrated. The audit log and the notifications keep none
 * (`keptRecords: false`): no table, no trigger, those an earlier server made dropped, rows still answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import { registry } from '../../resources/index.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { storedRecordsOf } from '../../src/server/db/sql-names.ts';
import { dropKeptRecordTriggers, keptTriggersOf } from '../../src/server/db/postgres/pg-stored-records.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectAddedColumnKept, expectEveryTableKept, expectNoneKeptWhereDeclared, expectWritesKeptAndAnswered, keptOutOfStep, walkedSearchPage } from '../support/kept-records.ts';
import type { Database } from '../../src/server/db/types.ts';

const TABLE = 'topCategories';

describe.skipIf(!process.env.DATABASE_URL)('records kept as JSON text by a trigger function (postgres)', () => {
  let server: TestServer;
  let admin: string;
  let schema: string;
  beforeAll(async () => {
    server = await startTestServer({ engine: 'postgres', catalogue: true });
    admin = await server.login('admin');
    schema = (await sql<{ s: string }>`select current_schema() as s`.execute(server.db)).rows[0].s;
  });
  afterAll(async () => server?.close());

  const database = () => ({ db: server.db, engine: 'postgres' }) as unknown as Database;
  const kept = storedRecordsOf(TABLE);

  const outOfStep = (table: string) => keptOutOfStep(server.db, 'postgres', table);
  const record = async (id: string) => (await sql<{ record: string }>`select "record" from ${sql.table(kept)} where "rid" = ${id}`.execute(server.db)).rows[0]?.record;

  it('keeps one record for each row of every table, the record written now', async () => {
    await expectEveryTableKept(server.db, 'postgres');
  });

  it('keeps none for the audit log and the notifications (keptRecords: false), drops those an earlier server kept, and still answers their rows', async () => {
    await expectNoneKeptWhereDeclared(server, admin, 'postgres', () => migrate(database(), registry));
  });

  it('keeps it in step with creates, updates and deletes, and answers the kept text', async () => {
    const { id } = await expectWritesKeptAndAnswered(server, admin, 'postgres', {
      keptOf: record,
      setKeptName: async (id, name) => {
        await sql`update ${sql.table(kept)} set "record" = jsonb_set("record"::jsonb, '{name}', to_jsonb(${name}::text))::text where "rid" = ${id}`.execute(server.db);
      },
    });

    // A rolled-back write leaves the kept record as it was.
    await server.db
      .transaction()
      .execute(async (trx) => {
        await sql`update ${sql.table(TABLE)} set "name" = 'Never committed' where "id" = ${id}`.execute(trx);
        throw new Error('roll back');
      })
      .catch(() => {});
    expect(JSON.parse((await record(id))!).name).toBe('Kept glass 3');

    // An id changed moves the record to the new id.
    await sql`update ${sql.table(TABLE)} set "id" = ${`${id}-moved`} where "id" = ${id}`.execute(server.db);
    expect(await record(id)).toBeUndefined();
    expect(JSON.parse((await record(`${id}-moved`))!).id).toBe(`${id}-moved`);

    await sql`delete from ${sql.table(TABLE)} where "id" = ${`${id}-moved`}`.execute(server.db);
    expect(await record(`${id}-moved`)).toBeUndefined();
    expect(await outOfStep(TABLE)).toMatchObject({ differing: [] });
  });

  it('keeps it for a write from a session whose search_path is another schema', async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL, options: '-c search_path=public' });
    await client.connect();
    try {
      const at = new Date().toISOString();
      await client.query(
        `insert into "${schema}"."${TABLE}" ("id", "name", "slug", "image", "href", "status", "order", "version", "createdAt", "updatedAt") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
        ['elsewhere-kept', 'Written elsewhere', 'written-elsewhere', '/logo.jpg', '/c/e', 'PUBLISHED', 3, 1, at],
      );
      await client.query(`update "${schema}"."${TABLE}" set "order" = 4 where "id" = 'elsewhere-kept'`);
    } finally {
      await client.end();
    }
    expect(JSON.parse((await record('elsewhere-kept'))!)).toMatchObject({ name: 'Written elsewhere', order: 4 });
    await sql`delete from ${sql.table(TABLE)} where "id" = 'elsewhere-kept'`.execute(server.db);
    expect(await record('elsewhere-kept')).toBeUndefined();
  });

  it('reads a walked search page by its kept records, and a row whose record is not kept by the row', async () => {
    const page = await walkedSearchPage(server.db, TABLE);
    const before = await page();
    expect(before.length).toBeGreaterThan(0);
    const id = before[0].id as string;
    const text = (await record(id))!;
    await sql`delete from ${sql.table(kept)} where "rid" = ${id}`.execute(server.db);
    try {
      expect(await page()).toEqual(before);
      // And where it is kept, the kept text is what the page answers.
      await sql`insert into ${sql.table(kept)} ("rid", "record") values (${id}, jsonb_set(${text}::jsonb, '{name}', '"Only in the kept text"')::text)`.execute(server.db);
      expect((await page())[0].name).toBe('Only in the kept text');
    } finally {
      await sql`insert into ${sql.table(kept)} ("rid", "record") values (${id}, ${text}) on conflict ("rid") do update set "record" = excluded."record"`.execute(server.db);
    }
    expect(await page()).toEqual(before);
  });

  it('puts a column a migration adds into every kept record; remakes dropped triggers and a database from before them; empties on TRUNCATE', async () => {
    await expectAddedColumnKept(server.db, 'postgres', TABLE, () => migrate(database(), registry));

    // Triggers dropped (the bench's bulk seed) and rows written meanwhile: migrating remakes them and fills.
    await dropKeptRecordTriggers(server.db, TABLE);
    await sql`update ${sql.table(TABLE)} set "keptLater" = 'while dropped'`.execute(server.db);
    expect((await outOfStep(TABLE)).differing.length).toBeGreaterThan(0);
    await migrate(database(), registry);
    expect((await outOfStep(TABLE)).differing).toEqual([]);

    // No kept table, function or triggers, as a server from before them left the database: migrating fills it.
    await dropKeptRecordTriggers(server.db, TABLE);
    await sql.raw(`drop table "${kept}"`).execute(server.db);
    await sql.raw(`drop function "${keptTriggersOf(TABLE).fn}"()`).execute(server.db);
    await migrate(database(), registry);
    const state = await outOfStep(TABLE);
    expect(state.differing).toEqual([]);
    expect(state.kept).toBe(state.rows);

    // A kept table an earlier server made (its id in the database's collation, its statements' digest
    // another): migrating makes it again, the id compared byte by byte, every record in it.
    const collation = async () =>
      (await sql<{ c: string | null }>`select collation_name as c from information_schema.columns where table_schema = current_schema() and table_name = ${kept} and column_name = 'rid'`.execute(server.db)).rows[0]?.c;
    expect(await collation()).toBe('C');
    await sql.raw(`alter table "${kept}" alter column "rid" type text collate "default"`).execute(server.db);
    await sql.raw(`comment on table "${kept}" is 'kept records from an earlier server'`).execute(server.db);
    expect(await collation()).toBeNull();
    await migrate(database(), registry);
    expect(await collation()).toBe('C');
    expect((await outOfStep(TABLE)).differing).toEqual([]);
    expect((await outOfStep(TABLE)).kept).toBe(state.rows);

    // A migration with nothing changed rewrites nothing (the records keep their physical rows).
    const where = async () => (await sql<{ ctid: string }>`select ctid::text from ${sql.table(kept)} order by "rid" limit 5`.execute(server.db)).rows;
    const placed = await where();
    await migrate(database(), registry);
    expect(await where()).toEqual(placed);

    // TRUNCATE of the table empties its kept records.
    await sql.raw(`truncate "${TABLE}"`).execute(server.db);
    expect((await outOfStep(TABLE)).kept).toBe(0);
  });
});
