/**
 * `items` fields (a list of typed sub-records, `field.items`): which fields of a resource are, where their
 * sub-records are kept, and what a manifest may declare as a sub-field. Types only: the body rule is
 * `ruleOf`'s (schema.ts), the storage the server's (src/server/db/line-items.ts).
 */
import type { FieldDef, ResourceDef } from './types.ts';

/** The most items a list may hold when its field sets no `max`. */
export const DEFAULT_MAX_ITEMS = 100;

/** Whether a field is a list of sub-records (kept in a child table, not a column). */
export const isItems = (f: FieldDef): boolean => f.kind === 'items';

/** The resource's `items` fields. */
export function itemsFieldsOf(r: Pick<ResourceDef, 'fields'>): FieldDef[] {
  return r.fields.filter(isItems);
}

/** Whether an `items` field reads another resource's records (`ItemsDef.related`) rather than a child table. */
export const isRelatedItems = (f: FieldDef): boolean => isItems(f) && !!f.items?.related;

/** The resource's `items` fields kept in child tables of their own (every one but those read `from` another). */
export function ownItemsFieldsOf(r: Pick<ResourceDef, 'fields'>): FieldDef[] {
  return r.fields.filter((f) => isItems(f) && !f.items?.related);
}

/** The fields kept in the resource's own table: every field but its `items`. */
export function storedFieldsOf(r: Pick<ResourceDef, 'fields'>): FieldDef[] {
  return r.fields.filter((f) => !isItems(f));
}

/** The child table an `items` field's sub-records are kept in: `<resource>_<field>`. */
export function itemsTableOf(r: Pick<ResourceDef, 'name'>, f: FieldDef): string {
  return `${r.name}_${f.name}`;
}

/** Sub-field kinds that cannot be an item's: no nested lists, hashes, generated slugs or uploads. */
const REFUSED_KINDS = new Set(['items', 'password', 'slug']);

/** Why an `items` field's declaration is unusable, or undefined when it is sound (define.ts fails on it). */
export function itemsProblem(f: FieldDef): string | undefined {
  const def = f.items;
  if (!def || !def.fields.length) return `items '${f.name}' declares no fields`;
  const names = new Set<string>();
  for (const sub of def.fields) {
    if (REFUSED_KINDS.has(sub.kind)) return `items '${f.name}': a sub-field cannot be a ${sub.kind}`;
    if (sub.upload || sub.computed || sub.drawn || sub.fill || sub.unique) return `items '${f.name}': sub-field '${sub.name}' may not upload, compute, draw, fill or be unique`;
    if (['parentId', 'position'].includes(sub.name) || (sub.name === 'id' && !def.related) || names.has(sub.name)) return `items '${f.name}': sub-field name '${sub.name}' is taken`;
    if (sub.kind === 'select' && !sub.options?.length) return `items '${f.name}': select '${sub.name}' has no options`;
    names.add(sub.name);
  }
  if (def.related && !f.readOnly) return `items '${f.name}': a list read from ${def.related.resource} is read-only`;
  const { min = 0, max = DEFAULT_MAX_ITEMS } = def;
  if (!Number.isInteger(min) || !Number.isInteger(max) || min < 0 || max < Math.max(min, 1)) return `items '${f.name}': min/max must be whole numbers, 0 <= min <= max, max >= 1`;
  return undefined;
}
