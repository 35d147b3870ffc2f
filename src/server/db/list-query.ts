/**
 * The ra-data-simple-rest list dialect: `sort=["name","ASC"]`, `range=[0,24]`, `filter={"q":"x"}`.
 * Parsed strictly: a sort or filter the manifest does not allow is a 400, never a silent full scan.
 */
import { isFilterable, listOptions, RANGE_ENDS, type FieldDef, type ResourceDef } from '../../manifest/index.ts';
import { INT32 } from '../../manifest/rules.ts';
import { badRequest } from '../errors.ts';
import { hasNul, NUL_MESSAGE } from '../input-guard.ts';

/** The most rows one page may hold, whatever the client asks. */
export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 25;
/** The `page` dialect's default `limit` (`?page=1&limit=20`). */
export const DEFAULT_LIMIT = 20;
/**
 * The most values one filter may list (`filter={"id":[…]}`): react-admin asks for a page's references
 * at a time; the engines cap a query's parameters (SQLite 32,766, PostgreSQL 65,535).
 */
export const MAX_FILTER_VALUES = 1000;

export interface ListQuery {
  sort: { field: string; order: 'ASC' | 'DESC' };
  start: number;
  /** Inclusive, as ra-data-simple-rest's range is. */
  end: number;
  q?: string;
  /** Exact matches; an array value matches any of its items. */
  equals: Record<string, string | number | (string | number)[]>;
  /** Date ranges, both ends included, as ISO instants (`2024-05-01T00:00:00.000Z`): `createdAt_gte`, `createdAt_lte`. */
  ranges?: Record<string, DateRange>;
  /**
   * Keyset paging (`after=["<sort value>","<id>"]`, the last row of the page before): the page starts
   * right after that row in the sort's order instead of skipping `start` rows, so a page deep in a
   * million rows is read as fast as the first (an offset reads every row it skips). `range` still
   * gives the page's size and the numbers in `Content-Range`. Optional: ra-data-simple-rest never
   * sends it and pages by offset as before. Rows whose sort value is empty are not reached this way.
   */
  after?: [string | number, string];
}

/** The ends of a date range filter, either or both. */
export interface DateRange {
  gte?: string;
  lte?: string;
}

/** A date (2024-05-01) or a date and time with an optional zone (2024-05-01T12:00, …:00.000Z, …+02:00). */
const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * One end of a date range as the timestamps are stored (ISO instants in UTC, which sort as text on both
 * engines): a date alone is the start of that day (UTC) for `gte` and its last millisecond for `lte`; a
 * time without a zone is UTC, never the server's own zone. A day the calendar lacks (February 30th,
 * which JavaScript would quietly read as March 2nd) or anything else is a 400 naming the key.
 */
export function rangeEnd(value: unknown, end: keyof DateRange, key: string): string {
  const invalid = () => badRequest(`'${key}' must be a date, such as 2024-05-01 or 2024-05-01T12:00:00Z.`);
  const match = typeof value === 'string' ? ISO_DATE.exec(value) : null;
  if (!match) throw invalid();
  const [, day, time, , , zone] = match;
  const midnight = new Date(`${day}T00:00:00.000Z`);
  if (!Number.isFinite(midnight.getTime()) || midnight.toISOString().slice(0, 10) !== day) throw invalid();
  const instant = Date.parse(time ? `${day}${time}${zone ? '' : 'Z'}` : `${day}T${end === 'gte' ? '00:00:00.000' : '23:59:59.999'}Z`);
  if (!Number.isFinite(instant)) throw invalid();
  return new Date(instant).toISOString();
}

/** The range filter a key names (`createdAt_gte` → createdAt, gte), when the resource offers that range. */
function rangeKey(r: ResourceDef, key: string): { field: string; end: keyof DateRange } | undefined {
  for (const [end, suffix] of [['gte', RANGE_ENDS.from], ['lte', RANGE_ENDS.to]] as const)
    if (key.endsWith(suffix)) {
      const field = key.slice(0, -suffix.length);
      return listOptions(r).ranges.includes(field) ? { field, end } : undefined;
    }
  return undefined;
}

function parseJson(raw: unknown, name: string): unknown {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw badRequest(`Malformed ${name}.`);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badRequest(`Malformed ${name}: not JSON.`);
  }
  // JSON spells NUL as an escape (`"\u0000"`) the request's own check cannot see: refused here.
  if (hasNul(value)) throw badRequest(`Malformed ${name}: ${NUL_MESSAGE}`);
  return value;
}

// A manifest does not change while the server runs: its sort and filter sets are built once per
// resource, not on every list request (this runs before the read cache is asked).
const sortSets = new WeakMap<ResourceDef, Set<string>>();
const filterSets = new WeakMap<ResourceDef, Set<string>>();

function once(cache: WeakMap<ResourceDef, Set<string>>, r: ResourceDef, make: () => Iterable<string>): Set<string> {
  let set = cache.get(r);
  if (!set) cache.set(r, (set = new Set(make())));
  return set;
}

export function sortableFields(r: ResourceDef): Set<string> {
  return once(sortSets, r, () => listOptions(r).sorts);
}

