/**
 * PostgreSQL, issue 54 (creates ahead of the fastest peer): a transaction's reads made before it has written
 * go down the read lines with the other reads of their turn (`readAhead`), and a transaction of which nothing
 * was sent before its commit goes whole down a write line (postgres/pg-pipeline.ts `transaction`), in one
 * write with the others of its turn. What must not change: a transaction reads its own writes, a failure is
 * the transaction's own error and keeps nothing of it, a line goes on after a failed transaction, and a
 * transaction that would wait for a lock on a line is run on its own connection instead, so the
 * transactions behind it on the line are not held up. Through the app's own `connect`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { connect, dropSchema, type Database } from '../../src/server/db/connect.ts';
import { readAhead, writeBehind } from '../../src/server/db/write-behind.ts';
import { PIPELINE_NAME, WRITE_PIPELINE_NAME } from '../../src/server/db/postgres/pg-pipeline.ts';

const url = process.env.DATABASE_URL;

describe.skipIf(!url?.startsWith('postgres'))('reads ahead and whole transactions (postgres)', () => {
  const schema = `test_whole_${Date.now().toString(36)}`;
  /** The pool's connections are named after the schema; the lines by their own names. */
  const poolName = schema;
  let database: Database;
  let db: Kysely<any>;
  /** An insert that writes down the name of the session that ran it (`application_name`). */
  const insert = (trx: Kysely<any>, id: number, name: string) =>
    trx.insertInto('things').values({ id, name, session: sql`current_setting('application_name')` }).compile();
  const sessionOf = async (id: number) => (await db.selectFrom('things').select('session').where('id', '=', id).executeTakeFirst())?.session as string | undefined;
  const sessionReading = (trx: Kysely<any>) => readAhead(trx, sql<{ name: string }>`select current_setting('application_name') as name`.compile(trx));

  beforeAll(async () => {
    database = await connect({ url: `${url}${url!.includes('?') ? '&' : '?'}application_name=${poolName}`, schema, pipelines: 2 });
    db = database.db;
    await db.schema
      .createTable('things')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.unique())
      .addColumn('session', 'text')
      .execute();
  });
  afterAll(async () => {
    await database?.close();
    if (url) await dropSchema(url, schema);
  });

  it("reads ahead on a read line until the transaction writes; then in the transaction, seeing its writes", async () => {
    const seen = await db.transaction().execute(async (trx) => {
      const before = (await sessionReading(trx)).rows[0].name;
      await writeBehind(trx, insert(trx, 1, 'one'));
      const after = (await sessionReading(trx)).rows[0].name;
      const mine = (await readAhead(trx, trx.selectFrom('things').select('name').where('id', '=', 1).compile())).rows;
      return { before, after, mine };
    });
    expect(seen.before).toBe(PIPELINE_NAME);
    expect(seen.after).toBe(poolName);
    expect(seen.mine).toEqual([{ name: 'one' }]);
    // Its begin was sent with the read that followed the write, on its own connection: the row is the pool's.
    expect(await sessionOf(1)).toBe(poolName);
  });

  it('sends a transaction of kept writes whole down a write line, and commits it', async () => {
    await db.transaction().execute(async (trx) => {
      // A read first does not keep it off the line: it went ahead, nothing was sent on the connection.
      await sessionReading(trx);
      await writeBehind(trx, insert(trx, 2, 'two'));
      await writeBehind(trx, trx.updateTable('things').set({ name: 'TWO' }).where('id', '=', 2).compile());
    });
    expect(await sessionOf(2)).toBe(WRITE_PIPELINE_NAME);
    expect((await db.selectFrom('things').select('name').where('id', '=', 2).executeTakeFirst())?.name).toBe('TWO');
  });

  it("fails with the statement's own error and keeps nothing; the transactions beside it on the line commit", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        db.transaction().execute(async (trx) => {
          await writeBehind(trx, insert(trx, 100 + i, `n${i}`));
          // Every third takes a name already held: the unique index refuses it.
          await writeBehind(trx, insert(trx, 200 + i, i % 3 === 0 ? 'one' : `m${i}`));
        }),
      ),
    );
    const failed = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as { code?: string }] : []));
    expect(failed.map((e) => e.code)).toEqual(['23505', '23505', '23505', '23505']);
    const kept = (await db.selectFrom('things').select('id').where('id', '>=', 100).orderBy('id').execute()).map((r) => r.id);
    const expected = Array.from({ length: 12 }, (_, i) => i).filter((i) => i % 3 !== 0);
    expect(kept).toEqual([...expected.map((i) => 100 + i), ...expected.map((i) => 200 + i)]);
    expect(await sessionOf(101)).toBe(WRITE_PIPELINE_NAME);
  });

  it('takes a transaction that waits for a lock off the line: it runs on its own connection, the ones after it do not wait', async () => {
    // Another session writes 'held' and does not commit yet: an insert of the same name must wait for it.
    const holder = await db.connection().execute(async (connection) => {
      await sql`begin`.execute(connection);
      await sql`insert into things (id, name, session) values (300, 'held', 'holder')`.execute(connection);
      const waiting = db.transaction().execute(async (trx) => writeBehind(trx, insert(trx, 301, 'held')));
      // Sent after it, down the same lines: answered while the first still waits.
      await db.transaction().execute(async (trx) => writeBehind(trx, insert(trx, 302, 'free')));
      const settledEarly = await Promise.race([waiting.then(() => 'settled', () => 'settled'), new Promise((r) => setTimeout(() => r('waiting'), 200))]);
      await sql`rollback`.execute(connection);
      await waiting;
      return settledEarly;
    });
    expect(holder).toBe('waiting');
    expect(await sessionOf(302)).toBe(WRITE_PIPELINE_NAME);
    // Run again, whole, on a pooled connection once the line's lock_timeout gave it up.
    expect(await sessionOf(301)).toBe(poolName);
  });

  it("gives the pool's connections back idle (the lines are shared by other files' servers: not looked at)", async () => {
    const states = await sql<{ state: string }>`select state from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend' and application_name = ${poolName}`.execute(db);
    expect(states.rows.length).toBeGreaterThan(0);
    expect(states.rows.filter((r) => r.state.startsWith('idle in transaction'))).toEqual([]);
  });
});
