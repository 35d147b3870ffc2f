/**
 * The ra-data-simple-rest list dialect: `sort=["name","ASC"]`, `range=[0,24]`, `filter={"q":"x"}`.
 * Parsed strictly: a sort or filter the manifest does not allow is a 400, never a silent full scan.
 */
import { isFilterable, listOptions, type FieldDef, type ResourceDef } from '../../manifest/index.ts';
import { badRequest } from '../errors.ts';

/** The most rows one page may hold, whatever the client asks. */
export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 25;
/** The `page` dialect's default `limit` (`?page=1&limit=20`). */
export const DEFAULT_LIMIT = 20;

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

/**
 * A value from a URL or a filter as the field stores it, so a comparison never depends on the engine's
 * casts: booleans take true/false/1/0 (stored 0/1), numbers must be numbers (a 400 otherwise, never a
 * database error), text stays text. `name` names the value in the message.
 */
export function storedValue(f: FieldDef | undefined, value: unknown, name: string): string | number {
  if (f?.kind === 'boolean') {
    if (value === true || value === 1 || value === '1' || value === 'true') return 1;
    if (value === false || value === 0 || value === '0' || value === 'false') return 0;
    throw badRequest(`'${name}' must be true or false.`);
  }
  if (f && f.storage !== 'text') {
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
    if (!Number.isFinite(n)) throw badRequest(`'${name}' must be a number.`);
    if (f.storage === 'integer' && !Number.isInteger(n)) throw badRequest(`'${name}' must be a whole number.`);
    return n;
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw badRequest(`Malformed filter '${name}'.`);
}

function positiveInteger(raw: unknown, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (raw === undefined || raw === '') return fallback;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max)
    throw badRequest(`'${name}' must be a whole number from 1${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}.`);
  return n;
}

export interface ListQueryOptions {
  /** `'range'` (default): ra-data-simple-rest's `range=[0,24]`; `'page'`: `page` (1-based) and `limit`. */
  paging?: 'range' | 'page';
}

export function parseListQuery(r: ResourceDef, query: Record<string, unknown>, options: ListQueryOptions = {}): ListQuery {
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
  if (options.paging === 'page') {
    const page = positiveInteger(query.page, 'page', 1);
    const limit = positiveInteger(query.limit, 'limit', DEFAULT_LIMIT, MAX_PAGE);
    start = (page - 1) * limit;
    end = start + limit - 1;
    if (!Number.isSafeInteger(end)) throw badRequest(`'page' is too large.`);
  }
  const range = options.paging === 'page' ? undefined : parseJson(query.range, 'range');
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
    const f = r.fields.find((x) => x.name === key);
    equals[key] = Array.isArray(value) ? value.map((v) => storedValue(f, v, key)) : storedValue(f, value, key);
  }
  return { sort: sortBy, start, end, q, equals };
}
