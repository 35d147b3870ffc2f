/**
 * SQLite list pages read by worker threads (src/server/db/sqlite/read-pool.ts): a list's page is read by a
 * worker, holds every write answered before it was asked (however many come together), comes back
 * whole when a worker dies mid-query (read again on the main connection, the next one by a new worker),
 * and SQLite's own errors come back as SQLite's. `READ_WORKERS` is checked like every setting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch, productBody, type Branch } from './fixtures/catalogue.ts';
import { connect } from '../../src/server/db/connect.ts';
import { parseReadWorkers, readPoolOf, readRows, ReadPool, ReadPoolUnavailable, MAX_READ_WORKERS } from '../../src/server/db/sqlite/read-pool.ts';

const totalOf = (headers: Headers) => Number(headers.get('content-range')?.split('/')[1]);
/** A query that keeps a worker busy for a while (counting to three million). */
const SLOW = 'with recursive c(x) as (select 1 union all select x + 1 from c where x < 3000000) select count(*) as n from c';

describe('READ_WORKERS', () => {
  it('defaults to one a CPU, at most 4, and none on a single CPU', () => {
    expect(parseReadWorkers(undefined, 1)).toBe(0);
    expect(parseReadWorkers('', 2)).toBe(2);
    expect(parseReadWorkers('', 3)).toBe(3);
    expect(parseReadWorkers(' ', 8)).toBe(4);
    expect(parseReadWorkers('0', 8)).toBe(0);
    expect(parseReadWorkers('3', 1)).toBe(3);
  });
  it.each(['x', '-1', '1.5', String(MAX_READ_WORKERS + 1)])("refuses '%s' with a message", (value) => {
    expect(() => parseReadWorkers(value)).toThrow(`READ_WORKERS must be a whole number from 0 to ${MAX_READ_WORKERS}, not '${value}'`);
  });
  it('a memory database has no pool (no other connection can read it); READ_WORKERS=0 none either', async () => {
    const memory = await connect({ file: ':memory:', readWorkers: 2 });
    expect(readPoolOf(memory.db)).toBeUndefined();
    await memory.close();
    const dir = mkdtempSync(join(tmpdir(), 'read-pool-'));
    const off = await connect({ file: join(dir, 'a.sqlite'), readWorkers: 0 });
    expect(readPoolOf(off.db)).toBeUndefined();
    await off.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('list pages read by worker threads (SQLite file)', () => {
  let server: TestServer;
  let admin: string;
  let branch: Branch;
  /** Products are a seller's to create. */
  let seller: string;
  const word = `wombat${randomBytes(3).toString('hex')}`;
  let n = 0;

  beforeAll(async () => {
    server = await startTestServer({ app: { readCacheBytes: 0 } });
    admin = await server.login('admin');
    branch = await makeBranch(server, admin);
    seller = (await account(server, 'seller', (await account(server, 'dealer')).id)).cookie;
  });
  afterAll(() => server?.close());

  const create = (name: string) => server.api('POST', '/products', { cookie: seller, body: productBody(branch, { name }) });
  const pool = () => readPoolOf(server.db)!;
  const page = (filter: Record<string, unknown> = {}) =>
    server.api('GET', '/products', { cookie: admin, query: { filter, sort: ['name', 'ASC'], range: [0, 99], _: ++n } });

  it('a page is read by a worker, the same rows in the same order as the main connection reads them', async () => {
    expect(pool()).toBeDefined();
    for (const name of ['Zinc bowl', 'Ash chair', 'Maple desk']) expect((await create(name)).status).toBe(201);
    const before = pool().served;
    const res = await page();
    expect(res.status).toBe(200);
    expect(pool().served).toBe(before + 1);
    expect(pool().threads.length).toBeGreaterThan(0);
    const main = await server.db.selectFrom('products').select('id').orderBy('name').orderBy('id').limit(100).execute();
    expect(main.length).toBeGreaterThanOrEqual(3);
    expect(res.body.map((p: { id: string }) => p.id)).toEqual(main.map((p) => p.id));
  });

  it('every write answered before a page is asked is on it, writes and reads coming together', async () => {
    const created: string[] = [];
    for (let round = 0; round < 8; round++) {
      // Five creates at once (one group commit), pages asked while they run, then a page after them.
      const writes = Array.from({ length: 5 }, (_, i) => create(`Lamp ${word} ${round}-${i}`));
      const during = Array.from({ length: 5 }, () => page({ q: word }));
      for (const res of await Promise.all(writes)) {
        expect(res.status).toBe(201);
        created.push(res.body.id);
      }
      for (const res of await Promise.all(during)) expect(res.status).toBe(200);
      const after = await page({ q: word });
      expect(after.status).toBe(200);
      expect(totalOf(after.headers)).toBe(created.length);
      expect(after.body.map((p: { id: string }) => p.id).sort()).toEqual([...created].sort());
    }
  });

  it('queries asked in one turn go to each worker in one message and come back each with its own answer or error', async () => {
    await page(); // the worker is running (a batch to a worker starting would be the same, only later)
    const names = ['Zinc bowl', 'Ash chair', 'Maple desk'];
    const byName = (name: string) => server.db.selectFrom('products').select(['id', 'name']).where('name', '=', name).orderBy('id');
    const sentBefore = pool().sent;
    const servedBefore = pool().served;
    const asked = [
      ...names.map((name) => pool().all(byName(name).compile())),
      pool().all(sql`select * from no_such_table`.compile(server.db)).then(
        () => 'answered',
        (error: Error) => error.message,
      ),
      // The same statement twice in one batch: the second goes by the number the first was given.
      pool().all(byName(names[0]).compile()),
      pool().all(sql`select count(*) as n from products`.compile(server.db)),
    ];
    const answers = await Promise.all(asked);
    // Each query goes to the least busy worker, so the six are shared among the workers (two on 2 CPUs):
    // one message to each, never one a query.
    expect(pool().threads.length).toBeGreaterThan(0);
    expect(pool().sent).toBe(sentBefore + Math.min(pool().threads.length, asked.length));
    expect(pool().served).toBe(servedBefore + asked.length);
    for (const [i, name] of names.entries()) expect(answers[i]).toEqual(await byName(name).execute());
    expect(answers[3]).toBe('no such table: no_such_table');
    expect(answers[4]).toEqual(answers[0]);
    const n = Number((await server.db.selectFrom('products').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(answers[5]).toEqual([{ n }]);
    // Pages asked together through the API: each answers its own filter.
    const pages = await Promise.all(names.map((name) => page({ q: name })));
    for (const [i, res] of pages.entries()) {
      expect(res.status).toBe(200);
      expect(res.body.map((p: { name: string }) => p.name)).toContain(names[i]);
      expect(res.body.every((p: { name: string }) => p.name.toLowerCase().includes(names[i].toLowerCase()))).toBe(true);
    }
  });

  it('a worker that dies mid-query: that read is answered by the main connection, the next by a new worker', async () => {
    const query = sql<{ n: number }>`${sql.raw(SLOW)}`;
    const slow = pool().all(query.compile(server.db));
    // Give the worker the query, then end it.
    await new Promise((done) => setTimeout(done, 30));
    const [worker] = pool().threads;
    await worker.terminate();
    await expect(slow).rejects.toBeInstanceOf(ReadPoolUnavailable);
    // readRows reads it again on the main connection when the worker cannot answer.
    const rows = readRows(server.db, { compile: () => query.compile(server.db), execute: async () => (await query.execute(server.db)).rows });
    setTimeout(() => void pool().threads.forEach((w) => void w.terminate()), 30);
    expect(await rows).toEqual([{ n: 3_000_000 }]);
    const before = pool().served;
    const res = await page();
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    expect(pool().served).toBe(before + 1);
    expect(pool().threads.length).toBeGreaterThan(0);
  });

  it("SQLite's errors come back as SQLite's; a statement that writes is refused and changes nothing", async () => {
    // Twice: a statement the worker could not prepare is sent whole again (it keeps statements by number).
    for (let i = 0; i < 2; i++)
      await expect(pool().all(sql`select * from no_such_table`.compile(server.db))).rejects.toMatchObject({
        message: 'no such table: no_such_table',
        code: 'SQLITE_ERROR',
      });
    const count = async () => Number((await server.db.selectFrom('products').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    await expect(pool().all(sql`delete from products`.compile(server.db))).rejects.toThrow(/only statements that return rows|readonly/);
    expect(await count()).toBe(before);
  });

  it('workers that keep dying before answering (no file to open) are started 3 times, then no more', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'read-pool-'));
    const broken = new ReadPool(join(dir, 'absent.sqlite'), 1);
    const query = sql`select 1 as one`.compile(server.db);
    for (let i = 0; i < 3; i++) await expect(broken.all(query)).rejects.toBeInstanceOf(ReadPoolUnavailable);
    await expect(broken.all(query)).rejects.toThrow('The read worker is unavailable: its workers failed to start');
    expect(broken.threads.length).toBe(0);
    await broken.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('closing the database ends every worker; the pool then refuses', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'read-pool-'));
    const database = await connect({ file: join(dir, 'b.sqlite'), readWorkers: 2 });
    const own = readPoolOf(database.db)!;
    await own.all(sql`select 1 as one`.compile(database.db));
    const threads = [...own.threads];
    expect(threads.length).toBe(1);
    const exited = threads.map((w) => new Promise((done) => w.once('exit', done)));
    await database.close();
    await Promise.all(exited);
    expect(own.threads.length).toBe(0);
    await expect(own.all(sql`select 1 as one`.compile(database.db))).rejects.toBeInstanceOf(ReadPoolUnavailable);
    rmSync(dir, { recursive: true, force: true });
  });
});
