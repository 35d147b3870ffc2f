/**
 * `npm run bench -- --index-cost [--pg] [--rows 20000] [--inserts 400]`: what each index of a table costs
 * a create (issue 54: "every write pays for every index"). On a fresh database seeded with `--rows`
 * products (and their parents), products are inserted one statement at a time, as a create inserts its
 * row (its triggers too: the kept record, the search index), in turns:
 * - with the indexes the lists' query shapes need (tables.ts `indexesOf`): what a create pays now;
 * - with each of those dropped in turn: that index's own cost is the difference;
 * - with no list index at all (the unique ones stay): the floor;
 * - with every filter paired with every sort besides (what `indexesOf` made before issue 54).
 * Each figure is the median of `--trials` turns of `--inserts` rows (a transaction each), in microseconds of
 * CPU a row (`cpuClock`); the rows a turn inserted are deleted after it, outside the clock. Written into results.json under "indexCost".
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { isSqlite } from '../../src/server/db/count.ts';
import { registry } from '../../resources/index.ts';
import { listOptions, type ResourceDef } from '../../src/manifest/index.ts';
import { connect, dropSchema, type Database } from '../../src/server/db/connect.ts';
import { createIndex, indexesOf, type IndexDef } from '../../src/server/db/tables.ts';
import { keepEngineResult, load, machine } from './engine-results.ts';
import { seed } from './seed.ts';

export interface IndexCostOptions {
  pg: boolean;
  rows: number;
  inserts: number;
  trials: number;
  out: string;
  log?: (line: string) => void;
}

/**
 * The indexes every filter × every sort made before issue 54, beyond those `indexesOf` makes now: a
 * filter's index under each sort. Kept here only to measure what they cost a create.
 */
function everyPairing(r: ResourceDef, engine: Database['engine']): IndexDef[] {
  const now = new Set(indexesOf(r, engine).map((i) => i.name));
  const { sorts, filters, search } = listOptions(r);
  const numeric = new Set(r.fields.filter((f) => f.sortAs === 'number' && f.storage === 'text').map((f) => f.name));
  const lowered = new Set(engine === 'postgres' ? search : []);
  const out: IndexDef[] = [];
  for (const filter of filters)
    for (const sort of ['id', ...sorts.filter((s) => s !== 'id' && s !== filter)]) {
      const columns = sort === 'id' ? [filter, 'id'] : [filter, sort, 'id'];
      const byValue = numeric.has(sort) ? [sort] : [];
      const lower = lowered.has(sort) ? [sort] : [];
      const name = `${r.name}_${[...columns.map((c) => (byValue.includes(c) ? `${c}AsNumber` : c)), ...lower.map((c) => `${c}Lower`)].join('_')}_idx`;
      if (!now.has(name)) out.push({ name, columns, unique: false, ...(byValue.length ? { numeric: byValue } : {}), ...(lower.length ? { lowered: lower } : {}) });
    }
  return out;
}

/**
 * The CPU time, µs, of whatever runs the inserts: PostgreSQL's backend process of the transaction's
 * connection (its scheduler's run time, /proc/<pid>/schedstat, nanoseconds), or this process where
 * SQLite runs in it. CPU time, not the clock: the index work is tens of microseconds an insert, less
 * than the clock moves on a shared machine.
 */
