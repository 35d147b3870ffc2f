/**
 * SQLite keeps every table's records as JSON text, written by triggers (stored-records.ts), and list pages
 * and one-record reads answer that text. Checked here: after migrating and seeding, every row's kept
 * record is the record written now, and there is one for each row; writes through the API (create, update)
 * and a delete keep it so; the answers over HTTP are the kept texts (a kept text changed behind the
 * server's back is what a list page and a record read answer); a row holding a BLOB is still written, has
 * no kept record, and is answered by the row path; a column added by a migration is in every kept record;
 * a database from before the triggers is filled when migrated. The audit log and the notifications keep
 * none (`keptRecords: false`): no table, no trigger, those an earlier server made dropped, rows still answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { registry } from '../../resources/index.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { storedRecordsOf } from '../../src/server/db/sql-names.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectAddedColumnKept, expectEveryTableKept, expectNoneKeptWhereDeclared, expectWritesKeptAndAnswered, keptOutOfStep, recordsOf, walkedSearchPage } from '../support/kept-records.ts';
import type { Database } from '../../src/server/db/types.ts';

const TABLE = 'topCategories';

describe('records kept as JSON text by triggers (sqlite)', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer({ catalogue: true });
    admin = await server.login('admin');
  });
  afterAll(async () => server?.close());

  const database = () => ({ db: server.db, engine: 'sqlite' }) as unknown as Database;
  const kept = storedRecordsOf(TABLE);

  const outOfStep = (table: string) => keptOutOfStep(server.db, 'sqlite', table);

  it('keeps one record for each row of every table, the record written now', async () => {
    await expectEveryTableKept(server.db, 'sqlite');
  });

  it('keeps none for the audit log and the notifications (keptRecords: false), drops those an earlier server kept, and still answers their rows', async () => {
    await expectNoneKeptWhereDeclared(server, admin, 'sqlite', () => migrate(database(), registry));
  });

  it('keeps it in step with creates, updates and deletes, and answers the kept text', async () => {
    // Kept under the row's rowid (taken while the row is there: it is deleted below, and its record must go with it).
    const rowidOf = new Map<string, number>();
    const ridOf = async (id: string) => {
      if (!rowidOf.has(id)) rowidOf.set(id, (await sql<{ rid: number }>`select rowid as rid from ${sql.table(TABLE)} where "id" = ${id}`.execute(server.db)).rows[0].rid);
      return rowidOf.get(id)!;
    };
    const keptOf = async (id: string) => (await sql<{ record: string }>`select "record" from ${sql.table(kept)} where "rid" = ${await ridOf(id)}`.execute(server.db)).rows[0]?.record;
    const { id } = await expectWritesKeptAndAnswered(server, admin, 'sqlite', {
      keptOf,
      setKeptName: async (id, name) => {
        await sql`update ${sql.table(kept)} set "record" = json_set("record", '$.name', ${name}) where "rid" = ${await ridOf(id)}`.execute(server.db);
      },
    });
    const record = () => keptOf(id);

    await sql`delete from ${sql.table(TABLE)} where "id" = ${id}`.execute(server.db);
    expect(await record()).toBeUndefined();
    expect(await outOfStep(TABLE)).toMatchObject({ differing: [] });
  });

  it('still writes a row holding a BLOB, keeps no record of it, and answers its page by the row path', async () => {
    const id = 'blob-row-kept-test';
    await sql`insert into ${sql.table(TABLE)} ("id", "name", "slug", "image", "href", "status", "order", "version", "createdAt", "updatedAt")
      values (${id}, ${'Blob kept'}, ${'blob-kept'}, ${Buffer.from([1, 2, 3])}, ${'/c/b'}, ${'PUBLISHED'}, ${1}, ${1}, ${new Date().toISOString()}, ${new Date().toISOString()})`.execute(server.db);
    try {
      expect((await sql`select 1 from ${sql.table(kept)} where "rid" = (select rowid from ${sql.table(TABLE)} where "id" = ${id})`.execute(server.db)).rows).toEqual([]);
      const page = await server.api('GET', '/top-categories', { cookie: admin, query: { filter: { q: 'Blob kept' } } });
      expect(page.status).toBe(200);
      expect(recordsOf(page.body).map((x) => x.id)).toEqual([id]);
    } finally {
      await sql`delete from ${sql.table(TABLE)} where "id" = ${id}`.execute(server.db);
    }
  });

  it('reads a walked search page by its kept records, and a row whose record is not kept by the row', async () => {
    const page = await walkedSearchPage(server.db, TABLE);
    const before = await page();
    expect(before.length).toBeGreaterThan(0);
    const rid = (await sql<{ rid: number }>`select rowid as rid from ${sql.table(TABLE)} where "id" = ${before[0].id}`.execute(server.db)).rows[0].rid;
    const text = (await sql<{ record: string }>`select "record" from ${sql.table(kept)} where "rid" = ${rid}`.execute(server.db)).rows[0].record;
    await sql`delete from ${sql.table(kept)} where "rid" = ${rid}`.execute(server.db);
    try {
      expect(await page()).toEqual(before);
      // And where it is kept, the kept text is what the page answers.
      await sql`insert into ${sql.table(kept)} ("rid", "record") values (${rid}, json_set(${text}, '$.name', 'Only in the kept text'))`.execute(server.db);
      expect((await page())[0].name).toBe('Only in the kept text');
    } finally {
      await sql`insert or replace into ${sql.table(kept)} ("rid", "record") values (${rid}, ${text})`.execute(server.db);
    }
    expect(await page()).toEqual(before);
  });

  it('puts a column a migration adds into every kept record, and fills a database from before the triggers', async () => {
    await expectAddedColumnKept(server.db, 'sqlite', TABLE, () => migrate(database(), registry));

    // No kept table and no triggers, as a server from before them left the file: migrating fills it.
    for (const t of ['insert', 'update', 'delete']) await sql.raw(`drop trigger "${kept}_${t}"`).execute(server.db);
    await sql.raw(`drop table "${kept}"`).execute(server.db);
    await migrate(database(), registry);
    const state = await outOfStep(TABLE);
    expect(state.differing).toEqual([]);
    expect(state.kept).toBe(state.rows);

    // Records kept by id, as servers before the rowid key kept them (one of them stale): remade by rowid.
    for (const t of ['insert', 'update', 'delete']) await sql.raw(`drop trigger "${kept}_${t}"`).execute(server.db);
    await sql.raw(`drop table "${kept}"`).execute(server.db);
    await sql.raw(`create table "${kept}" ("id" text primary key, "record" text not null) without rowid`).execute(server.db);
    await sql.raw(`insert into "${kept}" select "id", '{"stale":true}' from "${TABLE}"`).execute(server.db);
    await migrate(database(), registry);
    const columns = (await sql<{ name: string }>`select name from pragma_table_info(${kept})`.execute(server.db)).rows.map((c) => c.name);
    expect(columns).toEqual(['rid', 'record']);
    const remade = await outOfStep(TABLE);
    expect(remade.differing).toEqual([]);
    expect(remade.kept).toBe(remade.rows);
  });
});
