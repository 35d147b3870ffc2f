/**
 * What a resource's list offers: the fields it sorts and filters by and whether it searches. The list
 * screen shows exactly these, the server allows exactly these, and the indexes are made for these.
 */
import type { Registry } from './registry.ts';
import { isIndexable } from './rules.ts';
import type { FieldDef, ResourceDef } from './types.ts';

/**
 * The timestamps every record has (the tables add `createdAt` and `updatedAt`, ISO text set by the
 * server), as fields: every list may sort by them and filter them by a date range, and the list screen
 * offers them as columns. A manifest never declares them.
 */
export const TIMESTAMP_FIELDS: readonly FieldDef[] = [
  { name: 'createdAt', label: 'Created', kind: 'text', storage: 'text', display: 'datetime', sortable: true },
  { name: 'updatedAt', label: 'Updated', kind: 'text', storage: 'text', display: 'datetime', sortable: true },
];

/** The timestamps of a resource that says `timestamps: 'shown'`: the same columns, neither sorted nor ranged. */
const SHOWN_TIMESTAMP_FIELDS: readonly FieldDef[] = TIMESTAMP_FIELDS.map((f) => ({ ...f, sortable: false }));

/** The timestamps as a resource's list has them (`timestamps`: sortable unless it says `'shown'`). */
export function timestampFields(r: Pick<ResourceDef, 'timestamps'>): readonly FieldDef[] {
  return r.timestamps === 'shown' ? SHOWN_TIMESTAMP_FIELDS : TIMESTAMP_FIELDS;
}

/**
 * The two ends of a date range filter, as suffixes of the field's name in `filter`:
 * `{"createdAt_gte": "2024-05-01T00:00:00.000Z", "createdAt_lte": "2024-05-31T23:59:59.999Z"}`.
 */
export const RANGE_ENDS = { from: '_gte', to: '_lte' } as const;

/**
 * Whether users may sort the list by the field. A parent's id or an image URL orders nothing a reader
 * sees; long text (`isIndexable`) is never sorted, whatever the manifest asks: every sort is read from
 * an index, and no index can hold 10,000 characters.
 */
export function isSortable(f: FieldDef): boolean {
  if (f.secret || !isIndexable(f)) return false;
  if (f.kind === 'reference' || f.kind === 'image') return f.sortable === true;
  return f.sortable ?? !!f.list;
}

/**
 * Whether the list filters by an exact match on the field (never long text: see `isSortable`). A date
 * (`display: 'datetime'`) is filtered by a range instead (`isRangeFilterable`).
 */
export function isFilterable(f: FieldDef): boolean {
  return !f.secret && !!f.filterable && isIndexable(f) && f.display !== 'datetime';
}

/** Whether the list filters the field by a date range: the timestamps, and declared dates marked filterable. */
export function isRangeFilterable(f: FieldDef): boolean {
  return f.display === 'datetime' && isIndexable(f) && (TIMESTAMP_FIELDS.includes(f) || !!f.filterable);
}

/** A resource's fields and the timestamps every record has: what a list can show, sort and filter. */
export function listFields(r: ResourceDef): FieldDef[] {
  return [...r.fields, ...timestampFields(r)];
}

export interface ListOptions {
  /** Sortable fields, `id` included (the default tie-break, and react-admin's fallback sort), and the timestamps. */
  sorts: string[];
  /** Fields with an exact-match filter on the list screen. */
  filters: string[];
  /** Date fields filtered by a range (`<field>_gte`, `<field>_lte`): the timestamps at least. */
  ranges: string[];
  /** Free-text search (`q`) over the searchable fields. */
  search: string[];
}

export function listOptions(r: ResourceDef, registry?: Registry): ListOptions {
  const fields = listFields(r);
  return {
    sorts: ['id', ...fields.filter(isSortable).map((f) => f.name)],
    filters: r.fields
      .filter(isFilterable)
      // A parent without a list read cannot be picked from, so the screen offers no filter by it.
      .filter((f) => f.kind !== 'reference' || !registry || registry.resource(f.reference!).reads.list?.kind === 'list')
      .map((f) => f.name),
    ranges: fields.filter(isRangeFilterable).map((f) => f.name),
    search: r.fields.filter((f) => f.searchable && !f.secret).map((f) => f.name),
  };
}