async function cpuClock(trx: Kysely<any>): Promise<() => Promise<number>> {
  if (isSqlite(trx)) return async () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
  const file = `/proc/${rows[0].pid}/schedstat`;
  return async () => Number(readFileSync(file, 'utf8').split(' ')[0]) / 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchIndexCost({ pg, rows, inserts, trials, out, log = console.log }: IndexCostOptions): Promise<number> {
  const engine = pg ? 'postgres' : 'sqlite';
  if (pg && !process.env.DATABASE_URL?.startsWith('postgres')) throw new Error('--index-cost --pg needs DATABASE_URL=postgres://…');
  const r = registry.resource('products');
  const dir = mkdtempSync(join(tmpdir(), 'index-cost-'));
  const schema = `index_cost_${process.pid}`;
  const failures: string[] = [];
  const loadAtStart = load();
  let database: Database | undefined;
  try {
    if (pg) {
      await dropSchema(process.env.DATABASE_URL!, schema).catch(() => {});
      database = await connect({ url: process.env.DATABASE_URL, schema });
    } else database = await connect({ file: join(dir, 'bench.sqlite') });
    const db = database.db;
    log(`index cost: ${r.name} on ${engine}, ${rows.toLocaleString('en')} rows seeded; ${inserts} single-row inserts a turn, ${trials} turns each; load ${loadAtStart}`);
    const seeded = await seed(database, registry, r, rows, { seed: 1 });
    const sample = seeded.rows.get(r.name)![0];
    const indexes = indexesOf(r, engine);
    const listIndexes = indexes.filter((i) => !i.unique);
    const extra = everyPairing(r, engine);

    /**
     * Inserts `inserts` rows like the sample, a statement each, in one transaction (the index work, not
     * the disk's flush of each commit, which is the same whatever the indexes and noisier than all of
     * them); answers µs a row, and deletes them after.
     */
    const turn = async () => {
      const tag = randomBytes(4).toString('hex');
      const made: string[] = [];
      let micros = 0;
      await db.transaction().execute(async (trx) => {
        const cpu = await cpuClock(trx);
        const started = await cpu();
        for (let i = 0; i < inserts; i++) {
          const id = `${tag}${String(i).padStart(16, '0')}`;
          const stamp = new Date().toISOString();
          await trx.insertInto(r.name).values({ ...sample, id, slug: `bench-${tag}-${i}`, name: `Bench ${tag} ${i}`, createdAt: stamp, updatedAt: stamp }).execute();
          made.push(id);
        }
        micros = ((await cpu()) - started) / inserts;
      });
      await db.deleteFrom(r.name).where('id', 'in', made).execute();
      return micros;
    };
    const measure = async () => {
      const xs: number[] = [];
      for (let t = 0; t < trials; t++) xs.push(await turn());
      return Math.round(median(xs) * 10) / 10;
    };
    const drop = (i: IndexDef) => sql`drop index ${sql.ref(i.name)}`.execute(db);

    await turn(); // warms the statement and the caches
    const now = await measure();
    log(`  with its ${indexes.length} indexes (${listIndexes.length} list indexes): ${now} µs a row`);
    const perIndex: { index: string; micros: number }[] = [];
    // Each index's cost: with it and without it, in turns (the machine's speed drifts between indexes).
    for (const index of listIndexes) {
      const withIt: number[] = [];
      const without: number[] = [];
      for (let t = 0; t < trials; t++) {
        withIt.push(await turn());
        await drop(index);
        without.push(await turn());
        await createIndex(db, r.name, index);
      }
      perIndex.push({ index: index.name, micros: Math.round((median(withIt) - median(without)) * 10) / 10 });
    }
    perIndex.sort((a, b) => b.micros - a.micros);
    for (const x of perIndex) log(`    ${x.index}: ${x.micros} µs`);
    for (const index of listIndexes) await drop(index);
    const bare = await measure();
    log(`  with none of the list indexes: ${bare} µs a row`);
    for (const index of [...listIndexes, ...extra]) await createIndex(db, r.name, index);
    const before = await measure();
    log(`  with every filter × every sort (${listIndexes.length + extra.length} list indexes, as before issue 54): ${before} µs a row`);
    for (const index of extra) await drop(index);
    const nowAgain = await measure();
    log(`  with its own again: ${nowAgain} µs a row; load ${load()}`);
    if (before <= now) failures.push(`the ${extra.length} indexes dropped cost nothing measurable (${before} vs ${now} µs a row)`);

    const result = {
      at: new Date().toISOString(),
      machine: machine(),
      load: { atStart: loadAtStart, atEnd: load() },
      table: r.name,
      rows,
      inserts,
      trials,
      indexes: { now: indexes.length, listNow: listIndexes.length, listBefore: listIndexes.length + extra.length },
      microsPerInsert: { now, nowAgain, bare, before },
      perIndex,
      failures,
    };
    return keepEngineResult(out, 'indexCost', engine, result, log);
  } finally {
    await database?.close();
    if (pg) await dropSchema(process.env.DATABASE_URL!, schema).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}
