/**
 * Group commit (src/server/db/sqlite/group-commit.ts) on a real SQLite file, watched from a second connection
 * as another process would see it: write transactions that come together share a commit, none returns
 * before its commit, a failed write leaves the others, a failed commit keeps none of its group, and a
 * read never sees a write not yet committed. Reads of one turn share a read transaction, which never
 * holds back a write. Records read one at a time (`readInTurn`) run together once their turn is over.
 */
import SQLite from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { attachTurnReads, GroupCommitSqliteDialect, readInTurn } from '../../src/server/db/sqlite/group-commit.ts';
import { withStatementCache } from '../../src/server/db/sqlite/sqlite-statements.ts';
import { newId } from '../../src/server/db/id.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function open(maxGroup?: number, beforeCommit?: (sqlite: SQLite.Database) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
  const file = join(dir, 'db.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = on');
  sqlite.exec(`create table t (id text primary key, n integer);
    create table parent (id text primary key);
    create table child (id text primary key, parent text references parent(id) deferrable initially deferred);`);
  const dialect = new GroupCommitSqliteDialect(sqlite, withStatementCache(sqlite), { maxGroup, beforeCommit: beforeCommit && (() => beforeCommit(sqlite)) });
  const db = new Kysely<any>({ dialect });
  attachTurnReads(db, dialect.driver);
  // Another connection to the same file: it sees what is committed, nothing else.
  const other = new SQLite(file, { readonly: true });
  const seen = (id: string) => other.prepare('select count(*) as c from t where id = ?').get(id) as { c: number };
  cleanups.push(async () => {
    other.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, sqlite, stats: dialect.driver.stats, seen: (id: string) => seen(id).c === 1, count: () => (other.prepare('select count(*) as c from t').get() as { c: number }).c };
}

const insert = (db: Kysely<any>, id: string, n = 1) =>
  db.transaction().execute(async (trx) => {
    await trx.insertInto('t').values({ id, n }).execute();
    // A write's work goes on across awaits, as a create's does (checks, then the audit entry).
    await new Promise((resolve) => setImmediate(resolve));
    await trx.updateTable('t').set({ n: n + 1 }).where('id', '=', id).execute();
    return id;
  });

