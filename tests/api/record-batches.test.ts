/**
 * PostgreSQL: records read one at a time (a get-one), asked for in one turn, are read in one statement
 * (record-batches.ts). Checked against a real PostgreSQL: through the server, many get-ones at once are
 * each answered with their own record and ETag, as when asked one by one, and fewer statements run than
 * records were asked; beside it, a value the column refuses fails alone, a value the column writes
 * otherwise (a decimal's scale) is still found, a missing one is none, and a transaction reads alone.
 */
import { connect as connectSocket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { connect, dropSchema, type Database } from '../../src/server/db/connect.ts';
import { batchesRecords, parseBatchRecords, recordBatchStats, recordInTurn } from '../../src/server/db/postgres/record-batches.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { API_BASE } from '../../src/manifest/index.ts';

/** GETs `paths` in one write down one connection (HTTP/1.1 pipelining) and reads the answers, in order. */
async function pipelined(base: string, paths: string[], cookie: string) {
  const { hostname, port } = new URL(base);
  const socket = connectSocket(Number(port), hostname);
  const head = (path: string) => `GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nCookie: ${cookie}\r\nAccept: application/json\r\n\r\n`;
  socket.write(paths.map(head).join(''));
  let data = Buffer.alloc(0);
  const answers: { status: number; headers: Record<string, string>; body: any }[] = [];
  for await (const chunk of socket) {
    data = Buffer.concat([data, chunk as Buffer]);
    for (;;) {
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) break;
      const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const length = Number(headers['content-length']);
      if (data.length < end + 4 + length) break;
      const body = data.subarray(end + 4, end + 4 + length).toString('utf8');
      answers.push({ status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) });
      data = data.subarray(end + 4 + length);
    }
    if (answers.length === paths.length) break;
  }
  socket.destroy();
  return answers;
}

const url = process.env.DATABASE_URL;

describe('PG_BATCH_RECORDS', () => {
  it('is on unless 0, and refuses anything but 0 or 1 by name', () => {
    expect([undefined, '', '1'].map(parseBatchRecords)).toEqual([true, true, true]);
    expect(parseBatchRecords('0')).toBe(false);
    for (const bad of ['yes', 'off', '2']) expect(() => parseBatchRecords(bad)).toThrow(`PG_BATCH_RECORDS must be 0 or 1, not '${bad}'`);
  });
});

