/**
 * Unique values, one message for every way a duplicate is found. Writes check a unique value before
 * writing it (`toColumns`), but two writers can both pass that check before either commits; the
 * second then fails on the unique index. That failure is the same refusal, so it is answered the same
 * way (409 with the field's message), never as a server error. One place maps each engine's error
 * (PostgreSQL 23505 with the index's name, SQLite's SQLITE_CONSTRAINT_UNIQUE / PRIMARYKEY with the
 * table and column) back to the resource and field the index was made for (`indexesOf`).
 *
 * An auto-generated slug that collides this way is not the writer's doing: the write is retried with
 * a fresh stamp (`withSlugRetries` in writes.ts), and only a value the writer chose is answered 409.
 */
import { labelOf, type FieldDef, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { conflict, HttpError } from '../errors.ts';
import { columnName, indexesOf } from './tables.ts';

/** The refusal of a value another record of `r` already holds (`f` absent: the record's id). */
export function duplicateMessage(r: ResourceDef, f?: FieldDef): string {
  return `A ${r.label.toLowerCase()} with this ${f ? labelOf(f).toLowerCase() : 'id'} already exists.`;
}

/**
 * The 409 for a value another record of `r` already holds, in the 400s' shape: the message, and the
 * field it is about under `errors`, so the form shows it under that field (`f` absent: the id, no field).
 */
export function duplicateConflict(r: ResourceDef, f?: FieldDef): HttpError {
  const message = duplicateMessage(r, f);
  return new HttpError(409, message, f ? { [f.name]: [message] } : undefined);
}

/** What a unique violation outside any manifest's fields (a setting, a session) is answered. */
export const DUPLICATE_VALUE = 'This value is already taken.';

interface Owner {
  resource: ResourceDef;
  field?: FieldDef;
}

/** Each registry's unique indexes by name and by `table.column`, built once. */
const owners = new WeakMap<Registry, Map<string, Owner>>();

function ownersOf(registry: Registry): Map<string, Owner> {
  let map = owners.get(registry);
  if (map) return map;
  map = new Map();
  for (const r of registry.resources) {
    // The primary key: PostgreSQL names it `<table>_pkey`; SQLite names the column.
    map.set(`${r.name}_pkey`, { resource: r });
    map.set(`${r.name}.id`, { resource: r });
    for (const index of indexesOf(r)) {
      if (!index.unique) continue;
      const field = r.fields.find((f) => columnName(f) === index.columns[0]);
      map.set(index.name, { resource: r, field });
      map.set(`${r.name}.${index.columns[0]}`, { resource: r, field });
    }
  }
  owners.set(registry, map);
  return map;
}

/** The index (PostgreSQL) or `table.column` (SQLite) a unique violation names, or undefined for other errors. */
function violatedKey(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { code, constraint, message } = error as { code?: unknown; constraint?: unknown; message?: unknown };
  if (code === '23505') return typeof constraint === 'string' ? constraint : '';
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    // 'UNIQUE constraint failed: countries.code' (several columns: 'a.x, a.y'; the first names it).
    const named = typeof message === 'string' ? /constraint failed: ([^,\s]+)/.exec(message)?.[1] : undefined;
    return named ?? '';
  }
  return undefined;
}

/**
 * A database error that is a unique violation, as the 409 the write would have answered had it seen
 * the other record first; undefined for any other error.
 */
export function uniqueViolation(error: unknown, registry: Registry): HttpError | undefined {
  const key = violatedKey(error);
  if (key === undefined) return undefined;
  const owner = ownersOf(registry).get(key);
  return owner ? duplicateConflict(owner.resource, owner.field) : conflict(DUPLICATE_VALUE);
}

/** The field whose unique index a database error violated, or undefined (another error, or an id). */
export function violatedField(error: unknown, registry: Registry): FieldDef | undefined {
  const key = violatedKey(error);
  return key === undefined ? undefined : ownersOf(registry).get(key)?.field;
}