/** The list's filters, plus `id` (react-admin's getMany asks `filter={"id":[…]}`). */
export function filterableFields(r: ResourceDef): Set<string> {
  return once(filterSets, r, () => ['id', ...r.fields.filter(isFilterable).map((f) => f.name)]);
}

/**
 * A value from a URL or a filter as the field stores it, so a comparison never depends on the engine's
 * casts: booleans take true/false/1/0 (stored 0/1), numbers must be numbers, integers whole and within
 * 32 bits, reals finite (a 400 otherwise, never a database error), text stays text. `name` names the
 * value in the message.
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
    if (f.storage === 'integer' && (n < INT32.min || n > INT32.max))
      throw badRequest(`'${name}' must be between ${INT32.min} and ${INT32.max}.`);
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
    if (sort[1] !== undefined && typeof sort[1] !== 'string') throw badRequest('Sort order must be ASC or DESC.');
    const order = (sort[1] ?? 'ASC').toUpperCase();
    if (!sortableFields(r).has(sort[0])) throw badRequest(`Cannot sort by '${sort[0]}'.`);
    if (order !== 'ASC' && order !== 'DESC') throw badRequest('Sort order must be ASC or DESC.');
    sortBy = { field: sort[0], order };
  }
  let start = 0;
  let end = DEFAULT_PAGE - 1;
  if (options.paging === 'page') {
    const page = positiveInteger(query.page, 'page', 1);
    // `pageSize` is the spec's name for it on some reads (`GET /email-history (page, pageSize)`).
    const limit = query.limit === undefined && query.pageSize !== undefined
      ? positiveInteger(query.pageSize, 'pageSize', DEFAULT_LIMIT, MAX_PAGE)
      : positiveInteger(query.limit, 'limit', DEFAULT_LIMIT, MAX_PAGE);
    start = (page - 1) * limit;
    end = start + limit - 1;
    if (!Number.isSafeInteger(end)) throw badRequest(`'page' is too large.`);
  }
  const range = options.paging === 'page' ? undefined : parseJson(query.range, 'range');
  if (range !== undefined) {
    // Safe integers only: 1e21 is an integer to JavaScript, but no engine takes it as an offset.
    if (!Array.isArray(range) || range.length !== 2 || !range.every((n) => Number.isSafeInteger(n) && n >= 0) || range[1] < range[0])
      throw badRequest('Malformed range: two whole numbers [first, last], from 0, last not before first.');
    [start, end] = range as [number, number];
  }
  end = Math.min(end, start + MAX_PAGE - 1);
  const filter = parseJson(query.filter, 'filter') ?? {};
  if (typeof filter !== 'object' || Array.isArray(filter) || filter === null) throw badRequest('Malformed filter.');
  const allowed = filterableFields(r);
  const equals: ListQuery['equals'] = {};
  const ranges: Record<string, DateRange> = {};
  let q: string | undefined;
  for (const [key, value] of Object.entries(filter as Record<string, unknown>)) {
    if (value === undefined || value === null || value === '') continue;
    if (key === 'q') {
      if (typeof value !== 'string') throw badRequest('Malformed filter: q must be text.');
      q = value.trim() || undefined;
      continue;
    }
    const range = allowed.has(key) ? undefined : rangeKey(r, key);
    if (range) {
      (ranges[range.field] ??= {})[range.end] = rangeEnd(value, range.end, key);
      continue;
    }
    if (!allowed.has(key)) throw badRequest(`Cannot filter by '${key}'.`);
    const f = r.fields.find((x) => x.name === key);
    if (Array.isArray(value) && value.length > MAX_FILTER_VALUES)
      throw badRequest(`Filter '${key}' may list at most ${MAX_FILTER_VALUES} values.`);
    equals[key] = Array.isArray(value) ? value.map((v) => storedValue(f, v, key)) : storedValue(f, value, key);
  }
  const after = options.paging === 'page' ? undefined : parseAfter(r, sortBy.field, query.after);
  return { sort: sortBy, start, end, q, equals, ...(Object.keys(ranges).length ? { ranges } : {}), ...(after ? { after } : {}) };
}

/** `after=["<sort value>","<id>"]`: the sort field's value as stored (a number for `sortAs: 'number'`) and an id. */
function parseAfter(r: ResourceDef, sortField: string, raw: unknown): ListQuery['after'] {
  const after = parseJson(raw, 'after');
  if (after === undefined) return undefined;
  if (!Array.isArray(after) || after.length !== 2 || typeof after[1] !== 'string' || after[0] === null || typeof after[0] === 'object')
    throw badRequest(`Malformed after: ["<${sortField}>", "<id>"], the last row of the page before.`);
  const f = r.fields.find((x) => x.name === sortField);
  // A text field sorted by its numeric value pages by that value.
  const byNumber = f?.sortAs === 'number' && f.storage === 'text';
  const value = byNumber ? storedValue({ ...f, storage: 'integer' }, after[0], 'after') : storedValue(f, after[0], 'after');
  return [value, after[1]];
}
