/**
 * A write that fails with a database error the code did not foresee (here a trigger's `RAISE`, as a
 * constraint added by hand or a full disk would) must not leave the SQLite file write-locked: another
 * process (the `sqlite3` shell, a backup, a migration) must be able to write the moment the answer is
 * out, not only after the server's next request (issue 50, part 3). SQLite only: PostgreSQL takes row
 * locks per transaction and ends a failed one as Kysely rolls it back.
 */
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

describe('a write failing with a database error (sqlite)', () => {
  let server: TestServer;
  let admin: string;
  let outside: SQLite.Database;
  beforeAll(async () => {
    server = await startTestServer({ engine: 'sqlite' });
    admin = await server.login('admin');
    const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(server.db);
    // A second connection, as another process would hold: it waits for no lock (busy timeout 0).
    outside = new SQLite(rows.find((row) => row.name === 'main')!.file, { timeout: 0 });
  });
  afterAll(async () => {
    outside?.close();
    await server?.close();
  });

  /** Takes the write lock from outside and gives it back: throws "database is locked" if the server holds it. */
  const writeFromOutside = () => {
    outside.exec('begin immediate');
    outside.exec('rollback');
  };

  it('rolls back and releases the write lock at once, and the server goes on', async () => {
    const first = await server.api('POST', '/categories', { cookie: admin, body: { name: 'Before' } });
    expect(first.status).toBe(201);
    const table = (outside.prepare(`select name from sqlite_master where type = 'table' and name like '%categor%' order by length(name)`).get() as { name: string }).name;
    outside.exec(`create trigger refuse_boom before insert on "${table}" when new.name = 'Boom' begin select raise(abort, 'boom'); end`);

    const failed = await server.api('POST', '/categories', { cookie: admin, body: { name: 'Boom' } });
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(() => writeFromOutside()).not.toThrow();
    expect(outside.prepare(`select count(*) as c from "${table}" where name = 'Boom'`).get()).toEqual({ c: 0 });

    // Several at once take the group-commit path together: the failed ones roll back, the others commit.
    const burst = await Promise.all(
      ['Boom', 'Fine 1', 'Boom', 'Fine 2'].map((name) => server.api('POST', '/categories', { cookie: admin, body: { name } })),
    );
    expect(burst.map((res) => res.status >= 400)).toEqual([true, false, true, false]);
    expect(() => writeFromOutside()).not.toThrow();

    outside.exec('drop trigger refuse_boom');
    const after = await server.api('POST', '/categories', { cookie: admin, body: { name: 'After' } });
    expect(after.status).toBe(201);
    const names = outside.prepare(`select name from "${table}" order by name`).all() as { name: string }[];
    expect(names.map((row) => row.name)).toEqual(['After', 'Before', 'Fine 1', 'Fine 2']);
  });
});
