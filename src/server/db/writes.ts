/**
 * Writing a resource's records: every write runs in one transaction that also checks what the
 * manifest implies (parents exist, slugs are unique, no children left behind on delete).
 */
import { labelOf, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { RECYCLE_BIN } from '../../../resources/system.ts';
import { slugify } from '../../domain/slug.ts';
import { hashPassword } from '../auth/password.ts';
import { badRequest, conflict, notFound, VALIDATION_FAILED } from '../errors.ts';
import { newId } from './id.ts';
import { countWhere, findBy, toRecord, toStoredBoolean, type Db, type Row } from './repository.ts';
import { columnName } from './tables.ts';

/** A slug not yet taken: the spec's base-36 stamp, moved on while another record holds it. */
async function freshSlug(trx: Db, r: ResourceDef, field: string, source: string, exceptId?: string) {
  for (let now = Date.now(); ; now++) {
    const slug = slugify(source, { now });
    const holder = await findBy(trx, r, field, slug);
    if (!holder || holder.id === exceptId) return slug;
  }
}

/** What a write knows of the request beyond its body. */
export interface WriteContext {
  /** The root URL of the host the request came to (`http://shop.example/`), for `whenEmpty: 'hostRoot'`. */
  hostRoot?: string;
}

/**
 * Turns validated input into column values: hashes secrets, fills slugs and empty host-root links,
 * stores booleans as 0/1, checks parents (by the field a reference holds).
 */
async function toColumns(
  trx: Db,
  registry: Registry,
  r: ResourceDef,
  input: Row,
  current?: Row,
  context: WriteContext = {},
): Promise<Row> {
  const values: Row = {};
  const errors: Record<string, string[]> = {};
  for (const f of r.fields) {
    let given = input[f.name];
    if (f.whenEmpty === 'hostRoot' && context.hostRoot) {
      // Create: sent empty or not sent. Update: only when sent empty (not sending it keeps it).
      const empty = given === undefined || given === null || (typeof given === 'string' && given.trim() === '');
      if (empty && (current ? f.name in input : true)) {
        input = { ...input, [f.name]: context.hostRoot };
        given = context.hostRoot;
      }
    }
    if (f.kind === 'slug') {
      const wanted = typeof given === 'string' ? given.trim() : '';
      if (wanted) values[f.name] = slugify(wanted, { unique: false });
      else if (!current || f.name in input) {
        const source = String(input[f.from!] ?? current?.[f.from!] ?? '');
        values[f.name] = await freshSlug(trx, r, f.name, source, current?.id as string | undefined);
      }
      continue;
    }
    if (!(f.name in input)) continue;
    if (f.secret) {
      values[columnName(f)] = given ? await hashPassword(String(given)) : current?.[columnName(f)];
      continue;
    }
    if (f.kind === 'reference' && given) {
      const parent = await findBy(trx, registry.resource(f.reference!), f.referenceBy ?? 'id', given);
      if (!parent) (errors[f.name] ??= []).push(`${labelOf(f)} does not exist.`);
    }
    values[f.name] = f.kind === 'boolean' ? toStoredBoolean(given) : (given ?? null);
  }
  if (Object.keys(errors).length) throw badRequest(VALIDATION_FAILED, errors);
  for (const f of r.fields)
    if (f.unique && values[columnName(f)] !== undefined && values[columnName(f)] !== null) {
      const holder = await findBy(trx, r, columnName(f), values[columnName(f)]);
      if (holder && holder.id !== current?.id)
        throw conflict(`A ${r.label.toLowerCase()} with this ${labelOf(f).toLowerCase()} already exists.`);
    }
  return values;
}

export async function createRecord(
  db: Db,
  registry: Registry,
  r: ResourceDef,
  input: Row,
  context: WriteContext = {},
): Promise<Row> {
  return db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    const absent = Object.fromEntries(r.fields.map((f) => [columnName(f), null]));
    const columns = await toColumns(trx, registry, r, input, undefined, context);
    const row: Row = { id: newId(), ...absent, ...columns, createdAt: now, updatedAt: now };
    for (const f of r.fields)
      if (f.createdWith !== undefined && (row[f.name] === null || row[f.name] === undefined))
        row[f.name] = f.kind === 'boolean' ? toStoredBoolean(f.createdWith) : f.createdWith;
    await trx.insertInto(r.name).values(row).execute();
    return toRecord(r, row)!;
  });
}

export async function updateRecord(
  db: Db,
  registry: Registry,
  r: ResourceDef,
  id: string,
  input: Row,
  context: WriteContext = {},
) {
  return db.transaction().execute(async (trx) => {
    const current = await findBy(trx, r, 'id', id);
    if (!current) throw notFound(`${r.label} not found.`);
    const values = { ...(await toColumns(trx, registry, r, input, current, context)), updatedAt: new Date().toISOString() };
    await trx.updateTable(r.name).set(values).where('id', '=', id).execute();
    return toRecord(r, { ...current, ...values })!;
  });
}

export interface RemoveOptions {
  /** Move the record into the recycle bin (RECYCLE_BIN) instead of deleting it. */
  recycle?: boolean;
  /** Who deletes: kept as the bin row's `deletedBy`. */
  userId?: string;
  /** Called in the transaction after the row is deleted for good (not when it is recycled). */
  afterRemove?: (row: Row, trx: Db) => Promise<void>;
}

/**
 * The records of other resources that point at `row`, counted by the field each reference holds
 * (`id`, or its `referenceBy`), as '2 child categories'.
 */
async function blockingChildren(trx: Db, registry: Registry, r: ResourceDef, row: Row): Promise<string[]> {
  const blocking: string[] = [];
  for (const child of registry.childrenOf(r.name)) {
    const by = child.resource.fields.find((f) => f.name === child.field)?.referenceBy ?? 'id';
    const value = row[by];
    if (value === null || value === undefined) continue;
    const n = await countWhere(trx, child.resource.name, child.field, value);
    if (n) blocking.push(`${n} ${(n === 1 ? child.resource.label : child.resource.plural).toLowerCase()}`);
  }
  return blocking;
}

/**
 * Deletes a record unless other records still point at it: then 409, and nothing is deleted. With
 * `recycle`, the row is moved into the recycle bin in the same transaction (restorable under its id).
 */
export async function removeRecord(db: Db, registry: Registry, r: ResourceDef, id: string, options: RemoveOptions = {}) {
  return db.transaction().execute(async (trx) => {
    const current = await findBy(trx, r, 'id', id);
    if (!current) throw notFound(`${r.label} not found.`);
    const blocking = await blockingChildren(trx, registry, r, current);
    if (blocking.length)
      throw conflict(
        `${r.label} '${current[r.title]}' still has ${blocking.join(' and ')}. Delete or move them first.`,
      );
    if (options.recycle) {
      const now = new Date().toISOString();
      await trx
        .insertInto(RECYCLE_BIN)
        .values({
          id: newId(),
          title: String(current[r.title] ?? current.id),
          resource: r.name,
          recordId: id,
          data: JSON.stringify(current),
          deletedBy: options.userId ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
    }
    await trx.deleteFrom(r.name).where('id', '=', id).execute();
    if (!options.recycle && options.afterRemove) await options.afterRemove(current, trx);
    return { id };
  });
}
