/**
 * The sub-records of `items` fields (`field.items`: an order's lines), kept in a child table per field
 * (tables.ts `itemsTablesOf`): read for a page of parents in one query per field, in position order, and
 * replaced whole (delete, then insert) inside the parent's write. An item is answered as its sub-fields'
 * values only (no id, parent or position; absent ones left out), exactly what a form sends back, so an update dialog opened
 * with a record's items can send them again unchanged.
 */
import { itemsFieldsOf, isRelatedItems, type FieldDef, type ResourceDef } from '../../manifest/index.ts';
import { newId } from './id.ts';
import { fromStoredBoolean, toStoredBoolean } from './repository.ts';
import { itemsTablesOf, type ItemsTableDef } from './tables.ts';
import type { Db, Row } from './types.ts';

/** Whether a resource has `items` fields (its reads then embed them, and skip the JSON-text fast path). */
export const hasItems = (r: ResourceDef): boolean => itemsFieldsOf(r).length > 0;

/**
 * A stored item row as answered: the sub-fields that hold a value (booleans as JSON booleans). An absent
 * one is left out rather than answered null, which its rule would refuse when the item is sent back.
 */
function itemOf(t: Pick<ItemsTableDef, 'field'>, row: Row): Row {
  const item: Row = {};
  for (const sub of t.field.items!.fields) {
    const value = row[sub.name];
    if (value !== null && value !== undefined) item[sub.name] = sub.kind === 'boolean' ? fromStoredBoolean(value) : value;
  }
  return item;
}

/**
 * Sets each `items` field of `rows` (records of `r`, with their ids) to its items in position order, an
 * empty list where it has none: one query per field for all the rows. Answers `rows`, changed in place.
 */
export async function withItems(db: Db, r: ResourceDef, rows: Row[]): Promise<Row[]> {
  const ids = [...new Set(rows.map((row) => row.id).filter((id): id is string => typeof id === 'string'))];
  for (const t of itemsTablesOf(r)) {
    const byParent = new Map<string, Row[]>();
    if (ids.length) {
      const stored = await db.selectFrom(t.name).selectAll().where('parentId', 'in', ids).orderBy('parentId').orderBy('position').execute();
      for (const row of stored) {
        const list = byParent.get(String(row.parentId));
        if (list) list.push(itemOf(t, row));
        else byParent.set(String(row.parentId), [itemOf(t, row)]);
      }
    }
    for (const row of rows) row[t.field.name] = byParent.get(String(row.id)) ?? [];
  }
  for (const f of r.fields.filter(isRelatedItems)) await withRelated(db, f, ids, rows);
  return rows;
}

/**
 * Sets a list read from another resource (`ItemsDef.related`) on each of `rows`: the records of that
 * resource whose `by` holds the row's id, oldest first, as the sub-fields' values. One query for the
 * page, through the index the reference's filter has (`(by, id)`).
 */
async function withRelated(db: Db, f: FieldDef, ids: string[], rows: Row[]): Promise<void> {
  const { resource, by } = f.items!.related!;
  const byParent = new Map<string, Row[]>();
  if (ids.length) {
    const columns = [...new Set([by, ...f.items!.fields.map((sub) => sub.name)])];
    const stored = await db.selectFrom(resource).select(columns).where(by, 'in', ids).orderBy(by).orderBy('id').execute();
    for (const row of stored) {
      const item = itemOf({ field: f }, row);
      const list = byParent.get(String(row[by]));
      if (list) list.push(item);
      else byParent.set(String(row[by]), [item]);
    }
  }
  for (const row of rows) row[f.name] = byParent.get(String(row.id)) ?? [];
}

/** The other resources' tables a resource's reads show (its lists read `from` them): their writes make an answer stale. */
export const relatedTablesOf = (r: ResourceDef): string[] => r.fields.filter(isRelatedItems).map((f) => f.items!.related!.resource);

/** `withItems` of one record (undefined stays undefined). */
export async function withItemsOf(db: Db, r: ResourceDef, row: Row | undefined): Promise<Row | undefined> {
  return row && (await withItems(db, r, [row]))[0];
}

/**
 * Replaces the items of the parent `parentId` in the field `field` with `items` (validated sub-records,
 * in their order): every stored one deleted, the given ones inserted at positions 0, 1, 2...
 * Answers the items as they are then answered. `fresh`: the parent was just inserted (a create, or a
 * restore, whose delete took its items), so it has none to delete: one statement fewer a field (a
 * checkout of two sellers' orders made 4 such deletes of nothing among its 39 statements).
 */
export async function replaceItems(trx: Db, r: ResourceDef, field: string, parentId: string, items: readonly Row[], fresh = false): Promise<Row[]> {
  const t = itemsTablesOf(r).find((x) => x.field.name === field)!;
  if (!fresh) await trx.deleteFrom(t.name).where('parentId', '=', parentId).execute();
  if (!items.length) return [];
  const subs = t.field.items!.fields;
  const rows = items.map((item, position) => {
    const row: Row = { id: newId(), parentId, position };
    for (const sub of subs) {
      const value = item[sub.name];
      row[sub.name] = sub.kind === 'boolean' ? toStoredBoolean(value) : (value ?? null);
    }
    return row;
  });
  await trx.insertInto(t.name).values(rows).execute();
  return rows.map((row) => itemOf(t, row));
}

/** Deletes every item of the parent `parentId` (the parent is deleted, or moved into the recycle bin). */
export async function deleteItems(trx: Db, r: ResourceDef, parentId: string): Promise<void> {
  for (const t of itemsTablesOf(r)) await trx.deleteFrom(t.name).where('parentId', '=', parentId).execute();
}
