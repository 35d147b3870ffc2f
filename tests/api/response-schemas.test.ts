/**
 * The read routes serialise their answers with fast-json-stringify from schemas made from the manifest
 * (src/server/routes/response-schemas.ts). Such a serialiser drops what its schema leaves out and
 * coerces what it names, so a wrong schema loses data silently: this test puts random valid rows of
 * every resource (and one row of awkward values stored as is) in a real database of each engine, reads
 * them back as the routes do (`selectAll`, `toRecord`, `embed`), and checks that each list, one-record
 * and grouped answer, serialised through Fastify's compiled schema, is what `JSON.stringify` gives:
 * nothing dropped, nothing changed, nothing added (a password hash never appears). A column left by a
 * removed field (migrations are additive) must come through too.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../resources/index.ts';
import type { ReadDef, ResourceDef } from '../../src/manifest/index.ts';
import { createSampler } from '../../src/domain/sample.ts';
import { connect, dropSchema, type Database } from '../../src/server/db/connect.ts';
import { newId } from '../../src/server/db/id.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { embed, findBy, list, listJson, listQueries, toRecord, type Row } from '../../src/server/db/repository.ts';
import { JSON_COLUMN, recordJsonOf } from '../../src/server/db/json-records.ts';
import { findReachableJson, type Reach } from '../../src/server/records/ownership.ts';
import type { ListQuery } from '../../src/server/db/list-query.ts';
import { searchFieldsOf } from '../../src/server/db/search.ts';
import { columnName, columnsOf } from '../../src/server/db/tables.ts';
import { responseOptionsOf, serialize } from '../../src/server/routes/response-schemas.ts';
import { engines } from '../support/server.ts';

const ROWS = 6;
/** Every row within reach (an admin's). */
const ALL: Reach = { kind: 'all', key: '' };
/** Stored in every secret column: it must never be in an answer. */
const SECRET = `secret-hash-${randomBytes(6).toString('hex')}`;
/** A column no field declares any more (as a removed field leaves it). */
const STALE = 'legacyNote';
/** A joined page as text (SQLite hands it over as bytes). */
const textOf = (joined: string | Uint8Array) => (typeof joined === 'string' ? joined : Buffer.from(joined).toString('utf8'));
/** Text a hand-made serialiser gets wrong: quotes, escapes, control characters, non-BMP, a lone surrogate. */
const AWKWARD = ['say "hi" \\ back', 'line\nbreak\ttab\u0001\u001f', 'ünïcödé ✓ 😀', 'lone \ud800 surrogate', '</script>', ''];

const answering = (r: ResourceDef) =>
  Object.entries(r.reads).filter((e): e is [string, Exclude<ReadDef, { kind: 'self' }>] => ['one', 'list', 'grouped'].includes(e[1].kind));

/** Inserts ROWS valid rows of each resource (parents first) and one row of awkward values. */
async function fill(database: Database, engine: string) {
  const { db } = database;
  const sampler = createSampler({ seed: 7, uniqueNames: true });
  const ids = new Map<string, string[]>();
  const pending = registry.resources.slice();
  while (pending.length) {
    const at = Math.max(
      0,
      pending.findIndex((r) => r.fields.every((f) => f.kind !== 'reference' || f.reference === r.name || ids.has(f.reference!))),
    );
    const r = pending.splice(at, 1)[0];
    const mine = Array.from({ length: ROWS + 1 }, () => newId());
    const reference = (_f: unknown, target: string) => {
      const pool = target === r.name ? mine : (ids.get(target) ?? []);
      return pool[sampler.rng.int(Math.max(1, pool.length))];
    };
    const made: string[] = [];
    for (let i = 0; i <= ROWS; i++) {
      const values = sampler.record(r, { reference });
      const row: Row = {};
      const at = new Date(Date.now() - i * 60_000).toISOString();
      for (const c of columnsOf(r)) {
        if (c.name === 'id') row.id = mine[i];
        else if (c.name === 'createdAt' || c.name === 'updatedAt') row[c.name] = at;
        else if (c.field?.secret) row[columnName(c.field)] = SECRET;
        else if (c.field) row[c.name] = values[c.field.name] ?? null;
      }
      if (i === ROWS) awkward(r, row, engine);
      try {
        await db.insertInto(r.name).values(row).execute();
        made.push(mine[i]);
      } catch {
        // a sampled value another row already holds (a unique field): that row is left out
      }
    }
    ids.set(r.name, made);
  }
  await sql`alter table ${sql.table('users')} add column ${sql.ref(STALE)} text`.execute(db);
  await db.updateTable('users').set({ [STALE]: 'kept from an older manifest' }).execute();
}