describe.skipIf(!url?.startsWith('postgres'))('records read in batches (postgres)', () => {
  describe('through the server', () => {
    let server: TestServer;
    let admin: string;
    beforeAll(async () => {
      // No read cache: every get-one is answered by the database, as under the cold bench.
      server = await startTestServer({ engine: 'postgres', catalogue: true, app: { readCacheBytes: 0 } });
      admin = await server.login('admin');
    });
    afterAll(async () => server?.close());

    it('answers many get-ones at once each with its own record and ETag, in fewer statements than records', async () => {
      const page = await server.api('GET', '/products', { cookie: admin, query: { range: [0, 29] } });
      expect(page.status).toBe(200);
      const ids: string[] = page.body.map((p: { id: string }) => p.id);
      expect(ids.length).toBeGreaterThanOrEqual(10);
      // One at a time first: what each answer must be.
      const alone = new Map<string, { body: unknown; etag: string | null }>();
      for (const id of ids) {
        const one = await server.api('GET', `/products/${id}`, { cookie: admin });
        expect(one.status).toBe(200);
        alone.set(id, { body: one.body, etag: one.headers.get('etag') });
      }
      // Then all at once, twice over (one value asked twice in a turn), with ids that do not exist: sent in
      // one write down one connection (HTTP pipelining), so the server takes them in within one turn.
      const asked = [...ids, ...ids, 'no-such-product', '999999999999'];
      const before = { ...recordBatchStats };
      const answers = await pipelined(server.url, asked.map((id) => `${API_BASE}/products/${id}`), admin);
      answers.forEach((answer, i) => {
        const expected = alone.get(asked[i]);
        if (!expected) {
          expect(answer.status).toBe(404);
          expect(answer.body.message).toBe('Product not found.');
          return;
        }
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual(expected.body);
        expect(answer.headers.etag).toBe(expected.etag);
      });
      const statements = recordBatchStats.statements - before.statements;
      const values = recordBatchStats.values - before.values;
      expect(statements).toBeGreaterThan(0);
      expect(values).toBeGreaterThan(statements);
    });

    it('answers each record as it is after a write committed before the reads', async () => {
      const page = await server.api('GET', '/products', { cookie: admin, query: { range: [0, 1] } });
      const [a, b] = page.body as { id: string; name: string }[];
      await sql`update "products" set "name" = ${`${a.name} (renamed)`} where "id" = ${a.id}`.execute(server.db);
      const [first, second] = await pipelined(server.url, [a.id, b.id].map((id) => `${API_BASE}/products/${id}`), admin);
      expect(first.body.name).toBe(`${a.name} (renamed)`);
      expect(second.body.name).toBe(b.name);
    });
  });

  describe('beside the server', () => {
    const schema = `test_batches_${Date.now().toString(36)}`;
    let database: Database;
    let db: Kysely<any>;
    const asJson = sql<string>`(select row_to_json(r) from (select "things"."id", "things"."code", "things"."name") r)::text`;
    const read = (field: string, value: unknown, on: Kysely<any> = db) => recordInTurn(on, 'things', field, value, asJson);
    const nameOf = (row: Record<string, unknown> | undefined) => (row ? JSON.parse(row.record as string).name : undefined);

    beforeAll(async () => {
      database = await connect({ url, schema });
      db = database.db;
      await db.schema
        .createTable('things')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('code', sql`numeric(6,2)`, (c) => c.unique())
        .addColumn('name', 'text')
        .addColumn('version', 'integer')
        .execute();
      await db.insertInto('things').values([1, 2, 3].map((id) => ({ id, code: `${id}.5`, name: `thing ${id}`, version: id }))).execute();
    });
    afterAll(async () => {
      await database?.close();
      if (url) await dropSchema(url, schema);
    });

    it('reads the values of one turn in one statement, each read answered with its own row or none', async () => {
      const before = { ...recordBatchStats };
      const rows = await Promise.all([read('id', 1), read('id', 3), read('id', 2), read('id', 1), read('id', 42)]);
      expect(rows.map(nameOf)).toEqual(['thing 1', 'thing 3', 'thing 2', 'thing 1', undefined]);
      expect(rows[1]?.version).toBe(3);
      expect(recordBatchStats.statements - before.statements).toBe(1);
      expect(recordBatchStats.values - before.values).toBe(4);
    });

    it('fails a value the column refuses alone; the others of its turn are answered', async () => {
      const [one, bad, two] = await Promise.allSettled([read('id', 1), read('id', 'not a number'), read('id', 2)]);
      expect(one.status === 'fulfilled' && nameOf(one.value)).toBe('thing 1');
      expect(bad.status).toBe('rejected');
      expect(String((bad as PromiseRejectedResult).reason.message)).toMatch(/invalid input syntax for type integer/);
      expect(two.status === 'fulfilled' && nameOf(two.value)).toBe('thing 2');
    });

    it('finds a value the column writes otherwise (a decimal asked without its scale)', async () => {
      const rows = await Promise.all([read('code', '1.5'), read('code', '2.50'), read('code', '9.5')]);
      expect(rows.map(nameOf)).toEqual(['thing 1', 'thing 2', undefined]);
    });

    it('leaves a transaction its own reads: only the database itself batches', async () => {
      expect(batchesRecords(db)).toBe(true);
      await db.transaction().execute(async (trx) => {
        expect(batchesRecords(trx)).toBe(false);
      });
    });
  });
});
