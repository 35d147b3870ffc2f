/**
 * SQLite's search index takes a transaction's written rows when it commits (search-pending.ts): inside
 * the transaction they wait in the queue and the index does not hold them; once committed they are
 * indexed (seen so from another connection) and the queue is empty. Inserts, renames and deletes mixed
 * in one group, a write that fails, and a write outside a transaction leave the index equal to one built
 * from the table; a database whose triggers indexed row by row gets the queueing triggers and keeps its
 * index. Real SQLite files, the real migration and driver.
 */
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { registry } from '../../resources/index.ts';
import { listOptions } from '../../src/manifest/index.ts';
import { connect, type Database } from '../../src/server/db/connect.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { newId } from '../../src/server/db/id.ts';
import { ftsPhrase } from '../../src/server/db/search.ts';
import { SEARCH_PENDING, searchTableOf } from '../../src/server/db/sqlite/search-pending.ts';
import { prng } from '../../src/domain/sample.ts';

const r = registry.resource('accountReplacements');
const fields = listOptions(r).search;
const fts = searchTableOf(r.name);
const WORDS = ['glass', 'Steel', 'wool', 'CERAMIC', 'plates', 'Ωmega', "O'Brien", '50% off', 'snake_case'];

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function open(): Promise<{ database: Database; file: string; other: SQLite.Database }> {
  const dir = mkdtempSync(join(tmpdir(), 'search-queue-'));
  const file = join(dir, 'db.sqlite');
  const database = await connect({ file, readWorkers: 0 });
  await migrate(database, registry);
  // Another connection, as a read worker or another process: it sees what is committed, nothing else.
  const other = new SQLite(file, { readonly: true });
  cleanups.push(async () => {
    other.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { database, file, other };
}

const rng = prng(5);
const phrase = () => Array.from({ length: 1 + rng.int(3) }, () => WORDS[rng.int(WORDS.length)]).join(' ');

function row() {
  const at = new Date().toISOString();
  return { id: newId(), createdAt: at, updatedAt: at, role: 'seller', ...Object.fromEntries(fields.map((f) => [f, rng.int(6) ? phrase() : null])) };
}

/** The rowids the index finds for a needle, read on `on` (a connection, or a transaction's). */
const indexed = (on: SQLite.Database, needle: string) =>
  (on.prepare(`select rowid from "${fts}" where "${fts}" match ? order by rowid`).pluck().all(ftsPhrase(needle.toLowerCase())) as number[]);
/** The rowids a plain scan of the table finds. */
const scanned = (on: SQLite.Database, needle: string) =>
  on
    .prepare(`select rowid from "${r.name}" where ${fields.map((f) => `lower("${f}") like ? escape '\\'`).join(' or ')} order by rowid`)
    .pluck()
    .all(...fields.map(() => `%${needle.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`)) as number[];
const queued = (on: SQLite.Database) => (on.prepare(`select count(*) from "${SEARCH_PENDING}"`).pluck().get() as number);

/** The committed index answers every needle as the table does, holds one entry a row, and is sound. */
function expectIndexMatchesTable(other: SQLite.Database) {
  for (const needle of [...WORDS, 'las', 'ste', 'l o', 'zzz']) expect(indexed(other, needle), needle).toEqual(scanned(other, needle));
  expect(other.prepare(`select count(*) from "${fts}_docsize"`).pluck().get()).toBe(other.prepare(`select count(*) from "${r.name}"`).pluck().get());
  expect(queued(other)).toBe(0);
}

describe('the search index takes written rows at commit (SQLite)', () => {
  it('a transaction\'s rows wait in the queue, unindexed, until it commits; then they are indexed and the queue is empty', async () => {
    const { database, other } = await open();
    const first = { ...row(), name: 'Glass Plates' };
    let inside: { queued: number; indexed: number } | undefined;
    await database.db.transaction().execute(async (trx: Kysely<any>) => {
      await trx.insertInto(r.name).values(first).execute();
      const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(SEARCH_PENDING)}`.execute(trx);
      const found = await sql<{ n: number }>`select count(*) as n from ${sql.table(fts)} where ${sql.table(fts)} match ${ftsPhrase('glass plates')}`.execute(trx);
      inside = { queued: rows[0].n, indexed: found.rows[0].n };
    });
    expect(inside).toEqual({ queued: 1, indexed: 0 });
    expect(indexed(other, 'glass plates')).toHaveLength(1);
    expect(queued(other)).toBe(0);
    expectIndexMatchesTable(other);
  });

  it('inserts, renames and deletes mixed in groups, and writes that fail, leave the index equal to the table', async () => {
    const { database, other } = await open();
    const { db } = database;
    const ids: string[] = [];
    await db.insertInto(r.name).values(Array.from({ length: 40 }, () => row())).execute();
    ids.push(...((await db.selectFrom(r.name).select('id').execute()).map((x) => x.id as string)));
    const fails = new Error('refused on purpose');
    for (let round = 0; round < 6; round++) {
      const writes = Array.from({ length: 12 }, (_, i) =>
        db.transaction().execute(async (trx: Kysely<any>) => {
          const kind = (round + i) % 6;
          const fresh = row();
          if (kind === 0) await trx.insertInto(r.name).values(fresh).execute();
          if (kind === 1) {
            // Inserted and renamed before the commit: indexed once, as renamed.
            await trx.insertInto(r.name).values(fresh).execute();
            await trx.updateTable(r.name).set({ [fields[0]]: phrase() }).where('id', '=', fresh.id).execute();
          }
          // Inserted and deleted before the commit: never indexed.
          if (kind === 2) {
            await trx.insertInto(r.name).values(fresh).execute();
            await trx.deleteFrom(r.name).where('id', '=', fresh.id).execute();
          }
          if (kind === 3) await trx.updateTable(r.name).set({ [fields[rng.int(fields.length)]]: phrase() }).where('id', '=', ids[rng.int(ids.length)]).execute();
          if (kind === 4) await trx.deleteFrom(r.name).where('id', '=', ids.splice(rng.int(ids.length), 1)[0]).execute();
          if (kind === 5) {
            // Fails after writing: its row and its place in the queue go back with it.
            await trx.insertInto(r.name).values(fresh).execute();
            throw fails;
          }
          if (kind === 0 || kind === 1) ids.push(fresh.id);
        }),
      );
      const results = await Promise.allSettled(writes);
      expect(results.filter((x) => x.status === 'rejected').every((x) => (x as PromiseRejectedResult).reason === fails)).toBe(true);
      expectIndexMatchesTable(other);
    }
    // FTS5's own check of its structure: throws if the index is corrupt.
    await sql.raw(`insert into "${fts}"("${fts}") values ('integrity-check')`).execute(db);
  });

  it('a write outside a transaction is indexed as it commits', async () => {
    const { database, other } = await open();
    const one = { ...row(), name: 'Tropical Wool' };
    await database.db.insertInto(r.name).values(one).execute();
    expect(indexed(other, 'tropical wool')).toHaveLength(1);
    await database.db.updateTable(r.name).set({ name: 'Rustic Steel' }).where('id', '=', one.id).execute();
    expect([indexed(other, 'tropical wool'), indexed(other, 'rustic steel')].map((x) => x.length)).toEqual([0, 1]);
    await database.db.deleteFrom(r.name).where('id', '=', one.id).execute();
    expect(indexed(other, 'rustic steel')).toHaveLength(0);
    expectIndexMatchesTable(other);
  });

  it('a database whose triggers indexed row by row gets the queueing triggers and keeps its index', async () => {
    const { database, other } = await open();
    const { db } = database;
    await db.insertInto(r.name).values(Array.from({ length: 30 }, () => row())).execute();
    // As the triggers were before the queue: each statement writes the index itself.
    const q = (s: string) => `"${s}"`;
    const columns = fields.map(q).join(', ');
    const lowered = (x: string) => fields.map((f) => `lower(${x}.${q(f)})`).join(', ');
    await sql.raw(`DROP TRIGGER ${q(`${fts}_insert`)}`).execute(db);
    await sql.raw(`CREATE TRIGGER ${q(`${fts}_insert`)} AFTER INSERT ON ${q(r.name)} BEGIN INSERT INTO ${q(fts)}(rowid, ${columns}) VALUES (new.rowid, ${lowered('new')}); END`).execute(db);
    await db.insertInto(r.name).values(Array.from({ length: 5 }, () => row())).execute();
    const segments = other.prepare(`select count(*) from "${fts}_data"`).pluck().get();
    await migrate(database, registry);
    const triggers = other.prepare(`select sql from sqlite_master where type = 'trigger' and tbl_name = ?`).pluck().all(r.name) as string[];
    // Insert and update queue the row; none writes the index's rows itself (a delete only removes one).
    expect(triggers.filter((t) => t.includes(SEARCH_PENDING))).toHaveLength(2);
    expect(triggers.filter((t) => t.includes(`INSERT INTO "${fts}"`))).toEqual([]);
    // Kept, not rebuilt.
    expect(other.prepare(`select count(*) from "${fts}_data"`).pluck().get()).toBe(segments);
    await db.insertInto(r.name).values(Array.from({ length: 5 }, () => row())).execute();
    expectIndexMatchesTable(other);
  });
});
