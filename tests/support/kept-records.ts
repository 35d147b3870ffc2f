/**
 * What the kept-records tests of both engines share (stored-records.test.ts for SQLite,
 * pg-stored-records.test.ts for PostgreSQL): whether a table's kept records are the records written now,
 * the check of every table, a top category's writes through the API, and a walked search page as the
 * repository reads it. Each engine keys its kept records its own way (SQLite by rowid, PostgreSQL by id),
 * so the join's key and its "differs" operator are chosen here by engine; the assertions stay in the tests.
 */
import { expect } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { registry } from '../../resources/index.ts';
import { JSON_COLUMN, keptRecordsTables, recordColumns, recordJsonExpression, recordJsonOf } from '../../src/server/db/json-records.ts';
import { listQueries } from '../../src/server/db/repository.ts';
import { parseListQuery } from '../../src/server/db/list-query.ts';
import { storedRecordsOf } from '../../src/server/db/sql-names.ts';
import { hasStoredRecords } from '../../src/server/db/stored-records.ts';
import { migratePgStoredRecords } from '../../src/server/db/postgres/pg-stored-records.ts';
import { migrateSqliteStoredRecords } from '../../src/server/db/sqlite/stored-records.ts';
import { AUDIT_LOG } from '../../resources/system.ts';
import { NOTIFICATIONS_TABLE } from '../../resources/notifications.ts';
import type { Registry } from '../../src/manifest/index.ts';
import type { Engine } from '../../src/server/db/types.ts';
import type { TestServer } from './server.ts';

/** A table's rows and kept records counted, and the ids of rows whose kept record is missing or differs from the record written now. */
export async function keptOutOfStep(db: Kysely<any>, engine: Engine, table: string): Promise<{ rows: number; kept: number; differing: string[] }> {
  const r = registry.resource(table);
  const live = recordJsonExpression(db, r, (await recordColumns(db, r))!).compile(db).sql;
  const count = async (t: string) => Number((await sql.raw<{ n: number | string }>(`select count(*) as n from "${t}"`).execute(db)).rows[0].n);
  const key = engine === 'sqlite' ? `"${table}".rowid` : `"${table}"."id"`;
  const differs = engine === 'sqlite' ? 'is not' : 'is distinct from';
  const { rows: differing } = await sql
    .raw<{ id: string }>(`select "${table}"."id" as id from "${table}" left join "${storedRecordsOf(table)}" k on k."rid" = ${key} where k."record" ${differs} ${live}`)
    .execute(db);
  return { rows: await count(table), kept: await count(storedRecordsOf(table)), differing: differing.map((d) => d.id) };
}

/**
 * Every table with records keeps one for each row, the record written now, but those of resources that
 * say `keptRecords: false` (`expectNoneKeptWhereDeclared`); more than 100 rows in all (the seed).
 */
export async function expectEveryTableKept(db: Kysely<any>, engine: Engine): Promise<void> {
  let rows = 0;
  for (const r of registry.resources) {
    if (r.keptRecords === false || !(await recordColumns(db, r))) continue;
    const state = await keptOutOfStep(db, engine, r.name);
    expect(state.differing, r.name).toEqual([]);
    expect(state.kept, r.name).toBe(state.rows);
    rows += state.rows;
  }
  expect(rows).toBeGreaterThan(100);
}

/** The body of a top category the tests write: 'Kept glass' at first (n = 0), its `n`th change 'Kept glass n+1'. */
export const keptGlass = (n = 0) => ({
  name: n ? `Kept glass ${n + 1}` : 'Kept glass',
  image: '/logo.jpg',
  href: '/c/k',
  status: 'PUBLISHED',
  order: 7 + n,
});

/**
 * A walked search page of `table` (sorted by name, searching the first name's first three letters) as the
 * repository reads it (repository.ts, `pageSearchBy`'s 'scan'), each record parsed.
 */
