/**
 * List search read from the search index (search.ts) answers exactly what a plain scan
 * (`lower(field) like '%needle%'`) answers: the same rows in the same order and the same count, for
 * needles of every length (below the trigram's three characters too), in any case, with unicode,
 * quotes, LIKE's `%` and `_`, and FTS5 query syntax, alone and beside a filter; the index follows
 * inserts, updates, deletes, the recycle bin and a database made before it existed. On every engine
 * this machine has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { registry } from '../../resources/index.ts';
import { listOptions } from '../../src/manifest/index.ts';
import { connect, dropSchema, type Database } from '../../src/server/db/connect.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { listQueries } from '../../src/server/db/repository.ts';
import type { ListQuery } from '../../src/server/db/list-query.ts';
import { searchTableOf } from '../../src/server/db/sqlite/search-pending.ts';
import { newId } from '../../src/server/db/id.ts';
import { prng } from '../../src/domain/sample.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

/** The resource searched over the most fields, with a filter to combine a search with. */
const r = registry.resource('accountReplacements');
const fields = listOptions(r).search;
const filterField = 'role';

/** Texts that break naive search: case, unicode (some whose case SQLite's `lower` leaves alone), LIKE and FTS5 syntax. */
const PIECES = [
  'Alpha', 'bravo', 'CHARLIE', 'Élan', 'élan', 'straße', 'STRASSE', 'İstanbul', 'ıi', 'K', 'Kelvin', 'Ωmega', 'ωmega',
  'Москва', 'москва', '東京都', '😀ab😀', "O'Brien", '"quoted"', 'say ""twice""', '100%', '50% off', 'snake_case', 'a_b',
  'back\\slash', '"a" OR b', 'NEAR(a b)', 'star*', '^caret', 'col:on', '(paren)', '-minus', '+plus', 'AND', 'OR', 'NOT',
  '  spaced  out ', 'x', 'ab', 'abc', 'aaaa', 'abab',
];

function text(rng: ReturnType<typeof prng>): string {
  const n = 1 + rng.int(3);
  return Array.from({ length: n }, () => PIECES[rng.int(PIECES.length)]).join(rng.int(2) ? ' ' : '');
}

const flipCase = (s: string, rng: ReturnType<typeof prng>) =>
  [...s].map((c) => (rng.int(2) ? c.toUpperCase() : c.toLowerCase())).join('');

