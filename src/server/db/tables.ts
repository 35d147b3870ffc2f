/**
 * The tables a manifest implies: one per resource, a column per stored field, plus `id`, `createdAt`
 * and `updatedAt`. Passwords are stored only as `<field>Hash`. Read by the migrations and the repository.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { itemsTableOf, ownItemsFieldsOf, listFields, listOptions, storedFieldsOf, type FieldDef, type ResourceDef, type Storage } from '../../manifest/index.ts';
import { isIndexable, MAX_INDEXED_TEXT, maxLengthOf } from '../../manifest/rules.ts';
import type { Engine } from './types.ts';

export interface ColumnDef {
  name: string;
  storage: Storage;
  /** The field the column stores, when it stores one. */
  field?: FieldDef;
  /**
   * What the column holds for rows that never set it: rows inserted directly (seeds) and rows that
   * were there before the column was added.
   */
  default?: number;
}

/**
 * Every record's version (docs/architecture.md: "Records carry a version"): 1 when created, one more on each
 * update. One-record reads answer it as the `ETag`; an update sent with a stale `If-Match` gets 412.
 */
export const VERSION = 'version';

export interface IndexDef {
  name: string;
  columns: string[];
  unique: boolean;
  /** Columns indexed by their numeric value (`numericValueOf`), not their text: `sortAs: 'number'` fields. */
  numeric?: string[];
  /**
   * PostgreSQL: searched columns whose lowered text (`lower(column)`) the index holds after `columns`. A
   * search walking the sort's index (search.ts) tests `lower(field)` on every row it walks, and PostgreSQL
   * lowers a UTF-8 text through wide characters (`towlower` a character): more than a quarter of its
   * time under the search's load. Held in the index, the walk reads it instead (50,000 top categories,
   * 'glass', the page's walk alone, pgbench: 2,041 -> 4,097 a second).
   */
  lowered?: string[];
}

/**
 * The value a `sortAs: 'number'` text column sorts by: the whole number it spells ('10' → 10), 0 for
 * anything else (empty, absent, text the rule would refuse today but an older row may hold), as the
 * list shows an absent order (`emptyShownAs: 0`). One expression for both engines, built from what
 * both have (`ltrim` with a set of characters, `substr`, `length`, `cast … as bigint`), so they sort
 * alike, and PostgreSQL's cast only ever sees digits (it would fail a query on 'abc'). The page query
 * orders by exactly this expression and the index is made on exactly this expression
 * (`createIndex`), which is how both planners match one to the other.
 *
 * An expression index rather than a numeric shadow column kept in step by the write path: nothing can
 * fall out of step (seeds, restores from the recycle bin, rows written by another node or by hand),
 * no record, audit entry or recycled row carries an extra column, and no write pays for it but the index.
 */
export function numericValueOf(column: string): RawBuilder<number> {
  const c = sql.ref(column);
  // At most 18 digits: every such number fits a bigint, so the cast never overflows.
  return sql<number>`(case when ${c} <> '' and length(${c}) <= 18 and ltrim(${c}, '0123456789') = '' then cast(${c} as bigint) when substr(${c}, 1, 1) = '-' and length(${c}) between 2 and 19 and ltrim(substr(${c}, 2), '0123456789') = '' then cast(${c} as bigint) else 0 end)`;
}

/** What the list orders by for a sort field: its column, or its numeric value (`sortAs: 'number'`). */
export function sortKeyOf(r: ResourceDef, name: string): string | RawBuilder<number> {
  const f = listFields(r).find((x) => x.name === name);
  return f?.sortAs === 'number' && f.storage === 'text' ? numericValueOf(columnName(f)) : name;
}

/** Makes an index unless it exists, its numeric columns as their `numericValueOf` expression, its lowered ones after them. */
export async function createIndex(db: Kysely<any>, table: string, index: IndexDef): Promise<void> {
  if (!index.numeric?.length && !index.lowered?.length) {
    const create = db.schema.createIndex(index.name).ifNotExists().on(table).columns(index.columns);
    await (index.unique ? create.unique() : create).execute();
    return;
  }
  const parts = [
    ...index.columns.map((c) => (index.numeric?.includes(c) ? numericValueOf(c) : sql.ref(c))),
    ...(index.lowered ?? []).map((c) => sql`lower(${sql.ref(c)})`),
  ];
  await sql`create ${sql.raw(index.unique ? 'unique ' : '')}index if not exists ${sql.ref(index.name)} on ${sql.table(table)} (${sql.join(parts)})`.execute(db);
}

export function columnName(f: FieldDef): string {
  return f.secret ? `${f.name}Hash` : f.name;
}

