/**
 * The ra-data-simple-rest list dialect: `sort=["name","ASC"]`, `range=[0,24]`, `filter={"q":"x"}`.
 * Parsed strictly: a sort or filter the manifest does not allow is a 400, never a silent full scan.
 */
import { isFilterable, listOptions, type ResourceDef } from '../../manifest/index.ts';
import { badRequest } from '../errors.ts';

/** The most rows one page may hold, whatever the client asks. */
export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 25;

export interface ListQuery {
  sort: { field: string; order: 'ASC' | 'DESC' };
  start: number;
  /** Inclusive, as ra-data-simple-rest's range is. */
  end: number;
  q?: string;
  /** Exact matches; an array value matches any of its items. */
  equals: Record<string, string | number | (string | number)[]>;
}

function parseJson(raw: unknown, name: string): unknown {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw badRequest(`Malformed ${name}.`);
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest(`Malformed ${name}: not JSON.`);
  }
}

export function sortableFields(r: ResourceDef): Set<string> {
  return new Set(listOptions(r).sorts);
}

/** The list's filters, plus `id` (react-admin's getMany asks `filter={"id":[…]}`). */
export function filterableFields(r: ResourceDef): Set<string> {
  return new Set(['id', ...r.fields.filter(isFilterable).map((f) => f.name)]);
}

export function parseListQuery(r: ResourceDef, query: Record<string, unknown>): ListQuery {
  const sort = parseJson(query.sort, 'sort');
  let sortBy = r.sort;
  if (sort !== undefined) {
    if (!Array.isArray(sort) || typeof sort[0] !== 'string') throw badRequest('Malformed sort.');
    const order = String(sort[1] ?? 'ASC').toUpperCase();
    if (!sortableFields(r).has(sort[0])) throw badRequest(`Cannot sort by '${sort[0]}'.`);
    if (order !== 'ASC' && order !== 'DESC') throw badRequest('Sort order must be ASC or DESC.');
    sortBy = { field: sort[0], order };
  }
  let start = 0;
  let end = DEFAULT_PAGE - 1;
  const range = parseJson(query.range, 'range');
  if (range !== undefined) {
    if (!Array.isArray(range) || !range.every((n) => Number.isInteger(n) && n >= 0) || range[1] < range[0])
      throw badRequest('Malformed range.');
    [start, end] = range as [number, number];
  }
  end = Math.min(end, start + MAX_PAGE - 1);
  const filter = parseJson(query.filter, 'filter') ?? {};
  if (typeof filter !== 'object' || Array.isArray(filter) || filter === null) throw badRequest('Malformed filter.');
  const allowed = filterableFields(r);
  const equals: ListQuery['equals'] = {};
  let q: string | undefined;
  for (const [key, value] of Object.entries(filter as Record<string, unknown>)) {
    if (value === undefined || value === null || value === '') continue;
    if (key === 'q') {
      if (typeof value !== 'string') throw badRequest('Malformed filter: q must be text.');
      q = value.trim() || undefined;
      continue;
    }
    if (!allowed.has(key)) throw badRequest(`Cannot filter by '${key}'.`);
    const ok = (v: unknown) => typeof v === 'string' || typeof v === 'number';
    if (Array.isArray(value) ? !value.every(ok) : !ok(value)) throw badRequest(`Malformed filter '${key}'.`);
    equals[key] = value as ListQuery['equals'][string];
  }
  return { sort: sortBy, start, end, q, equals };
}
