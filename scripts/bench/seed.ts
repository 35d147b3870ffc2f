/**
 * A fresh database full of valid sample rows: the resource under test with `rows` records and, first,
 * every resource it references (N/20 rows each, at least 50, recursively). Values come from the
 * manifests' own rules (src/domain/sample.ts); parents are picked with a skew, so some parents have
 * many children, as real catalogues do. Also writes the same rows as a json-server db.json.
 */
import { writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import { listOptions, type Registry, type ResourceDef } from '../../src/manifest/index.ts';
import { createSampler, type Sampler } from '../../src/domain/sample.ts';
import type { Database } from '../../src/server/db/types.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { dropKeptRecordTriggers } from '../../src/server/db/postgres/pg-stored-records.ts';
import { newId } from '../../src/server/db/id.ts';
import { columnName, columnsOf } from '../../src/server/db/tables.ts';
import { hashPassword } from '../../src/server/auth/password.ts';
import { seedIfEmpty } from '../../src/server/seed/index.ts';
import { listQueries } from '../../src/server/db/repository.ts';

export type Row = Record<string, unknown>;

/** The list's title field when it sorts by it, else its declared default sort. */
export function sortField(r: ResourceDef): string {
  return listOptions(r).sorts.includes(r.title) ? r.title : r.sort.field;
}

export interface Seeded {
  /** Rows by resource name, as stored (the same objects go to db.json). */
  rows: Map<string, Row[]>;
  /** For each reference field of the target: children per parent id. */
  childCounts: Map<string, Map<string, number>>;
  millis: number;
  /** A page deep in the target's sorted list (DEEP_FROM_ROWS rows or more): its offset and the row before it, as keyset paging's `after`. */
  deep?: { offset: number; after: [unknown, string] };
}

/** From this many rows a bench also reads a page at 90% of the sorted list (scenario `deep`). */
export const DEEP_FROM_ROWS = 100_000;
/** From this many rows the target's list indexes are built after its rows are in, not row by row (much faster). */
const BULK_FROM_ROWS = 100_000;

const BATCH = 500;
/**
 * The most rows a parent resource gets (what a 50,000-row bench gives it): some parents hold a unique
 * value from a small space (a country's three-letter code, 17,576 of them), which random samples fill
 * with duplicates long before 50,000.
 */
const MAX_PARENTS = 2500;
const YEAR = 365 * 86400_000;

/** How many rows each resource gets: the target `rows`, its parents rows/20 (min 50, max MAX_PARENTS), recursively. */
export function plan(registry: Registry, target: ResourceDef, rows: number): Map<string, number> {
  const out = new Map<string, number>();
  const visit = (r: ResourceDef, n: number, path: string[]) => {
    if (path.includes(r.name)) throw new Error(`bench seed: reference cycle ${[...path, r.name].join(' → ')}`);
    out.set(r.name, Math.max(out.get(r.name) ?? 0, n));
    for (const f of r.fields)
      if (f.kind === 'reference' && f.reference !== r.name)
        visit(registry.resource(f.reference!), Math.min(MAX_PARENTS, Math.max(50, Math.ceil(n / 20))), [...path, r.name]);
  };
  visit(target, rows, []);
  return out;
}

export async function seed(
  database: Database,
  registry: Registry,
  target: ResourceDef,
  rows: number,
  options: { seed: number; log?: (line: string) => void },
): Promise<Seeded> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  await migrate(database, registry);
  await seedIfEmpty(database.db, registry, { catalogue: false }); // the demo accounts, to sign in
  const counts = plan(registry, target, rows);
  const sampler = createSampler({ seed: options.seed });
  const stored = new Map<string, Row[]>();
  const childCounts = new Map<string, Map<string, number>>();
  // Secrets are stored hashed: one hash serves every row (hashing 50,000 would take minutes).
  const anySecret = [...counts.keys()].some((n) => registry.resource(n).fields.some((f) => f.secret));
  const secretHash = anySecret ? await hashPassword('bench-password') : undefined;

  // Parents before children: a resource is seeded once all it references are.
  const pending = new Set(counts.keys());
  while (pending.size) {
    const ready = [...pending].find((name) =>
      registry.resource(name).fields.every((f) => f.kind !== 'reference' || f.reference === name || stored.has(f.reference!)),
    )!;
    pending.delete(ready);
    const r = registry.resource(ready);
    const n = counts.get(ready)!;
    // Unique values already taken (the demo seed's own rows), so a sample never repeats one.
    const taken = new Map<string, Set<unknown>>();
    for (const f of r.fields.filter((x) => x.unique && !x.secret))
      taken.set(f.name, new Set((await database.db.selectFrom(r.name).select(f.name).execute()).map((x) => x[f.name])));
    const list = makeRows(r, n, sampler, stored, secretHash, taken);
    stored.set(ready, list);
    if (r === target)
      for (const f of r.fields.filter((x) => x.kind === 'reference')) {
        const perParent = new Map<string, number>();
        for (const row of list) perParent.set(row[f.name] as string, (perParent.get(row[f.name] as string) ?? 0) + 1);
        childCounts.set(f.name, perParent);
      }
    const t = Date.now();
    const bulk = n >= BULK_FROM_ROWS;
    if (bulk) await dropListIndexes(database, r);
    await insert(database, r, list, log);
    log(`  seeded ${n.toLocaleString('en')} ${r.name} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    if (bulk) {
      const i = Date.now();
      await migrate(database, registry); // makes the indexes dropped above, over the rows now there
      log(`  indexed ${r.name} in ${((Date.now() - i) / 1000).toFixed(1)} s`);
    }
  }
  await settle(database);
  const deep = rows >= DEEP_FROM_ROWS ? await deepPage(database, target, rows) : undefined;
  return { rows: stored, childCounts, millis: Date.now() - started, ...(deep ? { deep } : {}) };
}

/**
 * The tables' statistics as a settled database has them. PostgreSQL: vacuumed and analysed as autovacuum
 * would leave a settled table (index-only scans need the visibility map). SQLite: analysed, then its
 * STAT4 samples dropped (`sqlite_stat1` kept): with samples for an index, SQLite marks every statement
 * binding a value compared with that index's columns to be prepared again whenever the value is bound,
 * which is on every run (a page of one seller's 25 products: 150 µs of preparing a page, and the bench's
 * filtered pages 0.30× the ceiling where the server as users run it, whose files hold no statistics,
 * answered 0.47×). The server runs no ANALYZE; the bench and the plan test measure what it would read.
 */
export async function settle(database: Database) {
  if (database.engine === 'postgres') return void (await sql.raw('vacuum analyze').execute(database.db));
  await sql.raw('analyze').execute(database.db);
  const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'sqlite_stat4'`.execute(database.db);
  if (rows[0].n) await sql.raw('delete from sqlite_stat4').execute(database.db);
  // Loads the statistics as they now are into this connection's planner.
  await sql.raw('analyze sqlite_schema').execute(database.db);
}

function makeRows(r: ResourceDef, n: number, sampler: Sampler, stored: Map<string, Row[]>, secretHash?: string, taken = new Map<string, Set<unknown>>()): Row[] {
  const now = Date.now();
  const ids = Array.from({ length: n }, (_, i) => newId(now - YEAR + Math.floor((i / n) * YEAR)));
  // Skewed: index ⌊len·u²⌋ gives the first parents many children and the last ones few.
  const reference = (_f: unknown, target: string) => {
    const pool = target === r.name ? ids : stored.get(target)!.map((p) => p.id as string);
    return pool[Math.floor(pool.length * sampler.rng.next() ** 2)];
  };
  const columns = columnsOf(r);
  // A unique field's sample may repeat (a country's code3 is a phrase's first three letters): a repeat is
  // replaced by letters counting up, as long as the sample (codes), or the sample and a count (names).
  const uniques = r.fields.filter((f) => f.unique && !f.secret).map((f) => ({ name: f.name, seen: new Set<unknown>(taken.get(f.name)), next: 0 }));
  const letters = (k: number, length: number) =>
    Array.from({ length }, (_, i) => String.fromCharCode(65 + (Math.floor(k / 26 ** (length - 1 - i)) % 26))).join('');
  const fresh = () => {
    const values = sampler.record(r, { reference });
    for (const u of uniques) {
      const v = values[u.name];
      if (typeof v !== 'string' || !u.seen.has(v)) {
        u.seen.add(v);
        continue;
      }
      let w: string;
      do w = v.length <= 4 ? letters(u.next++, v.length) : `${v} ${(u.next++).toString(36)}`;
      while (u.seen.has(w));
      u.seen.add(w);
      values[u.name] = w;
    }
    return values;
  };
  return ids.map((id, i) => {
    const values = fresh();
    const at = new Date(now - YEAR + Math.floor((i / n) * YEAR)).toISOString();
    const row: Row = {};
    for (const c of columns) {
      if (c.name === 'id') row.id = id;
      else if (c.name === 'createdAt' || c.name === 'updatedAt') row[c.name] = at;
      else if (c.field?.secret) row[columnName(c.field)] = secretHash ?? null;
      // Booleans are stored 0/1; a boolean the manifest gives no rule may come back from the sampler as text.
      else if (c.field?.kind === 'boolean') row[c.name] = typeof values[c.field.name] === 'boolean' ? Number(values[c.field.name]) : sampler.rng.int(2);
      else if (c.field) row[c.name] = values[c.field.name] ?? null;
    }
    return row;
  });
}

async function insert(database: Database, r: ResourceDef, rows: Row[], log: (line: string) => void) {
  // As many rows a statement as the engine's bound on parameters allows (SQLite 32,766, PostgreSQL 65,535).
  const batch = Math.max(BATCH, Math.floor((database.engine === 'postgres' ? 65_000 : 32_000) / columnsOf(r).length));
  const step = Math.max(batch, Math.ceil(rows.length / 10 / batch) * batch);
  const t = Date.now();
  await database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += batch) {
      await trx.insertInto(r.name).values(rows.slice(i, i + batch)).execute();
      const done = Math.min(i + batch, rows.length);
      if (rows.length >= BULK_FROM_ROWS && done % step < batch)
        log(`    ${r.name}: ${done.toLocaleString('en')} of ${rows.length.toLocaleString('en')} rows (${Math.round(done / Math.max(1, (Date.now() - t) / 1000)).toLocaleString('en')} rows/s)`);
    }
  });
}

