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
import { sql } from 'kysely';
import type { FieldDef, Registry } from '../../manifest/index.ts';
import type { Db, Row } from '../db/repository.ts';

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

/** Reads every wanted parent in one statement (none when nothing is wanted). */
export async function readParents(trx: Db, registry: Registry, wanted: readonly ParentWanted[]): Promise<Parents> {
  const merged = new Map<string, { resource: string; by: string; key: unknown; columns: Set<string> }>();
  for (const w of wanted) {
    const k = parentKey(w.resource, w.by, w.key);
    const m = merged.get(k) ?? { resource: w.resource, by: w.by, key: w.key, columns: new Set([w.by]) };
    for (const c of w.columns) m.columns.add(c);
    merged.set(k, m);
  }
  const parents: Parents = new Map();
  if (!merged.size) return parents;
  const asked: { k: string; column: string; alias: string }[] = [];
  /** Per parent, the alias of its own key's column: null there where no record has that key. */
  const found = new Map<string, string>();
  const parts = [];
  for (const [k, m] of merged) {
    // The resource must be declared: its name becomes a table's.
    const table = registry.resource(m.resource).name;
    for (const column of m.columns) {
      const alias = `p${asked.length}`;
      asked.push({ k, column, alias });
      if (column === m.by) found.set(k, alias);
      parts.push(sql`(select ${sql.ref(column)} from ${sql.table(table)} where ${sql.ref(m.by)} = ${m.key} limit 1) as ${sql.ref(alias)}`);
    }
  }
  const { rows } = await sql<Row>`select ${sql.join(parts)}`.execute(trx);
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
  // Added to what the transaction read before, in place: a transaction of many writes (an import) copies nothing.
  const earlier = readIn.get(trx);
  if (!earlier) readIn.set(trx, new Map(parents));
  else for (const [k, v] of parents) earlier.set(k, v);
  return parents;
}
