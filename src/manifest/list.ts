/**
 * What a resource's list offers: the fields it sorts and filters by and whether it searches. The list
 * screen shows exactly these, the server allows exactly these, and the indexes are made for these.
 */
import type { Registry } from './registry.ts';
import type { FieldDef, ResourceDef } from './types.ts';

/** Whether users may sort the list by the field. A parent's id or an image URL orders nothing a reader sees. */
export function isSortable(f: FieldDef): boolean {
  if (f.secret) return false;
  if (f.kind === 'reference' || f.kind === 'image') return f.sortable === true;
  return f.sortable ?? !!f.list;
}

/** Whether the list filters by an exact match on the field. */
export function isFilterable(f: FieldDef): boolean {
  return !f.secret && !!f.filterable;
}

export interface ListOptions {
  /** Sortable fields, `id` included (the default tie-break, and react-admin's fallback sort). */
  sorts: string[];
  /** Fields with an exact-match filter on the list screen. */
  filters: string[];
  /** Free-text search (`q`) over the searchable fields. */
  search: string[];
}

export function listOptions(r: ResourceDef, registry?: Registry): ListOptions {
  return {
    sorts: ['id', ...r.fields.filter(isSortable).map((f) => f.name)],
    filters: r.fields
      .filter(isFilterable)
      // A parent without a list read cannot be picked from, so the screen offers no filter by it.
      .filter((f) => f.kind !== 'reference' || !registry || registry.resource(f.reference!).reads.list?.kind === 'list')
      .map((f) => f.name),
    search: r.fields.filter((f) => f.searchable && !f.secret).map((f) => f.name),
  };
}