/** Drops the indexes migrate derives from a resource's list options, so a bulk insert need not keep them up. */
async function dropListIndexes(database: Database, r: ResourceDef) {
  const { db, engine } = database;
  const { rows } =
    engine === 'postgres'
      ? await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = ${r.name}`.execute(db)
      : await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = ${r.name}`.execute(db);
  for (const { name } of rows)
    if (name.startsWith(`${r.name}_`) && (name.endsWith('_idx') || name.endsWith('_trgm'))) await db.schema.dropIndex(name).ifExists().execute();
  // PostgreSQL's kept records (pg-stored-records.ts): written once by the migration after the insert, not row by row by its trigger.
  if (engine === 'postgres') await dropKeptRecordTriggers(db, r.name);
}

/** The row before 90% of the target's list, sorted as the bench's pages are: keyset paging's `after` for a deep page. */
async function deepPage(database: Database, r: ResourceDef, rows: number): Promise<Seeded['deep']> {
  const field = sortField(r);
  const offset = Math.floor(rows * 0.9);
  const { page } = listQueries(database.db, r, { sort: { field, order: 'ASC' }, start: offset - 1, end: offset - 1, equals: {} });
  const before = await page.executeTakeFirst();
  return before ? { offset, after: [before[field], before.id as string] } : undefined;
}

/** json-server's database: the same rows under the same resource names. */
export function writeJsonServerDb(file: string, seeded: Seeded) {
  writeFileSync(file, JSON.stringify(Object.fromEntries(seeded.rows), null, 2));
}