describe('group commit (SQLite)', () => {
  it('writes that come together share commits, and none returns before its own is committed', async () => {
    const { db, stats, seen } = open();
    const ids = Array.from({ length: 40 }, () => newId());
    const visibleWhenDone = await Promise.all(ids.map((id) => insert(db, id).then(() => seen(id))));
    expect(visibleWhenDone.every(Boolean)).toBe(true);
    expect(stats.writes).toBe(40);
    expect(stats.commits).toBeLessThan(40 / 4);
  });

  it('a group holds at most maxGroup writes', async () => {
    const { db, stats } = open(4);
    await Promise.all(Array.from({ length: 10 }, () => insert(db, newId())));
    expect(stats.writes).toBe(10);
    expect(stats.commits).toBeGreaterThanOrEqual(3);
  });

  it('a write that fails takes only itself back; the rest of its group is kept', async () => {
    const { db, seen } = open();
    const [a, b, c] = [newId(), newId(), newId()];
    const results = await Promise.allSettled([
      insert(db, a),
      db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ id: b, n: 1 }).execute();
        await trx.insertInto('t').values({ id: a, n: 2 }).execute(); // a's id again: refused
      }),
      insert(db, c),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect([seen(a), seen(b), seen(c)]).toEqual([true, false, true]);
    expect((await db.selectFrom('t').select('n').where('id', '=', a).executeTakeFirst())?.n).toBe(2);
  });

  it('a commit that fails fails every write of its group and keeps none; the next write goes through', async () => {
    const { db, count, seen } = open();
    const plain = newId();
    const orphan = db.transaction().execute(async (trx) => {
      // Checked only when the group commits: a child whose parent is not there.
      await trx.insertInto('child').values({ id: newId(), parent: 'missing' }).execute();
    });
    const results = await Promise.allSettled([insert(db, plain), orphan]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(count()).toBe(0);
    const after = newId();
    await insert(db, after);
    expect(seen(after)).toBe(true);
  });

  it('a read outside a write transaction sees only what is committed: the waiting group commits first', async () => {
    const { db, count } = open();
    // Writes done within the same turn, then a read queued behind them, before the group's own commit
    // (at the next turn) could run.
    const writes = Array.from({ length: 5 }, () => db.transaction().execute((trx) => trx.insertInto('t').values({ id: newId(), n: 1 }).execute()));
    const [{ c }] = (await sql<{ c: number }>`select count(*) as c from t`.execute(db)).rows;
    // The read came after the five writes, and what it saw another connection sees too: committed first.
    expect(c).toBe(5);
    expect(c).toBe(count());
    await Promise.all(writes);
    expect(count()).toBe(5);
  });

  it('reads of one turn share one read transaction, ended when the turn ends', async () => {
    const { db, sqlite, stats } = open();
    await insert(db, newId());
    await new Promise((resolve) => setImmediate(resolve));
    const before = stats.readTransactions;
    const pages = await Promise.all(Array.from({ length: 20 }, () => db.selectFrom('t').selectAll().execute()));
    expect(pages.every((rows) => rows.length === 1)).toBe(true);
    expect(stats.readTransactions).toBe(before + 1);
    expect(sqlite.inTransaction).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sqlite.inTransaction).toBe(false);
    await db.selectFrom('t').selectAll().execute();
    expect(stats.readTransactions).toBe(before + 2);
  });

  it('a write coming while reads share a transaction ends it first: committed when it returns, read back at once', async () => {
    const { db, seen, stats } = open();
    const reads = db.selectFrom('t').selectAll().execute();
    // In the same turn as the read: a write transaction, then a lone write statement, then one that
    // returns rows (a reader to better-sqlite3), each committed (another connection sees it) when it returns.
    const [a, b, c] = [newId(), newId(), newId()];
    const written = db.transaction().execute((trx) => trx.insertInto('t').values({ id: a, n: 1 }).execute());
    await reads;
    await written;
    expect(seen(a)).toBe(true);
    const readsAgain = db.selectFrom('t').selectAll().execute();
    await db.insertInto('t').values({ id: b, n: 1 }).execute();
    expect(seen(b)).toBe(true);
    const opened = stats.readTransactions;
    expect((await db.selectFrom('t').selectAll().execute()).length).toBe(2);
    expect(stats.readTransactions).toBe(opened + 1);
    const returned = await sql<{ id: string }>`insert into t (id, n) values (${c}, 1) returning id`.execute(db);
    expect(returned.rows).toEqual([{ id: c }]);
    expect(seen(c)).toBe(true);
    expect((await readsAgain).length).toBeGreaterThanOrEqual(1);
    expect((await db.selectFrom('t').selectAll().execute()).length).toBe(3);
  });

  it("another connection's commit is read from the next turn on", async () => {
    const { db, sqlite } = open();
    await db.selectFrom('t').selectAll().execute();
    const writer = new SQLite(sqlite.name);
    cleanups.push(() => void writer.close());
    const id = newId();
    writer.prepare('insert into t (id, n) values (?, 1)').run(id);
    await new Promise((resolve) => setImmediate(resolve));
    expect((await db.selectFrom('t').select('id').execute()).map((r) => r.id)).toEqual([id]);
  });

  it('beforeCommit runs inside every transaction that writes, just before its commit: a group\'s and a lone statement\'s', async () => {
    // As the search index's queue does: what the writes of a transaction left is finished before it commits.
    const calls: { inTransaction: boolean; rows: number }[] = [];
    const { db, stats, count } = open(undefined, (sqlite) => {
      calls.push({ inTransaction: sqlite.inTransaction, rows: (sqlite.prepare('select count(*) as c from t').get() as { c: number }).c });
      sqlite.prepare('update t set n = -n where n > 0').run();
    });
    await Promise.all(Array.from({ length: 6 }, () => insert(db, newId(), 1)));
    expect(stats.commits).toBeLessThan(6);
    expect(calls.length).toBe(stats.commits);
    expect(calls.every((c) => c.inTransaction)).toBe(true);
    expect(count()).toBe(6);
    // What it wrote was committed with the writes: another connection sees every n made negative.
    expect((await db.selectFrom('t').select('n').execute()).every((x) => x.n === -2)).toBe(true);
    // A write outside a transaction gets a transaction of its own, so it runs for it too.
    await db.insertInto('t').values({ id: newId(), n: 5 }).execute();
    expect(calls.at(-1)).toEqual({ inTransaction: true, rows: 7 });
    expect((await db.selectFrom('t').select('n').where('n', '=', -5).execute()).length).toBe(1);
  });

  it('a beforeCommit that throws fails the writes it would have committed and keeps none', async () => {
    let fail = true;
    const { db, count, seen } = open(undefined, () => {
      if (fail) throw new Error('index full');
    });
    const results = await Promise.allSettled([insert(db, newId()), insert(db, newId())]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/index full/);
    await expect(db.insertInto('t').values({ id: newId(), n: 1 }).execute()).rejects.toThrow(/index full/);
    expect(count()).toBe(0);
    fail = false;
    const after = newId();
    await insert(db, after);
    expect(seen(after)).toBe(true);
  });
});