export function columnsOf(r: ResourceDef): ColumnDef[] {
  return [
    { name: 'id', storage: 'text' },
    // An `items` field has no column: its sub-records are kept in a table of their own (`itemsTablesOf`).
    ...storedFieldsOf(r).map((f) => ({ name: columnName(f), storage: f.storage, field: f })),
    { name: 'createdAt', storage: 'text' },
    { name: 'updatedAt', storage: 'text' },
    { name: VERSION, storage: 'integer', default: 1 },
  ];
}

/**
 * Indexes from what the list screen offers (`listOptions`): every sort gets `(field, id)`, every filter
 * `(filter, id)` and `(filter, sort, id)` for each sort (the timestamps are sorts, so a date range,
 * alone or beside an exact filter, is read from `(createdAt, id)` or `(filter, createdAt, id)`) (a unique field needs no `id`: its own unique
 * index orders the rows), so a page is read in order straight from an
 * index (the `id` is the page's tie-break) and a filtered count from the index alone. Unique fields
 * get a unique index. On PostgreSQL (`engine`), a sort index of a searched field also holds its lowered
 * text (`IndexDef.lowered`).
 */
export function indexesOf(r: ResourceDef, engine?: Engine): IndexDef[] {
  const out: IndexDef[] = [];
  // Fields sorted by their numeric value: their sort indexes hold that value (named apart from an index
  // of the text, so an older one of those is dropped as stale).
  const numeric = new Set(r.fields.filter((f) => f.sortAs === 'number' && f.storage === 'text').map(columnName));
  const { sorts, filters, search } = listOptions(r);
  // PostgreSQL: a searched field's sort indexes hold its lowered text too (`IndexDef.lowered`), named apart.
  const lowered = new Set(engine === 'postgres' ? search : []);
  const add = (columns: string[], unique = false, byValue: string[] = [], lower: string[] = []) =>
    out.push({
      name: `${r.name}_${[...columns.map((c) => (byValue.includes(c) ? `${c}AsNumber` : c)), ...lower.map((c) => `${c}Lower`)].join('_')}_${unique ? 'unique' : 'idx'}`,
      columns,
      unique,
      ...(byValue.length ? { numeric: byValue } : {}),
      ...(lower.length ? { lowered: lower } : {}),
    });
  const sortIndex = (columns: string[], sort: string) => add(columns, false, numeric.has(sort) ? [sort] : [], lowered.has(sort) ? [sort] : []);
  for (const f of r.fields) {
    if (!f.unique) continue;
    // A unique value is checked through its index: a field allowed text no index holds cannot be unique.
    if (!isIndexable(f))
      throw new Error(`${r.name}.${f.name} is unique but may hold ${maxLengthOf(f)} characters; an index takes ${MAX_INDEXED_TEXT}`);
    add([columnName(f)], true);
  }
  // `single` holding whatever the record holds (one application per job and person): a unique index
  // beneath the service's check, so no path around it (a restore from the bin) makes a second.
  if (r.single && r.access.owner && !r.access.owner.via && !Object.keys(r.single.while).length) add([r.access.owner.field, r.single.field], true);
  // Sorts and filters are never long text (`isSortable`, `isFilterable`), so every index below fits.
  const ordered = sorts.filter((s) => s !== 'id');
  const unique = new Set(r.fields.filter((f) => f.unique).map((f) => f.name));
  // A unique field's own index already gives its order.
  for (const sort of ordered) if (!unique.has(sort)) sortIndex([sort, 'id'], sort);
  for (const filter of filters) {
    add([filter, 'id']);
    for (const sort of ordered) if (sort !== filter) sortIndex([filter, sort, 'id'], sort);
  }
  return out;
}

/** A child table of an `items` field: its columns and its one index, `(parentId, position)`. */
export interface ItemsTableDef {
  name: string;
  /** The `items` field whose sub-records it keeps. */
  field: FieldDef;
  columns: ColumnDef[];
  index: IndexDef;
}

/** The columns every item row has besides its sub-fields': its own id, its parent's, and its place in the list. */
export const ITEM_COLUMNS = ['id', 'parentId', 'position'] as const;

/**
 * The child tables of a resource's `items` fields (`<resource>_<field>`): an id, the parent's id, the
 * item's position in its list, and a column per sub-field; read and replaced by parent (line-items.ts).
 */
export function itemsTablesOf(r: ResourceDef): ItemsTableDef[] {
  // A list read from another resource (`ItemsDef.related`) is that resource's rows: no table of its own.
  return ownItemsFieldsOf(r).map((f) => {
    const name = itemsTableOf(r, f);
    return {
      name,
      field: f,
      columns: [
        { name: 'id', storage: 'text' },
        { name: 'parentId', storage: 'text' },
        { name: 'position', storage: 'integer' },
        ...f.items!.fields.map((sub) => ({ name: sub.name, storage: sub.storage, field: sub })),
      ],
      index: { name: `${name}_parentId_position_idx`, columns: ['parentId', 'position'], unique: false },
    };
  });
}
