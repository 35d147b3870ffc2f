/**
 * References as the words people read (issue 51 §5): the title of the record a reference points at
 * (`ResourceDef.title`, declared once in its manifest), for the CSV's `<field> label` columns and the
 * notifications' texts. Looked up for a whole batch of rows at once: one query per referenced resource
 * (and the field it is matched by), never one per row.
 */
import type { FieldDef, Principal, Registry, ResourceDef } from '../../manifest/index.ts';
import { authorize } from '../../manifest/index.ts';
import type { Db, Row } from './types.ts';

/** Per reference field, the label of each value the batch holds: `labels.get('category')?.get(id)`. */
export type ReferenceLabels = Map<string, Map<string, string>>;

/** Ids looked up per query: far below either engine's limit of bound parameters. */
const CHUNK = 900;

/**
 * Whether a reference's target has a label worth writing beside its id: a title other than the value
 * the reference holds (a referral is titled by its id: its label would be the id again).
 */
export function hasLabel(registry: Registry, f: FieldDef): boolean {
  if (f.kind !== 'reference' || !f.reference) return false;
  const target = registry.resource(f.reference);
  return target.title !== (f.referenceBy ?? 'id');
}

/**
 * The reference fields of `r` whose labels `user` may read: the target's list (or its records) is the
 * role's, and reaches every row. A label is the target's title, so a role that may not read the target
 * (a seller and the accounts) or reaches only some of its rows is given the id alone, as the list
 * screen shows it no column for it (src/client/generate/access.ts `readsReference`).
 */
export function labelledReferences(registry: Registry, r: ResourceDef, user: Principal | undefined): FieldDef[] {
  return r.fields.filter((f) => {
    if (!hasLabel(registry, f)) return false;
    const target = registry.resource(f.reference!);
    const list = target.reads.list;
    const decision = authorize(user, target, list ? { read: list } : 'read');
    return decision.allowed && decision.reach.kind === 'all';
  });
}

/**
 * The labels of the references `fields` hold in `rows`: one query per target resource (and matching
 * field), over the distinct values of the batch. A value whose record is gone has no label.
 */
export async function referenceLabels(db: Db, registry: Registry, fields: readonly FieldDef[], rows: readonly Row[]): Promise<ReferenceLabels> {
  const labels: ReferenceLabels = new Map(fields.map((f) => [f.name, new Map<string, string>()]));
  // Fields pointing at the same records share one lookup (a product's seller and its dealer, both accounts).
  const groups = new Map<string, FieldDef[]>();
  for (const f of fields) {
    if (!hasLabel(registry, f)) continue;
    const key = `${f.reference}\u0000${f.referenceBy ?? 'id'}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  for (const group of groups.values()) {
    const target = registry.resource(group[0].reference!);
    const by = group[0].referenceBy ?? 'id';
    const values = [...new Set(rows.flatMap((row) => group.map((f) => row[f.name])).filter((v): v is string => typeof v === 'string' && v !== ''))];
    const found = new Map<string, string>();
    for (let i = 0; i < values.length; i += CHUNK) {
      const rowsFound = await db
        .selectFrom(target.name)
        .select([`${by} as key`, `${target.title} as label`])
        .where(by, 'in', values.slice(i, i + CHUNK))
        .execute();
      for (const x of rowsFound) if (x.label !== null && x.label !== undefined && x.label !== '') found.set(String(x.key), String(x.label));
    }
    for (const f of group) labels.set(f.name, found);
  }
  return labels;
}