/** Awkward stored values: every text as odd text, numbers at their edges, and (SQLite keeps what it is given) text in a number column. */
function awkward(r: ResourceDef, row: Row, engine: string) {
  let n = 0;
  for (const c of columnsOf(r)) {
    if (c.name === 'id' || c.field?.secret || c.field?.kind === 'reference') continue;
    const v = row[c.name];
    if (c.storage === 'text') row[c.name] = AWKWARD[n++ % AWKWARD.length] + (c.field?.unique ? ` ${row.id}` : '');
    else if (c.storage === 'real') row[c.name] = [1e21, 0.1 + 0.2, -1.5e-7][n++ % 3];
    else if (c.field?.kind === 'boolean') row[c.name] = 2;
    else row[c.name] = engine === 'sqlite' && c.name !== 'version' ? 'text where a number goes' : typeof v === 'number' ? 2147483647 : v;
  }
}

/** A Fastify app with one route per read, each declaring the read's schema and answering `serialize` of a given value. */
async function serialiser(): Promise<{ app: FastifyInstance; through: (r: ResourceDef, name: string, value: unknown) => Promise<string> }> {
  const app = Fastify({ logger: false });
  const values = new Map<string, unknown>();
  for (const r of registry.resources)
    for (const [name, read] of answering(r)) {
      const url = `/${r.name}/${name}`;
      app.get(url, responseOptionsOf(registry, r, read)!, async (_request, reply) =>
        reply.type('application/json; charset=utf-8').send(serialize(reply, values.get(url))),
      );
    }
  await app.ready();
  return {
    app,
    async through(r, name, value) {
      values.set(`/${r.name}/${name}`, value);
      const res = await app.inject({ method: 'GET', url: `/${r.name}/${name}` });
      expect(res.statusCode).toBe(200);
      return res.body;
    },
  };
}

