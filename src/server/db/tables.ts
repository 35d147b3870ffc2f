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
 * The columns a role's reach always filters its lists by (`access.owner`): the owner field where a role
 * reaches its own rows or its team's (`'own'`, `{ team }`), and a party's field (`{ party }`). Such a
 * list is filtered so on every request, under every sort the screen offers.
 */
export function reachColumnsOf(r: ResourceDef): string[] {
  const owner = r.access.owner;
  if (!owner) return [];
  const out = new Set<string>();
  for (const reach of Object.values(owner.roles)) {
    if (!owner.via && (reach === 'own' || (typeof reach === 'object' && 'team' in reach))) out.add(owner.field);
    if (typeof reach === 'object' && 'party' in reach) out.add(reach.party);
  }
  return [...out];
}

/**
 * Indexes from the query shapes the lists really run (issue 54), not from every pairing the screen
 * could make. Every write pays for every index, so each one here answers a shape that is run:
 * - every sort, `(sort, id)`: a page read in order straight from an index (the `id` is the page's
 *   tie-break), and the walk a filter beside another sort reads (below);
 * - every filter under the list's first sort and under its title, `(filter, sort, id)` (`(filter, id)`
 *   where the first sort is the id): the list as it opens, filtered (a waiting count's link, a parent's
 *   children, the Filters drawer), and the same sorted by name; its page and its count read from the index;
 * - every reach column (`reachColumnsOf`: a seller's products, a dealer's orders) beside every sort,
 *   `(column, sort, id)`: those lists are filtered so on every request, under whatever sort is chosen.
 * A filter beside another sort is not given an index of its own: a common value (a status) is found by
 * walking the sort's index, its matches dense enough that a page comes within a few hundred rows; a rare
 * value (a parent's id) is sought in the filter's index and only its few rows are sorted
 * (tests/api/query-plans.test.ts holds both engines to that). Unique fields get a unique index (a unique
 * field's own index also gives its order: no `id` needed). On PostgreSQL (`engine`), a sort index of a
 * searched field also holds its lowered text (`IndexDef.lowered`).
 *
 * Before (every filter × every sort): products 55 indexes, auctions 52, users 46, 878 over the
 * resources; the figures after, and each index's cost on a create, are in docs/performance.md.
 */
export function indexesOf(r: ResourceDef, engine?: Engine): IndexDef[] {
  const out: IndexDef[] = [];
  // Fields sorted by their numeric value: their sort indexes hold that value (named apart from an index
  // of the text, so an older one of those is dropped as stale).
  const numeric = new Set(r.fields.filter((f) => f.sortAs === 'number' && f.storage === 'text').map(columnName));
  const { sorts, filters, search } = listOptions(r);
  // PostgreSQL: a searched field's sort indexes hold its lowered text too (`IndexDef.lowered`), named apart.
  const lowered = new Set(engine === 'postgres' ? search : []);
  const names = new Set<string>();
  const add = (columns: string[], unique = false, byValue: string[] = [], lower: string[] = []) => {
    const name = `${r.name}_${[...columns.map((c) => (byValue.includes(c) ? `${c}AsNumber` : c)), ...lower.map((c) => `${c}Lower`)].join('_')}_${unique ? 'unique' : 'idx'}`;
    if (names.has(name)) return;
    names.add(name);
    out.push({
      name,
      columns,
      unique,
      ...(byValue.length ? { numeric: byValue } : {}),
      ...(lower.length ? { lowered: lower } : {}),
    });
  };
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
  // The orders a filtered list is read in: as it opens (its first sort, `ResourceDef.sort`) and by its
  // title (a person looking for a record by name among a category's), where the list sorts by them.
  const usual = [...new Set([r.sort.field, r.title])].filter((s) => ordered.includes(s));
  const reach = new Set(reachColumnsOf(r));
  for (const filter of filters) {
    if (reach.has(filter)) continue;
    const sorts = usual.filter((s) => s !== filter);
    if (!sorts.length || r.sort.field === 'id') add([filter, 'id']);
    for (const sort of sorts) sortIndex([filter, sort, 'id'], sort);
  }
  for (const column of reach) {
    // A unique reach column (one agent profile per account) reaches one row: nothing to order.
    if (unique.has(column)) continue;
    add([column, 'id']);
    for (const sort of ordered) if (sort !== column) sortIndex([column, sort, 'id'], sort);
  }
  return out;
}

/** Per resource, per sort field: the fields whose index is ordered by that sort (`(field, sort, id)`). */
const servedBySort = new WeakMap<ResourceDef, Map<string, Set<string>>>();

/**
 * The exact filters of a list (`equals`) that no index reads in the sort's order: sought in their own
 * index, their rows must then be sorted; walked in the sort's index, each row is tested. Which is sooner
 * depends on how many rows match (`pageSearchBy`), so the list chooses from its count (repository.ts).
 */
export function unservedFilters(r: ResourceDef, sort: string, equals: Record<string, unknown>): string[] {
  let bySort = servedBySort.get(r);
  if (!bySort) {
    bySort = new Map();
    for (const index of indexesOf(r)) {
      if (index.columns.length < 2) continue;
      const [first, second] = index.columns;
      if (!bySort.has(second)) bySort.set(second, new Set());
      bySort.get(second)!.add(first);
    }
    servedBySort.set(r, bySort);
  }
  const served = bySort.get(sort);
  return Object.keys(equals).filter((key) => key !== sort && !served?.has(key));
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
