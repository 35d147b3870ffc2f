/**
 * The WAL is copied into the database by the checkpointing worker (src/server/db/sqlite/checkpointer.ts), not by
 * the commits: under a steady stream of writes that stays under the main connection's own checkpoint
 * (64 MiB), the database file fills as the writes go on.
 */
import { existsSync, mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { connect } from '../../src/server/db/connect.ts';
import { FALLBACK_CHECKPOINT_PAGES, startCheckpointer } from '../../src/server/db/sqlite/checkpointer.ts';

const MiB = 1024 * 1024;

describe('the checkpointing worker', () => {
  it('copies the WAL into the database while writes go on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
    const file = join(dir, 'db.sqlite');
    const database = await connect({ file });
    try {
      const { db } = database;
      await sql`create table blobs (id integer primary key, body blob)`.execute(db);
      const body = Buffer.alloc(4096, 7);
      // 12 MiB in 300 commits, a little apart: under the main connection's own checkpoint, which would
      // otherwise leave the database file as it was.
      expect(FALLBACK_CHECKPOINT_PAGES * 4096).toBeGreaterThan(5 * 12 * MiB);
      for (let commit = 0; commit < 300; commit++) {
        await db.transaction().execute(async (trx) => {
          for (let row = 0; row < 10; row++) await trx.insertInto('blobs').values({ body }).execute();
        });
        if (commit % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(statSync(file).size).toBeGreaterThan(11 * MiB);
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Linux lists a process's open files under /proc/self/fd, the worker thread's among them.
  it.skipIf(!existsSync('/proc/self/fd'))('is stopped by close, after which the database holds every write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
    const file = join(dir, 'db.sqlite');
    // The connections of this process that have the database file open.
    const openOn = (path: string) =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === path;
        } catch {
          return false; // closed meanwhile (readdir's own descriptor)
        }
      }).length;
    // No read pool: its connections would be counted too.
    const database = await connect({ file, readWorkers: 0 });
    const path = realpathSync(file);
    await sql`create table t (id integer primary key)`.execute(database.db);
    await database.db.insertInto('t').values({ id: 1 }).execute();
    // The main connection and the worker's (the commit started it; it opens the file on its own thread).
    await expect.poll(() => openOn(path)).toBe(2);
    await database.close();
    // A worker left running would still hold its connection, and go on checkpointing.
    expect(openOn(path)).toBe(0);
    const again = await connect({ file });
    try {
      expect(await again.db.selectFrom('t').selectAll().execute()).toEqual([{ id: 1 }]);
    } finally {
      await again.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Issue 54: a worker thread is some 9 MiB of the process, so it runs only while there are writes.
  it('starts at the first commit, stops once writes stop, and starts again at the next', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
    const file = join(dir, 'db.sqlite');
    const database = await connect({ file, readWorkers: 0 });
    const checkpointer = startCheckpointer(file, { idleMs: 200 });
    try {
      const { db } = database;
      await sql`create table t (id integer primary key)`.execute(db);
      expect(checkpointer.running).toBe(false);
      checkpointer.wake();
      expect(checkpointer.running).toBe(true);
      await expect.poll(() => checkpointer.running).toBe(false);
      await db.insertInto('t').values({ id: 1 }).execute();
      checkpointer.wake();
      expect(checkpointer.running).toBe(true);
    } finally {
      await checkpointer.stop();
      expect(checkpointer.running).toBe(false);
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
