/**
 * The records a write's references point at, read in one statement (issue 54: a create's round trips).
 *
 * Why: a write checks that every reference it sets exists (`… does not exist.`) and that every dependent
 * reference is under its parent (dependent.ts). One lookup each was a statement each, in series inside the
 * write's transaction: a product's create read its seller, its four category levels and three of those
 * again for the tree, eight round trips of its 22 statements on PostgreSQL. Each lookup is now a scalar
 * subquery of one `select`, answering the columns the checks compare.
 *
 * As consistent as before: under READ COMMITTED (PostgreSQL) and SQLite's one writer, a lookup in the
 * transaction saw what was committed when it ran, whether alone or beside the others.
 */
import type { FieldDef, Registry } from '../../manifest/index.ts';
import type { Db, Row } from '../db/repository.ts';
import { readAhead } from '../db/write-behind.ts';
import { lookupsQuery, type Lookup } from '../db/compiled-queries.ts';

/** One parent a write needs: the record of `resource` whose `by` is `key`, and which of its columns. */
export interface ParentWanted {
  resource: string;
  by: string;
  key: unknown;
  columns: readonly string[];
}

/** Found parents by `parentKey`: their wanted columns (`by` among them), or null where none has that key. */
export type Parents = Map<string, Row | null>;

export const parentKey = (resource: string, by: string, key: unknown) => `${resource}\u0000${by}\u0000${String(key)}`;

/** The parent a reference field `f` names by `key`: where it is looked up and the column that finds it. */
export const parentOfField = (f: FieldDef, key: unknown) => ({ resource: f.reference!, by: f.referenceBy ?? 'id', key });

/**
 * What each transaction has read of its parents, so that what the write goes on to do in it (a declared
 * notification naming the product's seller) reads their titles from here, not in a statement of its own
 * (`parentsReadIn`). Keyed by the transaction: gone with it, and a write tried again starts empty.
 */
const readIn = new WeakMap<object, Parents>();

/** The parents `trx` has read so far (`readParents`), with the columns each was read for. */
export const parentsReadIn = (trx: Db): Parents | undefined => readIn.get(trx);

/** A read of parents started before they were asked for (`readParentsAhead`), by transaction: what it found. */
const started = new WeakMap<object, Promise<Parents | undefined>>();

/**
 * Starts reading parents a write will likely want, before the steps that come first (its resource's
 * `beforeChange`, whose own lookups then go out in the same write to PostgreSQL: one round trip, not two).
 * Read outside the transaction `trx`, by `db` (a transaction answers one statement at a time, so the
 * steps' lookups would wait for it): only for a transaction that has written nothing yet, where that is the
 * same read (db/write-behind.ts `readAhead`). `readParents` waits for it and reads only what it did not
 * find. Its failure is left to that read.
 */
export function readParentsAhead(db: Db, trx: Db, registry: Registry, wanted: readonly ParentWanted[]): void {
  if (wanted.length) started.set(trx, readAll(db, registry, wanted).catch(() => undefined));
}

/** Drops a read ahead the transaction has not used yet: it wrote since, and what it read may have changed. */
export function forgetParentsAhead(trx: Db): void {
  started.delete(trx);
}

/** Whether `found` holds the parent `key` with every column of `columns` (or says there is none). */
function holds(found: Parents, key: string, columns: Iterable<string>): boolean {
  if (!found.has(key)) return false;
  const row = found.get(key);
  if (row === null) return true;
  for (const c of columns) if (!(c in row!)) return false;
  return true;
}

/**
 * Reads every wanted parent in one statement (none when nothing is wanted), but those the transaction's
 * read ahead (`readParentsAhead`) found.
 */
export async function readParents(trx: Db, registry: Registry, wanted: readonly ParentWanted[]): Promise<Parents> {
  const ahead = started.get(trx);
  if (!ahead) return readAll(trx, registry, wanted);
  started.delete(trx);
  // Only what that read found: an earlier write of the transaction may have changed what it read before.
  const found = (await ahead) ?? new Map();
  const parents: Parents = new Map();
  const missing: ParentWanted[] = [];
  for (const w of wanted) {
    const k = parentKey(w.resource, w.by, w.key);
    if (holds(found, k, [w.by, ...w.columns])) parents.set(k, found.get(k)!);
    else missing.push(w);
  }
  if (missing.length) for (const [k, v] of await readAll(trx, registry, missing)) parents.set(k, v);
  keep(trx, found);
  return parents;
}

/** Adds `parents` to what `trx` has read, in place: a transaction of many writes (an import) copies nothing. */
function keep(trx: Db, parents: Parents) {
  const earlier = readIn.get(trx);
  if (!earlier) readIn.set(trx, new Map(parents));
  else for (const [k, v] of parents) earlier.set(k, v);
}

async function readAll(trx: Db, registry: Registry, wanted: readonly ParentWanted[]): Promise<Parents> {
  const merged = new Map<string, { resource: string; by: string; key: unknown; columns: Set<string> }>();
  for (const w of wanted) {
    const k = parentKey(w.resource, w.by, w.key);
    const m = merged.get(k) ?? { resource: w.resource, by: w.by, key: w.key, columns: new Set([w.by]) };
    for (const c of w.columns) m.columns.add(c);
    merged.set(k, m);
  }
  const parents: Parents = new Map();
  if (!merged.size) return parents;
  const asked: (Lookup & { k: string })[] = [];
  /** Per parent, the alias of its own key's column: null there where no record has that key. */
  const found = new Map<string, string>();
  for (const [k, m] of merged) {
    // The resource must be declared: its name becomes a table's.
    const table = registry.resource(m.resource).name;
    for (const column of m.columns) {
      const alias = `p${asked.length}`;
      asked.push({ k, table, by: m.by, column, alias, key: m.key });
      if (column === m.by) found.set(k, alias);
    }
  }
  // Before the transaction has written, on a pipelined line with the other reads of its turn (`readAhead`).
  const { rows } = await readAhead(trx, lookupsQuery(trx, asked));
  const row = rows[0] ?? {};
  for (const { k, column, alias } of asked) {
    const key = row[found.get(k)!];
    if (key === null || key === undefined) {
      parents.set(k, null);
      continue;
    }
    const kept = parents.get(k) ?? {};
    kept[column] = row[alias];
    parents.set(k, kept);
  }
  // Outside a transaction (a read ahead of one) nothing is kept: `readParents` keeps it for its transaction.
  if (trx.isTransaction) keep(trx, parents);
  return parents;
}