describe.each(engines)('answers serialised from the manifest’s schemas (%s)', (engine) => {
  let database: Database;
  let dir: string;
  const schema = `test_${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'marketplace-schemas-'));
    database = engine === 'postgres' ? await connect({ url: process.env.DATABASE_URL, schema }) : await connect({ file: join(dir, 'test.sqlite') });
    await migrate(database, registry);
    await fill(database, engine);
    // As a server starting on this database would: a column left behind is in every record (SQLite: the
    // kept records' triggers made again with it, stored-records.ts).
    await migrate(database, registry);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
    if (engine === 'postgres') await dropSchema(process.env.DATABASE_URL!, schema);
  });

  it('every list, one-record and grouped answer equals JSON.stringify of it, with no secret and no dropped column', async () => {
    const { app, through } = await serialiser();
    const { db } = database;
    let checked = 0;
    const same = async (r: ResourceDef, name: string, value: unknown) => {
      const text = await through(r, name, value);
      expect(JSON.parse(text), `${r.name}.${name}`).toEqual(JSON.parse(JSON.stringify(value)));
      expect(text).not.toContain(SECRET);
      checked++;
    };
    for (const r of registry.resources) {
      const reads = answering(r);
      if (!reads.length) continue;
      const rows = (await db.selectFrom(r.name).selectAll().orderBy('id').execute()).map((row) => toRecord(r, row)!);
      // Each resource really has rows, the awkward one among them (unless a unique value collided).
      expect(rows.length, r.name).toBeGreaterThan(0);
      for (const f of r.fields.filter((x) => x.secret)) for (const row of rows) expect(row).not.toHaveProperty(columnName(f));
      if (r.name === 'users') for (const row of rows) expect(row[STALE]).toBe('kept from an older manifest');
      for (const [name, read] of reads) {
        const embedded = async (list: Row[]) => (read.kind !== 'grouped' && read.embed ? embed(db, registry, r, structuredClone(list), read.embed) : list);
        if (read.kind === 'one') for (const row of await embedded(rows)) await same(r, name, row);
        else if (read.kind === 'grouped') {
          const groups: Record<string, Row[]> = {};
          for (const row of rows) (groups[String(row[read.by] ?? '')] ??= []).push(row);
          await same(r, name, groups);
        } else {
          const data = await embedded(rows);
          await same(r, name, (read.paging ?? 'range') === 'page' ? { data, total: rows.length, page: 1, limit: 25 } : data);
        }
      }
    }
    expect(checked).toBeGreaterThan(registry.resources.length);
    await app.close();
  });

  it('list pages written as JSON by the database itself parse to the very records the row path answers, in its order', async () => {
    const { db } = database;
    let checked = 0;
    for (const r of registry.resources) {
      const asJson = await recordJsonOf(db, r);
      expect(asJson, r.name).toBeDefined();
      const rows = (await db.selectFrom(r.name).selectAll().orderBy('id').execute()).map((row) => toRecord(r, row)!);
      const searchable = searchFieldsOf(r);
      // A needle found in the awkward row and in sampled ones: the first characters of a searchable value.
      const needles = searchable.length ? [...new Set(rows.map((row) => String(row[searchable[0]] ?? '').slice(0, 2)).filter((x) => x.trim()))] : [];
      const queries: ListQuery[] = [
        { sort: r.sort, start: 0, end: 24, equals: {} },
        { sort: { field: 'id', order: 'ASC' }, start: 2, end: 4, equals: {} },
        ...needles.slice(0, 3).map((q) => ({ sort: r.sort, start: 0, end: 24, equals: {}, q })),
      ];
      for (const query of queries) {
        // What the route calls: the page as the database joined it is the row path's page.
        const [written, listed] = [await listJson(db, r, query), await list(db, r, query)];
        expect(written!.count).toBe(listed.rows.length);
        expect(JSON.parse(textOf(written!.joined)), `${r.name} ${JSON.stringify(query)}`).toEqual(JSON.parse(JSON.stringify(listed.rows)));
        for (const by of query.q ? (['index', 'scan'] as const) : (['index'] as const)) {
          const records = (await listQueries(db, r, query, undefined, undefined, by, asJson).page.execute()).map((row) => row[JSON_COLUMN] as string);
          const expected = (await listQueries(db, r, query, undefined, undefined, by).page.execute()).map((row) => toRecord(r, row)!);
          expect(JSON.parse(`[${records.join(',')}]`), `${r.name} ${JSON.stringify(query)} ${by}`).toEqual(JSON.parse(JSON.stringify(expected)));
          for (const text of records) {
            expect(text).not.toContain(SECRET);
            // Compact, as the serialiser writes it: no space between members outside the strings.
            expect(text.replace(/"(?:[^"\\]|\\.)*"/g, '""'), `${r.name}: ${text.slice(0, 80)}`).not.toMatch(/\s/);
          }
          checked += records.length;
        }
      }
      // What the route calls: the same records as `list`, and the same total.
      const query: ListQuery = { sort: r.sort, start: 0, end: 24, equals: {} };
      const written = await listJson(db, r, query);
      const listed = await list(db, r, query);
      expect(written!.total).toBe(listed.total);
      expect(written!.count).toBe(listed.rows.length);
      const page = JSON.parse(textOf(written!.joined)) as Row[];
      expect(page).toEqual(JSON.parse(JSON.stringify(listed.rows)));
      if (r.name === 'users') for (const record of page) expect(record[STALE]).toBe('kept from an older manifest');
    }
    expect(checked).toBeGreaterThan(registry.resources.length * ROWS);
  });

  it('one-record reads written as JSON by the database parse to the record the row path answers, with its version', async () => {
    const { db } = database;
    let checked = 0;
    for (const r of registry.resources) {
      // Each field a one-record read looks its record up by (the id, a slug), as the route does.
      const fields = [...new Set(answering(r).flatMap(([, read]) => (read.kind === 'one' && !read.embed ? [read.by ?? 'id'] : [])))];
      if (!fields.length) continue;
      const rows = await db.selectFrom(r.name).selectAll().orderBy('id').execute();
      for (const field of fields)
        for (const row of rows) {
          if (row[field] === null || row[field] === undefined) continue;
          const written = await findReachableJson(db, registry, r, ALL, field, row[field]);
          const expected = toRecord(r, await findBy(db, r, field, row[field]))!;
          expect(JSON.parse(written!.record), `${r.name}.${field} = ${row[field]}`).toEqual(JSON.parse(JSON.stringify(expected)));
          expect(Number(written!.version)).toBe(Number(row.version));
          expect(written!.record).not.toContain(SECRET);
          checked++;
        }
      expect(await findReachableJson(db, registry, r, ALL, 'id', `absent-${randomBytes(4).toString('hex')}`), r.name).toBeNull();
    }
    expect(checked).toBeGreaterThan(ROWS * 5);
  });

  it('a page holding a BLOB (json_object cannot write one) is answered by the row path', async () => {
    if (engine === 'postgres') return;
    const { db } = database;
    const r = registry.resource('products');
    const [row] = await db.selectFrom(r.name).select('id').orderBy('id').limit(1).execute();
    const text = columnsOf(r).find((c) => c.storage === 'text' && c.field && !c.field.unique && c.field.kind !== 'reference')!;
    const before = await db.selectFrom(r.name).select(text.name).where('id', '=', row.id).executeTakeFirstOrThrow();
    await db.updateTable(r.name).set({ [text.name]: Buffer.from([0, 255]) }).where('id', '=', row.id).execute();
    try {
      const query: ListQuery = { sort: { field: 'id', order: 'ASC' }, start: 0, end: 24, equals: {} };
      expect(await listJson(db, r, query)).toBeUndefined();
      // A record read too: the route then answers it by the row path.
      expect(await findReachableJson(db, registry, r, ALL, 'id', row.id)).toBeUndefined();
      expect((await list(db, r, query)).rows.length).toBeGreaterThan(0);
    } finally {
      await db.updateTable(r.name).set({ [text.name]: before[text.name] }).where('id', '=', row.id).execute();
    }
  });

  it('a value no schema type takes (an object where a scalar goes) is answered whole, by JSON.stringify', async () => {
    const { app, through } = await serialiser();
    const r = registry.resource('users');
    const [name] = answering(r).find(([, read]) => read.kind === 'one')!;
    // The serialiser throws rather than guess; `serialize` falls back to JSON.stringify.
    const row = { id: 'x', email: { nested: [1, 'two'] }, version: 1 };
    expect(JSON.parse(await through(r, name, row))).toEqual(row);
    await app.close();
  });
});
