/**
 * PostgreSQL: reads run alone go down the pipelined connections (pg-pipeline.ts), each answered with
 * its own rows, an error failing that read alone; a transaction's reads and `db.connection()`'s stay on
 * their own connection; a line held up by a slow read is passed over; a lost line's reads are run again
 * elsewhere and the line is replaced. Which connection answered is read off `pg_backend_pid()` and the
 * pipelines' `application_name`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { connect, dropSchema, type Database } from '../../src/server/db/connect.ts';
import { MAX_IN_FLIGHT, parsePipelines, PIPELINE_NAME, STUCK_MS } from '../../src/server/db/postgres/pg-pipeline.ts';

const url = process.env.DATABASE_URL;

describe('PG_PIPELINES', () => {
  it('takes a whole number from 0 to 32, 2 when unset, and refuses anything else by name', () => {
    expect(parsePipelines(undefined)).toBe(2);
    expect(parsePipelines('')).toBe(2);
    expect(parsePipelines('0')).toBe(0);
    expect(parsePipelines('5')).toBe(5);
    for (const bad of ['-1', '1.5', 'two', '33'])
      expect(() => parsePipelines(bad)).toThrow(`PG_PIPELINES must be a whole number from 0 to 32, not '${bad}'`);
  });
});

describe.skipIf(!url?.startsWith('postgres'))('pipelined reads (postgres)', () => {
  const schema = `test_pipeline_${Date.now().toString(36)}`;
  let database: Database;
  let db: Kysely<any>;

  /** The backend that answered a read run alone, and whether it is a pipelined connection. */
  const pidOf = async (on: Kysely<any> = db) => Number((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(on)).rows[0].pid);
  const pipelined = async (pid: number) =>
    (await sql<{ name: string }>`select application_name as name from pg_stat_activity where pid = ${pid}`.execute(db)).rows[0]?.name === PIPELINE_NAME;

  beforeAll(async () => {
    database = await connect({ url, schema, pipelines: 2 });
    db = database.db;
    await db.schema.createTable('things').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('name', 'text').execute();
    await db.insertInto('things').values([{ id: 1, name: 'one' }, { id: 2, name: 'two' }]).execute();
  });
  afterAll(async () => {
    await database?.close();
    if (url) await dropSchema(url, schema);
  });

  it('answers each of many reads of one turn with its own rows, down the pipelined connections in order', async () => {
    const turn = (n: number) =>
      Promise.all(Array.from({ length: n }, (_, v) => sql<{ v: number; pid: number }>`select ${v}::int * 2 as v, pg_backend_pid() as pid`.execute(db)));
    // Filled in order: the first line takes what it has room for (MAX_IN_FLIGHT on the wire), then the next.
    const few = await turn(MAX_IN_FLIGHT);
    expect(few.map((a) => a.rows[0].v)).toEqual(Array.from({ length: MAX_IN_FLIGHT }, (_, v) => v * 2));
    const first = new Set(few.map((a) => a.rows[0].pid));
    expect(first.size).toBe(1);
    expect(await pipelined([...first][0])).toBe(true);
    // More than both lines hold: the rest go to pooled connections, every one still answered with its own row.
    const many = await turn(3 * MAX_IN_FLIGHT);
    expect(many.map((a) => a.rows[0].v)).toEqual(Array.from({ length: 3 * MAX_IN_FLIGHT }, (_, v) => v * 2));
    const byPid = new Map<number, number>();
    for (const a of many) byPid.set(a.rows[0].pid, (byPid.get(a.rows[0].pid) ?? 0) + 1);
    const lines = [];
    for (const [pid, n] of byPid) if (await pipelined(pid)) lines.push(n);
    expect(lines.sort()).toEqual([MAX_IN_FLIGHT, MAX_IN_FLIGHT]);
    // Kysely's own reads go the same way.
    expect(await db.selectFrom('things').select('name').where('id', '=', 2).executeTakeFirst()).toEqual({ name: 'two' });
  });

  it('fails a read that errs alone; the reads beside it and after it answer', async () => {
    const [before, failed, after] = await Promise.allSettled([
      db.selectFrom('things').select('name').where('id', '=', 1).executeTakeFirst(),
      sql`select 1 / (select count(*) - 2 from things) as boom`.execute(db),
      db.selectFrom('things').select('name').where('id', '=', 2).executeTakeFirst(),
    ]);
    expect(before).toEqual({ status: 'fulfilled', value: { name: 'one' } });
    expect(failed.status).toBe('rejected');
    expect(String((failed as PromiseRejectedResult).reason.message)).toMatch(/division by zero/);
    expect(after).toEqual({ status: 'fulfilled', value: { name: 'two' } });
    expect(await db.selectFrom('things').select('id').orderBy('id').execute()).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('keeps its line when a read fails before it is sent (a value node-postgres cannot write); the same text runs again', async () => {
    const line = await pidOf();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const [failed, meanwhile, again] = await Promise.allSettled([
      sql`select ${circular}::text as v`.execute(db),
      pidOf(),
      sql<{ v: string }>`select ${'ok'}::text as v`.execute(db),
    ]);
    expect(String((failed as PromiseRejectedResult).reason?.message)).toMatch(/circular/i);
    expect(meanwhile).toEqual({ status: 'fulfilled', value: line });
    // The same text as the failed read: its statement, closed by node-postgres, is prepared again (pg-statements.ts).
    expect(again.status === 'fulfilled' && again.value.rows).toEqual([{ v: 'ok' }]);
    // The line was not taken out of use (nor another opened, and the first left connected).
    expect(await pidOf()).toBe(line);
  });

  it("keeps a transaction's reads on its own connection: they see its writes, reads run alone do not until it commits", async () => {
    let inside: unknown[] = [];
    let outside: unknown[] = [];
    let transactionPid = 0;
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('things').values({ id: 3, name: 'three' }).execute();
      inside = await trx.selectFrom('things').select('id').where('id', '=', 3).execute();
      transactionPid = await pidOf(trx);
      outside = await db.selectFrom('things').select('id').where('id', '=', 3).execute();
    });
    expect(inside).toEqual([{ id: 3 }]);
    expect(outside).toEqual([]);
    expect(await pipelined(transactionPid)).toBe(false);
    // Committed, and so seen by a read asked after the commit was answered.
    expect(await db.selectFrom('things').select('id').where('id', '=', 3).execute()).toEqual([{ id: 3 }]);
    await db.deleteFrom('things').where('id', '=', 3).execute();
  });

  it("keeps db.connection()'s statements on one session (an advisory lock taken and given back there)", async () => {
    const unlocked = await db.connection().execute(async (c) => {
      await sql`select pg_advisory_lock(4242)`.execute(c);
      const pid = await pidOf(c);
      const held = (await sql<{ pid: number }>`select pid from pg_locks where locktype = 'advisory' and objid = 4242`.execute(db)).rows.map((r) => Number(r.pid));
      expect(held).toEqual([pid]);
      expect(await pipelined(pid)).toBe(false);
      return (await sql<{ ok: boolean }>`select pg_advisory_unlock(4242) as ok`.execute(c)).rows[0].ok;
    });
    expect(unlocked).toBe(true);
  });

  it('passes over a line held up by a slow read: a read asked meanwhile is answered before it', async () => {
    const slowPid = await pidOf();
    const order: string[] = [];
    const slow = sql`select pg_sleep(0.6), pg_backend_pid() as pid`.execute(db).then((r) => {
      order.push('slow');
      return Number((r.rows[0] as { pid: number }).pid);
    });
    await new Promise((done) => setTimeout(done, STUCK_MS * 4));
    const quick = pidOf().then((pid) => {
      order.push('quick');
      return pid;
    });
    const [slowOn, quickOn] = await Promise.all([slow, quick]);
    expect(order).toEqual(['quick', 'slow']);
    expect(slowOn).toBe(slowPid);
    expect(quickOn).not.toBe(slowPid);
  });

  it('with one line, a held-up line sends reads to a pooled connection', async () => {
    const one = await connect({ url, schema, pipelines: 1 });
    try {
      const linePid = await pidOf(one.db);
      expect(await pipelined(linePid)).toBe(true);
      const slow = sql`select pg_sleep(0.6)`.execute(one.db);
      await new Promise((done) => setTimeout(done, STUCK_MS * 4));
      const meanwhile = await pidOf(one.db);
      expect(await pipelined(meanwhile)).toBe(false);
      await slow;
      expect(await pidOf(one.db)).toBe(linePid);
    } finally {
      await one.close();
    }
  });

  it('runs the reads of a lost line again elsewhere, and replaces the line', async () => {
    const lost = await pidOf();
    // Reads on the wire when the backend is ended: each still answers, from another connection.
    const reads = Array.from({ length: 20 }, (_, i) => sql<{ v: number }>`select pg_sleep(0.05), ${i}::int as v`.execute(db));
    await db.transaction().execute((trx) => sql`select pg_terminate_backend(${lost})`.execute(trx));
    expect((await Promise.all(reads)).map((r) => r.rows[0].v)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // The next reads go down a new line.
    let pid = await pidOf();
    for (let tries = 0; pid === lost && tries < 50; tries++) pid = await pidOf();
    expect(pid).not.toBe(lost);
    expect(await pipelined(pid)).toBe(true);
    expect(await db.selectFrom('things').select('name').where('id', '=', 1).executeTakeFirst()).toEqual({ name: 'one' });
  });

  it('closes its lines with the database: none is left connected', async () => {
    const other = await connect({ url, schema, pipelines: 2 });
    const pid = await pidOf(other.db);
    await other.close();
    const left = async () => (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where pid = ${pid}`.execute(db)).rows[0].n;
    // The backend goes once it has read the client's goodbye.
    let n = await left();
    for (let tries = 0; n > 0 && tries < 50; tries++) {
      await new Promise((done) => setTimeout(done, 20));
      n = await left();
    }
    expect(n).toBe(0);
  });
});
