/**
 * The write step of `items` fields (`field.items`), run by writes.ts inside the parent's transaction: a
 * create stores the items sent (none when absent), an update sent the field replaces them, one not
 * sending it leaves them. A sub-field referencing another resource must find its record, as a field does
 * (400 under `<field>.<index>.<sub-field>`).
 */
import { isRelatedItems, labelOf, ownItemsFieldsOf, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { badRequest, VALIDATION_FAILED } from '../errors.ts';
import { replaceItems } from '../db/line-items.ts';
import { findBy, type Db, type Row } from '../db/repository.ts';

/** The items the input holds for each `items` field it sends (a create: every field, absent as none). */
function sentItems(r: ResourceDef, input: Row, creating: boolean): [string, Row[]][] {
  const out: [string, Row[]][] = [];
  for (const f of ownItemsFieldsOf(r)) {
    const given = input[f.name];
    if (given === undefined && !creating) continue;
    out.push([f.name, Array.isArray(given) ? (given as Row[]) : []]);
  }
  return out;
}

/** Refuses (400, by item) items whose reference sub-fields name records that do not exist. */
async function checkReferences(trx: Db, registry: Registry, r: ResourceDef, sent: [string, Row[]][]): Promise<void> {
  const errors: Record<string, string[]> = {};
  for (const [name, items] of sent) {
    const subs = r.fields.find((f) => f.name === name)!.items!.fields.filter((sub) => sub.kind === 'reference');
    for (const [i, item] of items.entries())
      for (const sub of subs) {
        const value = item[sub.name];
        if (value === undefined || value === null || value === '') continue;
        if (!(await findBy(trx, registry.resource(sub.reference!), sub.referenceBy ?? 'id', value))) errors[`${name}.${i}.${sub.name}`] = [`${labelOf(sub)} does not exist.`];
      }
  }
  if (Object.keys(errors).length) throw badRequest(VALIDATION_FAILED, errors);
}

/**
 * Writes the items the input sends for the parent `parentId` (see the file's comment). Answers the
 * written lists by field name (as answered), to be set on the record the write answers and audits.
 */
export async function writeItems(trx: Db, registry: Registry, r: ResourceDef, parentId: string, input: Row, creating: boolean): Promise<Row> {
  const sent = sentItems(r, input, creating);
  // A new record's lists read from other resources (`ItemsDef.related`) are empty: nothing points at it yet.
  const written: Row = creating ? Object.fromEntries(r.fields.filter(isRelatedItems).map((f) => [f.name, []])) : {};
  if (!sent.length) return written;
  await checkReferences(trx, registry, r, sent);
  for (const [name, items] of sent) written[name] = await replaceItems(trx, r, name, parentId, items, creating);
  return written;
}