export async function walkedSearchPage(db: Kysely<any>, table: string): Promise<() => Promise<Record<string, unknown>[]>> {
  const r = registry.resource(table);
  const asJson = (await recordJsonOf(db, r))!;
  const first = (await sql<{ name: string }>`select "name" from ${sql.table(table)} order by "name" limit 1`.execute(db)).rows[0].name;
  const query = parseListQuery(r, { sort: JSON.stringify(['name', 'ASC']), range: JSON.stringify([0, 9]), filter: JSON.stringify({ q: first.slice(0, 3) }) });
  return async () => (await listQueries(db, r, query, undefined, undefined, 'scan', asJson).page.execute()).map((row) => JSON.parse(String(row[JSON_COLUMN])));
}

/**
 * A column a migration adds is in every kept record: `table` gains "keptLater" = 'yes' in every row, then
 * `migrateIt` runs (the engine's own migration), and every kept record holds it and is the record written now.
 */
export async function expectAddedColumnKept(db: Kysely<any>, engine: Engine, table: string, migrateIt: () => Promise<void>): Promise<void> {
  await sql`alter table ${sql.table(table)} add column "keptLater" text`.execute(db);
  await sql`update ${sql.table(table)} set "keptLater" = 'yes'`.execute(db);
  await migrateIt();
  const { rows } = await sql<{ record: string }>`select "record" from ${sql.table(storedRecordsOf(table))}`.execute(db);
  expect(rows.length).toBeGreaterThan(0);
  for (const { record } of rows) expect(JSON.parse(record).keptLater).toBe('yes');
  expect((await keptOutOfStep(db, engine, table)).differing).toEqual([]);
}

/** A list answer's records (a paged list answers `{ data }`, another the array). */
export const recordsOf = (body: any): Record<string, unknown>[] => (Array.isArray(body) ? body : body.data);

/**
 * Writes through the API keep the record, and what the server answers is the kept text: a top category
 * created and updated (its kept record is each answer), its kept text changed behind the server's back
 * (`setKeptName`, the engine's own JSON edit) shows in a new page and in the record read, and the next
 * update puts it back in step. `keptOf(id)` reads the kept text of the row with that id (each engine keys
 * its own way). Answers the id and the last answer, for the engine's own checks that follow.
 */
export async function expectWritesKeptAndAnswered(
  server: TestServer,
  admin: string,
  engine: Engine,
  keys: { keptOf: (id: string) => Promise<string | undefined>; setKeptName: (id: string, name: string) => Promise<void> },
): Promise<{ id: string; last: Record<string, unknown> }> {
  const made = await server.api('POST', '/top-categories', { cookie: admin, body: keptGlass() });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const id = made.body.id as string;
  expect(JSON.parse((await keys.keptOf(id))!)).toEqual(made.body);

  const changed = await server.api('PATCH', `/top-categories/${id}`, { cookie: admin, body: keptGlass(1) });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  expect(JSON.parse((await keys.keptOf(id))!)).toEqual(changed.body);
  expect((await keptOutOfStep(server.db, engine, 'topCategories')).differing).toEqual([]);

  // What the server answers is the kept text: changed behind its back, a new page and the record show it.
  await keys.setKeptName(id, 'Only in the kept text');
  const page = await server.api('GET', '/top-categories', { cookie: admin, query: { filter: { q: 'Kept glass' }, sort: ['order', 'DESC'] } });
  expect(page.status).toBe(200);
  expect(recordsOf(page.body).map((x) => x.name)).toEqual(['Only in the kept text']);
  const one = await server.api('GET', `/top-categories/${changed.body.slug}`, { cookie: admin });
  expect(one.body.name).toBe('Only in the kept text');
  // The next write puts the record back in step.
  const again = await server.api('PATCH', `/top-categories/${id}`, { cookie: admin, body: keptGlass(2) });
  expect(JSON.parse((await keys.keptOf(id))!)).toEqual(again.body);
  return { id, last: again.body };
}