/** Today's meaning, written out as the scan it was: every searchable field, lowered, LIKE the lowered needle. */
async function scan(database: Database, needle: string, filter?: string) {
  const pattern = `%${needle.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  let query = database.db.selectFrom(r.name).where((eb) =>
    eb.or(fields.map((f) => eb(sql`lower(${sql.ref(f)})`, 'like', sql`${pattern} escape '\\'`))),
  );
  if (filter) query = query.where(filterField, '=', filter);
  const rows = await query.select('id').orderBy('name', 'asc').orderBy('id', 'asc').execute();
  return rows.map((x) => x.id as string);
}

/** The page the server reads (from the search index, or walking the sort's index: search.ts `pageSearchBy`) and the count. */
async function searched(database: Database, needle: string, filter: string | undefined, by: 'index' | 'scan', start = 0, end = 100_000) {
  const query: ListQuery = {
    sort: { field: 'name', order: 'ASC' },
    start,
    end,
    q: needle,
    equals: filter ? { [filterField]: filter } : {},
  };
  const { page, count } = listQueries(database.db, r, query, undefined, undefined, by);
  const rows = await page.execute();
  return { ids: rows.map((x) => x.id as string), total: Number((await count.executeTakeFirstOrThrow()).total) };
}

describe.each(engines)('list search (%s)', (engine) => {
  let database: Database;
  const schema = `search_${process.pid}_${Date.now()}`;
  const rng = prng(12);
  const stored: Record<string, unknown>[] = [];
  const roles = r.fields.find((f) => f.name === filterField)!.options!;

  const insert = async (count: number) => {
    const rows = Array.from({ length: count }, () => {
      const at = new Date().toISOString();
      const row: Record<string, unknown> = { id: newId(), createdAt: at, updatedAt: at, [filterField]: roles[rng.int(roles.length)] };
      for (const f of fields) row[f] = rng.int(10) ? text(rng) : null;
      return row;
    });
    await database.db.insertInto(r.name).values(rows).execute();
    stored.push(...rows);
  };

  /** Needles: pieces of the stored texts (one to eight characters, any case), the tricky pieces whole, and absent ones. */
  const needles = () => {
    const out = new Set<string>(PIECES.map((p) => p.trim()).filter(Boolean));
    for (const extra of ['%', '_', '\\', '"', "'", '""', '*', '^', 'a OR b', '"a" OR "b"', 'NEAR', ':', 'zzzz', 'İ', 'ß', 'ss', 'k'])
      out.add(extra);
    while (out.size < 250) {
      const row = stored[rng.int(stored.length)];
      const value = String(row[fields[rng.int(fields.length)]] ?? '');
      const chars = [...value];
      if (!chars.length) continue;
      const start = rng.int(chars.length);
      const piece = chars.slice(start, start + 1 + rng.int(8)).join('').trim();
      if (piece) out.add(flipCase(piece, rng));
    }
    return [...out];
  };

  async function expectSameAsScan() {
    const failures: string[] = [];
    for (const needle of needles()) {
      const filter = rng.int(3) ? undefined : roles[rng.int(roles.length)];
      const want = await scan(database, needle, filter);
      for (const by of ['index', 'scan'] as const) {
        const got = await searched(database, needle, filter, by);
        if (JSON.stringify(got.ids) !== JSON.stringify(want) || got.total !== want.length)
          failures.push(`${by} ${JSON.stringify(needle)} ${filter ?? ''}: ${got.ids.length}/${got.total} rows, the scan ${want.length}`);
        // A page from the middle: the same rows as the scan's, in its order.
        const start = rng.int(Math.max(1, want.length));
        const middle = await searched(database, needle, filter, by, start, start + 4);
        if (JSON.stringify(middle.ids) !== JSON.stringify(want.slice(start, start + 5)))
          failures.push(`${by} ${JSON.stringify(needle)} ${filter ?? ''} rows ${start}-${start + 4}: ${JSON.stringify(middle.ids)}, the scan ${JSON.stringify(want.slice(start, start + 5))}`);
      }
    }
    expect(failures).toEqual([]);
  }

  beforeAll(async () => {
    database = engine === 'postgres' ? await connect({ url: process.env.DATABASE_URL, schema }) : await connect({ file: ':memory:' });
    await migrate(database, registry);
    await insert(600);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    if (engine === 'postgres') await dropSchema(process.env.DATABASE_URL!, schema);
  });

  it('answers what a plain scan answers, for many needles, alone and beside a filter', async () => {
    expect((await scan(database, 'a')).length).toBeGreaterThan(0);
    await expectSameAsScan();
  });

  it('follows updates and deletes of the searched fields', async () => {
    for (const row of stored.slice(0, 150)) {
      const change = Object.fromEntries(fields.map((f) => [f, rng.int(4) ? text(rng) : null]));
      await database.db.updateTable(r.name).set(change).where('id', '=', row.id as string).execute();
      Object.assign(row, change);
    }
    // An update of another column leaves the index as it was.
    await database.db.updateTable(r.name).set({ [filterField]: roles[0] }).where('id', 'in', stored.slice(150, 200).map((x) => x.id as string)).execute();
    const gone = stored.splice(200, 100).map((x) => x.id as string);
    await database.db.deleteFrom(r.name).where('id', 'in', gone).execute();
    await insert(100);
    await expectSameAsScan();
  });

  it.runIf(engine === 'sqlite')('fills the index of a database made before it (SQLite)', async () => {
    const fts = searchTableOf(r.name);
    // As a database from before the search index: no FTS table, no triggers.
    for (const t of ['insert', 'update', 'delete']) await sql.raw(`DROP TRIGGER "${fts}_${t}"`).execute(database.db);
    await sql.raw(`DROP TABLE "${fts}"`).execute(database.db);
    await migrate(database, registry);
    await expectSameAsScan();
    await insert(50);
    await expectSameAsScan();
  });
});

describe.each(engines)('list search through the API (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
  }, 120_000);
  afterAll(() => server?.close());

  const find = async (q: string) => {
    const res = await server.api('GET', '/top-categories', { cookie: admin, query: { filter: { q }, range: [0, 99] } });
    expect(res.status).toBe(200);
    return { ids: res.body.map((x: { id: string }) => x.id) as string[], total: Number(res.headers.get('content-range')!.split('/')[1]) };
  };

  it('finds a record as it is created, renamed, recycled and restored', async () => {
    const tag = newId().slice(-8);
    const made = await server.api('POST', '/top-categories', {
      cookie: admin,
      body: { name: `Zebra ${tag} Crossing`, image: '/logo.jpg', href: '/c/x', status: 'PUBLISHED', order: 2 },
    });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    expect(await find(`ZEBRA ${tag}`)).toEqual({ ids: [id], total: 1 });
    expect((await find(tag.slice(0, 2))).ids).toContain(id);

    const renamed = await server.api('PATCH', `/top-categories/${id}`, { cookie: admin, body: { name: `Okapi ${tag}`, image: '/logo.jpg', href: '/c/x', status: 'PUBLISHED', order: 2 } });
    expect(renamed.status).toBe(200);
    expect(await find(`zebra ${tag}`)).toEqual({ ids: [], total: 0 });
    expect(await find(`okapi ${tag}`)).toEqual({ ids: [id], total: 1 });

    expect((await server.api('DELETE', `/top-categories/${id}/recycle`, { cookie: admin })).status).toBe(200);
    expect(await find(`okapi ${tag}`)).toEqual({ ids: [], total: 0 });
    const bin = await server.api('GET', '/recycle-bin', { cookie: admin, query: { filter: { q: `Okapi ${tag}` } } });
    expect(bin.body).toHaveLength(1);
    expect((await server.api('POST', `/recycle-bin/${bin.body[0].id}/restore`, { cookie: admin })).status).toBe(200);
    expect(await find(`okapi ${tag}`)).toEqual({ ids: [id], total: 1 });
  });

  it('answers FTS5 and LIKE syntax as text: never a 5xx', async () => {
    for (const q of ['"a" OR b', 'NEAR(a b)', '*', 'a*', '^ab', '"', '""', "'", '%', '_', '\\', 'col:on', '(', ')', '-x', 'qq AND', 'qq OR zz', '{a b}:c', '😀'])
      expect(await find(q)).toEqual({ ids: [], total: 0 });
  });
});
