/**
 * Writing a resource's records: every write runs in one transaction that also checks what the
 * manifest implies (parents exist, slugs are unique, no children left behind on delete).
 */
import { labelOf, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { slugify } from '../../domain/slug.ts';
import { hashPassword } from '../auth/password.ts';
import { badRequest, conflict, notFound, VALIDATION_FAILED } from '../errors.ts';
import { newId } from './id.ts';
import { countWhere, findBy, toRecord, type Db, type Row } from './repository.ts';
import { columnName } from './tables.ts';

/** A slug not yet taken: the spec's base-36 stamp, moved on while another record holds it. */
async function freshSlug(trx: Db, r: ResourceDef, field: string, source: string, exceptId?: string) {
  for (let now = Date.now(); ; now++) {
    const slug = slugify(source, { now });
    const holder = await findBy(trx, r, field, slug);
    if (!holder || holder.id === exceptId) return slug;
  }
}

/** Turns validated input into column values: hashes secrets, fills slugs, checks parents. */
async function toColumns(trx: Db, registry: Registry, r: ResourceDef, input: Row, current?: Row): Promise<Row> {
  const values: Row = {};
  const errors: Record<string, string[]> = {};
  for (const f of r.fields) {
    const given = input[f.name];
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
      const parent = await findBy(trx, registry.resource(f.reference!), 'id', given);
      if (!parent) (errors[f.name] ??= []).push(`${labelOf(f)} does not exist.`);
    }
    values[f.name] = given ?? null;
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

export async function createRecord(db: Db, registry: Registry, r: ResourceDef, input: Row): Promise<Row> {
  return db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    const absent = Object.fromEntries(r.fields.map((f) => [columnName(f), null]));
    const row = { id: newId(), ...absent, ...(await toColumns(trx, registry, r, input)), createdAt: now, updatedAt: now };
    await trx.insertInto(r.name).values(row).execute();
    return toRecord(r, row)!;
  });
}

export async function updateRecord(db: Db, registry: Registry, r: ResourceDef, id: string, input: Row) {
  return db.transaction().execute(async (trx) => {
    const current = await findBy(trx, r, 'id', id);
    if (!current) throw notFound(`${r.label} not found.`);
    const values = { ...(await toColumns(trx, registry, r, input, current)), updatedAt: new Date().toISOString() };
    await trx.updateTable(r.name).set(values).where('id', '=', id).execute();
    return toRecord(r, { ...current, ...values })!;
  });
}

/** Deletes a record unless other records still point at it: then 409, and nothing is deleted. */
export async function removeRecord(db: Db, registry: Registry, r: ResourceDef, id: string) {
  return db.transaction().execute(async (trx) => {
    const current = await findBy(trx, r, 'id', id);
    if (!current) throw notFound(`${r.label} not found.`);
    const blocking: string[] = [];
    for (const child of registry.childrenOf(r.name)) {
      const n = await countWhere(trx, child.resource.name, child.field, id);
      if (n) blocking.push(`${n} ${(n === 1 ? child.resource.label : child.resource.plural).toLowerCase()}`);
    }
    if (blocking.length)
      throw conflict(
        `${r.label} '${current[r.title]}' still has ${blocking.join(' and ')}. Delete or move them first.`,
      );
    await trx.deleteFrom(r.name).where('id', '=', id).execute();
    return { id };
  });
}