/** The names of the triggers on `table` that keep its records (each engine names them after the kept table). */
async function keepingTriggers(db: Kysely<any>, engine: Engine, table: string): Promise<string[]> {
  const { rows } =
    engine === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'trigger' and tbl_name = ${table}`.execute(db)
      : await sql<{ name: string }>`select tgname as name from pg_trigger where tgrelid = to_regclass(quote_ident(${table})) and not tgisinternal`.execute(db);
  return rows.map((t) => t.name).filter((name) => name.startsWith(storedRecordsOf(table)));
}

/**
 * The resources that say `keptRecords: false` (the audit log and the notifications, written with every
 * create of a product) keep no record beside their rows on `engine`: no kept table, no trigger, also
 * once a migration has run over a database an earlier server kept them in; and their rows are still
 * written and answered (a create's audit entry and its notification, on the admin's lists of each).
 * `migrateIt` migrates the server's database as a starting server does.
 */
export async function expectNoneKeptWhereDeclared(server: TestServer, admin: string, engine: Engine, migrateIt: () => Promise<void>): Promise<void> {
  const db = server.db;
  const unkept = registry.resources.filter((r) => r.keptRecords === false);
  expect(unkept.map((r) => r.name).sort()).toEqual([AUDIT_LOG, NOTIFICATIONS_TABLE].sort());
  const expectNone = async () => {
    for (const r of unkept) {
      expect(await hasStoredRecords(db, r.name), r.name).toBe(false);
      expect(await keepingTriggers(db, engine, r.name), r.name).toEqual([]);
    }
  };
  await expectNone();

  // A database an earlier server kept them in (as every table's were): the next migration drops them.
  const earlier = await keptRecordsTables(db, { resources: unkept.map((r) => ({ ...r, keptRecords: true })) } as unknown as Registry);
  await (engine === 'sqlite' ? migrateSqliteStoredRecords : migratePgStoredRecords)(db, earlier);
  for (const r of unkept) {
    expect(await hasStoredRecords(db, r.name), r.name).toBe(true);
    expect((await keepingTriggers(db, engine, r.name)).length, r.name).toBeGreaterThan(0);
  }
  await migrateIt();
  await expectNone();

  // Written as before, and answered as the rows hold them: a create's audit entry, a notification sent.
  const made = await server.api('POST', '/top-categories', { cookie: admin, body: { ...keptGlass(), name: 'Audited bowl' } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const entries = await server.api('GET', '/audit-log', { cookie: admin, query: { filter: { recordId: made.body.id } } });
  expect(entries.status, JSON.stringify(entries.body)).toBe(200);
  const entry = recordsOf(entries.body);
  expect(entry.map((e) => [e.resource, e.action])).toEqual([['topCategories', 'create']]);
  const stored = await db.selectFrom(AUDIT_LOG).selectAll().where('recordId', '=', made.body.id).executeTakeFirstOrThrow();
  expect(entry[0]).toEqual(stored);
  expect(JSON.parse(String(entry[0].changes)).name).toEqual({ before: null, after: 'Audited bowl' });
  const me = await db.selectFrom('users').select('id').where('role', '=', 'admin').executeTakeFirstOrThrow();
  const sent = await server.api('POST', '/api/notifications/enhanced', { cookie: admin, body: { title: 'Unkept note', message: 'Kept nowhere else', type: 'info', userId: me.id } });
  expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
  const notes = await server.api('GET', '/notifications/', { cookie: admin, query: { sort: ['id', 'DESC'], range: [0, 4] } });
  expect(notes.status, JSON.stringify(notes.body)).toBe(200);
  const newest = await db.selectFrom(NOTIFICATIONS_TABLE).selectAll().orderBy('id', 'desc').limit(5).execute();
  expect(newest.map((n) => n.title)).toContain('Unkept note');
  expect(recordsOf(notes.body).map((n) => [n.id, n.title])).toEqual(newest.map((n) => [n.id, n.title]));
}
