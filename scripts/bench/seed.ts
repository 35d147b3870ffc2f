/**
 * A fresh database full of valid sample rows: the resource under test with `rows` records and, first,
 * every resource it references (N/20 rows each, at least 50, recursively). Values come from the
 * manifests' own rules (src/domain/sample.ts); parents are picked with a skew, so some parents have
 * many children, as real catalogues do. Also writes the same rows as a json-server db.json.
 */
import { writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { Registry, ResourceDef } from '../../src/manifest/index.ts';
import { createSampler, type Sampler } from '../../src/domain/sample.ts';
import type { Database } from '../../src/server/db/connect.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { newId } from '../../src/server/db/id.ts';
import { columnName, columnsOf } from '../../src/server/db/tables.ts';
import { hashPassword } from '../../src/server/auth/password.ts';
import { seedIfEmpty } from '../../src/server/seed/index.ts';

export type Row = Record<string, unknown>;

export interface Seeded {
  /** Rows by resource name, as stored (the same objects go to db.json). */
  rows: Map<string, Row[]>;
  /** For each reference field of the target: children per parent id. */
  childCounts: Map<string, Map<string, number>>;
  millis: number;
}

const BATCH = 500;
const YEAR = 365 * 86400_000;

/** How many rows each resource gets: the target `rows`, its parents rows/20 (min 50), recursively. */
export function plan(registry: Registry, target: ResourceDef, rows: number): Map<string, number> {
  const out = new Map<string, number>();
  const visit = (r: ResourceDef, n: number, path: string[]) => {
    if (path.includes(r.name)) throw new Error(`bench seed: reference cycle ${[...path, r.name].join(' → ')}`);
    out.set(r.name, Math.max(out.get(r.name) ?? 0, n));
    for (const f of r.fields)
      if (f.kind === 'reference' && f.reference !== r.name)
        visit(registry.resource(f.reference!), Math.max(50, Math.ceil(n / 20)), [...path, r.name]);
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
    const list = makeRows(r, n, sampler, stored, secretHash);
    stored.set(ready, list);
    if (r === target)
      for (const f of r.fields.filter((x) => x.kind === 'reference')) {
        const perParent = new Map<string, number>();
        for (const row of list) perParent.set(row[f.name] as string, (perParent.get(row[f.name] as string) ?? 0) + 1);
        childCounts.set(f.name, perParent);
      }
    const t = Date.now();
    await insert(database, r, list);
    log(`  seeded ${n.toLocaleString('en')} ${r.name} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  await sql`analyze`.execute(database.db);
  return { rows: stored, childCounts, millis: Date.now() - started };
}

function makeRows(r: ResourceDef, n: number, sampler: Sampler, stored: Map<string, Row[]>, secretHash?: string): Row[] {
  const now = Date.now();
  const ids = Array.from({ length: n }, (_, i) => newId(now - YEAR + Math.floor((i / n) * YEAR)));
  // Skewed: index ⌊len·u²⌋ gives the first parents many children and the last ones few.
  const reference = (_f: unknown, target: string) => {
    const pool = target === r.name ? ids : stored.get(target)!.map((p) => p.id as string);
    return pool[Math.floor(pool.length * sampler.rng.next() ** 2)];
  };
  const columns = columnsOf(r);
  return ids.map((id, i) => {
    const values = sampler.record(r, { reference });
    const at = new Date(now - YEAR + Math.floor((i / n) * YEAR)).toISOString();
    const row: Row = {};
    for (const c of columns) {
      if (c.name === 'id') row.id = id;
      else if (c.name === 'createdAt' || c.name === 'updatedAt') row[c.name] = at;
      else if (c.field?.secret) row[columnName(c.field)] = secretHash ?? null;
      else if (c.field) row[c.name] = values[c.field.name] ?? null;
    }
    return row;
  });
}

async function insert(database: Database, r: ResourceDef, rows: Row[]) {
  await database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += BATCH) await trx.insertInto(r.name).values(rows.slice(i, i + BATCH)).execute();
  });
}

/** json-server's database: the same rows under the same resource names. */
export function writeJsonServerDb(file: string, seeded: Seeded) {
  writeFileSync(file, JSON.stringify(Object.fromEntries(seeded.rows), null, 2));
}
