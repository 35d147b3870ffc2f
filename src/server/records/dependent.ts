/**
 * The server's half of dependent references (`dependsOn`, src/manifest/dependent.ts): a write whose
 * reference points at a record that is not under the value of the field it depends on is refused, from
 * the declaration alone, whatever the form offered (a product's child category under another category).
 */
import { chooseFirstMessage, mismatchMessage, parentOf, referenceKey, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { findBy, type Db, type Row } from '../db/repository.ts';
import { parentKey, parentOfField, type Parents } from './parents.ts';

/**
 * Adds, under each dependent field, why the record as it will be does not hold together: the field set
 * while its parent is empty, or its record's `via` other than the parent's value. On an update, a field
 * not sent is judged as stored when its parent is sent (a new category with the old child category).
 * A record that does not exist is left to the reference's own check ('… does not exist.').
 */
export async function checkDependents(
  trx: Db,
  registry: Registry,
  r: ResourceDef,
  input: Row,
  current: Row | undefined,
  errors: Record<string, string[]>,
  /** The parents already read (parents.ts `readParents`); any other is looked up here. */
  parents?: Parents,
): Promise<void> {
  for (const f of r.fields) {
    const parent = parentOf(f, r.fields);
    if (!parent || errors[f.name]?.length) continue;
    // An update that sends neither leaves the pair as it was.
    if (current && !(f.name in input) && !(parent.name in input)) continue;
    const now = (name: string) => referenceKey(name in input ? input[name] : current?.[name]);
    const key = now(f.name);
    if (key === undefined) continue;
    const above = now(parent.name);
    if (above === undefined) {
      (errors[f.name] ??= []).push(chooseFirstMessage(f, parent));
      continue;
    }
    const { resource, by } = parentOfField(f, key);
    const known = parents?.get(parentKey(resource, by, key));
    const row = known === undefined ? await findBy(trx, registry.resource(resource), by, key) : (known ?? undefined);
    if (row && referenceKey(row[f.dependsOn!.via]) !== above) (errors[f.name] ??= []).push(mismatchMessage(f, parent));
  }
}
