/**
 * A resource's `single` declaration (src/manifest/types.ts): at most one record per owner and value of a
 * field while the record holds `while` (one pending document per kind). Checked by the records service
 * on every create and update, after the hooks and the state check, in the write's transaction: another
 * such record answers 409, the declared message under the field.
 *
 * Two writes at once must not both pass: on PostgreSQL the check first takes a transaction lock on the
 * owner and value (released at commit), so the second waits and then sees the first's row; SQLite runs
 * one write at a time anyway.
 */
import { PostgresAdapter, sql } from 'kysely';
import type { ResourceDef } from '../../manifest/types.ts';
import type { Db, Row } from '../db/repository.ts';
import { HttpError } from '../errors.ts';

const createdWith = (r: ResourceDef): Row =>
  Object.fromEntries(r.fields.filter((f) => f.createdWith !== undefined).map((f) => [f.name, f.createdWith]));
const withoutEmpty = (row: Row): Row => Object.fromEntries(Object.entries(row).filter(([, v]) => v !== undefined && v !== null));

/** A value as the table stores it (booleans as 0/1). */
const stored = (v: unknown) => (typeof v === 'boolean' ? Number(v) : v);

/** The message with `{field}` read as the value's choice label ('A National ID card is …'). */
function messageOf(r: ResourceDef, record: Row): string {
  return r.single!.message.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const f = r.fields.find((x) => x.name === name);
    if (!f) return whole;
    const value = record[name];
    return f.choices?.find((c) => c.value === value)?.label ?? String(value ?? '');
  });
}

/**
 * Refuses `next` (the record as it would be written: the input, or on update the stored record with the
 * change and its `id`) when it breaks `r.single`. A create's input lacks what the server stores for it
 * (`createdWith`: a new document is PENDING): that is read in.
 */
export async function checkSingle(db: Db, r: ResourceDef, input: Row, creating = false): Promise<void> {
  const single = r.single;
  if (!single || !r.access.owner) return;
  const next = creating ? { ...createdWith(r), ...withoutEmpty(input) } : input;
  if (Object.entries(single.while).some(([name, value]) => stored(next[name]) !== stored(value))) return;
  const owner = next[r.access.owner.field];
  const value = next[single.field];
  if (owner === undefined || owner === null || value === undefined || value === null) return;
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    await sql`select pg_advisory_xact_lock(hashtext(${`single:${r.name}:${String(owner)}:${String(value)}`}))`.execute(db);
  let query = db
    .selectFrom(r.name)
    .select('id')
    .where(r.access.owner.field, '=', owner)
    .where(single.field, '=', stored(value));
  for (const [name, held] of Object.entries(single.while)) query = query.where(name, '=', stored(held));
  if (next.id !== undefined) query = query.where('id', '!=', String(next.id));
  if (await query.limit(1).executeTakeFirst()) {
    const message = messageOf(r, next);
    throw new HttpError(409, message, { [single.field]: [message] });
  }
}
