/**
 * PostgreSQL: a transaction's `begin` and the writes it does not wait for (`writeBehind`) go with its next
 * statement (postgres/pg-write-behind.ts), and nothing about the transaction's meaning changes: it reads
 * its own writes, a kept write's failure fails the transaction with that write's own error and keeps
 * nothing, a rollback keeps nothing, and a connection goes back to its pool idle. Through the app's own
 * `connect` (the server's pool, as its requests use it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connect, dropSchema, type Database } from '../../src/server/db/connect.ts';
import { writeBehind } from '../../src/server/db/write-behind.ts';

const url = process.env.DATABASE_URL;

describe.skipIf(!url?.startsWith('postgres'))('writes sent behind (postgres)', () => {
  const schema = `test_behind_${Date.now().toString(36)}`;
  let database: Database;
  const db = () => database.db;
  const insert = (id: number, name: string) => db().insertInto('things').values({ id, name }).compile();
  const names = async () => (await db().selectFrom('things').select('name').orderBy('id').execute()).map((r) => r.name);

  beforeAll(async () => {
    // Named after its schema: the check of idle connections below must see this pool's backends only, not
    // those of the other test files sharing the database (one of theirs, in a transaction, failed it in CI).
    database = await connect({ url: `${url}${url!.includes('?') ? '&' : '?'}application_name=${schema}`, schema, pipelines: 0 });
    await db().schema.createTable('things').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('name', 'text', (c) => c.unique()).execute();
  });
  afterAll(async () => {
    await database?.close();
    if (url) await dropSchema(url, schema);
  });

  it('commits kept writes with the transaction, in order, and reads them back inside it', async () => {
    const seen = await db().transaction().execute(async (trx) => {
      await writeBehind(trx, trx.insertInto('things').values({ id: 1, name: 'one' }).compile());
      await writeBehind(trx, trx.insertInto('things').values({ id: 2, name: 'two' }).compile());
      // A read in the transaction is sent after what was kept: it sees both.
      const inside = (await trx.selectFrom('things').select('name').orderBy('id').execute()).map((r) => r.name);
      await writeBehind(trx, trx.updateTable('things').set({ name: 'TWO' }).where('id', '=', 2).compile());
      return inside;
    });
    expect(seen).toEqual(['one', 'two']);
    expect(await names()).toEqual(['one', 'TWO']);
  });

  it("fails the transaction with a kept write's own error, at its commit, and keeps nothing of it", async () => {
    const before = await names();
    const failed = await db()
      .transaction()
      .execute(async (trx) => {
        await writeBehind(trx, trx.insertInto('things').values({ id: 10, name: 'ten' }).compile());
        // Taken: the unique index refuses it when it is sent, with the commit.
        await writeBehind(trx, trx.insertInto('things').values({ id: 11, name: 'one' }).compile());
      })
      .then(() => undefined, (error: { code?: string; constraint?: string }) => error);
    expect(failed?.code).toBe('23505');
    expect(failed?.constraint).toMatch(/name/);
    expect(await names()).toEqual(before);
  });

  it('fails the next read with the kept write\'s error, not with "transaction aborted"', async () => {
    const failed = await db()
      .transaction()
      .execute(async (trx) => {
        await writeBehind(trx, trx.insertInto('things').values({ id: 1, name: 'again' }).compile());
        await trx.selectFrom('things').selectAll().execute();
      })
      .then(() => undefined, (error: { code?: string; constraint?: string }) => error);
    expect(failed?.code).toBe('23505');
    expect(failed?.constraint).toMatch(/pkey/);
  });

  it('keeps nothing of a transaction rolled back, whether its begin was sent or not', async () => {
    const before = await names();
    const thrown = new Error('changed my mind');
    // Nothing but kept writes: the begin never leaves.
    await expect(
      db().transaction().execute(async (trx) => {
        await writeBehind(trx, insert(20, 'twenty'));
        throw thrown;
      }),
    ).rejects.toBe(thrown);
    // A read first: the begin was sent with it, then a kept write is dropped with the rollback.
    await expect(
      db().transaction().execute(async (trx) => {
        await trx.selectFrom('things').selectAll().execute();
        await writeBehind(trx, insert(21, 'twenty-one'));
        throw thrown;
      }),
    ).rejects.toBe(thrown);
    expect(await names()).toEqual(before);
  });

  it('gives every connection back idle: no transaction left open, none carrying another\'s writes', async () => {
    // More transactions than the pool has connections, each with kept writes, some failing.
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        db().transaction().execute(async (trx) => {
          await writeBehind(trx, insert(100 + i, i % 5 === 0 ? 'one' : `n${i}`));
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(8);
    const states = await sql<{ state: string }>`select state from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend' and application_name = ${schema}`.execute(db());
    expect(states.rows.length, "this pool's connections, found by their name").toBeGreaterThan(1);
    expect(states.rows.filter((r) => r.state.startsWith('idle in transaction'))).toEqual([]);
    const written = (await names()).filter((n) => /^n\d+$/.test(n));
    expect(written).toHaveLength(32);
  });

  it('runs a kept write at once outside a transaction', async () => {
    await writeBehind(db(), insert(500, 'alone'));
    expect(await names()).toContain('alone');
  });
});