describe('reads in turn (SQLite)', () => {
  const byId = (db: Kysely<any>, id: string) => db.selectFrom('t').selectAll().where('id', '=', id).compile();

  it('run together once the turn has taken them in, each answered its own rows; one that fails rejects alone', async () => {
    const { db, stats } = open();
    const ids = Array.from({ length: 20 }, () => newId());
    for (const [n, id] of ids.entries()) await insert(db, id, n);
    await new Promise((resolve) => setImmediate(resolve));
    const [batches, reads] = [stats.turnBatches, stats.turnReads];
    const given = ids.map((id) => readInTurn(db, byId(db, id)));
    const broken = readInTurn(db, db.selectFrom('missing').selectAll().compile());
    // Nothing runs in the turn that gives them.
    expect(stats.turnReads).toBe(reads);
    const rows = await Promise.all(given);
    expect(rows.map((r) => r.map((x) => x.id))).toEqual(ids.map((id) => [id]));
    expect(rows.map((r) => r[0].n)).toEqual(ids.map((_, n) => n + 1));
    await expect(broken).rejects.toThrow(/no such table: missing/);
    expect(stats.turnBatches).toBe(batches + 1);
    expect(stats.turnReads).toBe(reads + 21);
    // The next turn's are a batch of their own.
    expect(await readInTurn(db, byId(db, ids[0]))).toHaveLength(1);
    expect(stats.turnBatches).toBe(batches + 2);
  });

  it('see every write acknowledged before them, and none not yet committed', async () => {
    const { db, seen } = open();
    const done = newId();
    await insert(db, done);
    expect(await readInTurn(db, byId(db, done))).toHaveLength(1);
    // A write in flight: if a read of the same turn finds it, it had been committed (another connection saw it).
    const flying = newId();
    const write = insert(db, flying);
    const found = await readInTurn(db, byId(db, flying));
    if (found.length) expect(seen(flying)).toBe(true);
    await write;
    expect(await readInTurn(db, byId(db, flying))).toHaveLength(1);
  });

  it('inside a transaction read at once, on the transaction, its own writes included', async () => {
    const { db, stats, seen } = open();
    const id = newId();
    const reads = stats.turnReads;
    const inside = await db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ id, n: 7 }).execute();
      return readInTurn(trx, byId(trx, id));
    });
    expect(inside).toEqual([{ id, n: 7 }]);
    expect(stats.turnReads).toBe(reads);
    expect(seen(id)).toBe(true);
  });
});

describe('record ids', () => {
  it('are 24 hex characters, time first, each one new (across many draws of random bytes)', () => {
    const now = Date.UTC(2026, 10, 26, 4, 0, 0);
    const ids = Array.from({ length: 5000 }, () => newId(now));
    expect(ids.every((id) => /^[0-9a-f]{24}$/.test(id) && id.startsWith(Math.floor(now / 1000).toString(16)))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
