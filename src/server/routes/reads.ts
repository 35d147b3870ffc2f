/**
 * GET routes generated from each resource's `reads`. List, grouped and one-record answers are cached
 * until a write touches a table they were read from (see ReadCache), keyed by the query the server
 * really runs (the read, the parsed list query, the scope, the looked-up value), never by the URL: a
 * parameter the server ignores (`?nocache=1`) reuses the same entry. The signed-in user's own record
 * is read fresh.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import {
  parseCall,
  urlOf,
  routerPath,
  type GroupedRead,
  type ListRead,
  type OneRead,
  type ReadDef,
  type Registry,
  type ResourceDef,
} from '../../manifest/index.ts';
import { guardFor } from '../auth/guard.ts';
import { embed, embeddedTables, findBy, list, listJson, listQueries, toRecord, type Db, type Narrow, type Row, type Scope } from '../db/repository.ts';
import { accountsWhere, findReachable, findReachableJson, reachOf, reachTables, whereReachable, type Reach } from '../records/ownership.ts';
import { parseListQuery, storedValue, type ListQuery } from '../db/list-query.ts';
import { hasItems, relatedTablesOf, withItems } from '../db/line-items.ts';
import { ESTIMATED_HEADER } from '../db/count.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { notFound } from '../errors.ts';
import { etagOf } from './versions.ts';
import { asBody, joinedBody } from './answer-body.ts';
import { csvChunks, sendCsv, wantsCsv } from './export.ts';
import { labelledReferences } from '../db/labels.ts';
import { responseOptionsOf, serialize } from './response-schemas.ts';

type Params = Record<string, string>;
const JSON_TYPE = 'application/json; charset=utf-8';

/** A read's answer as it is cached: the serialized body and the headers that go with it. */
export interface Answer {
  /** The JSON text, or its bytes (a list's page: answer-body.ts). */
  body: string | Buffer;
  headers?: Record<string, string>;
}

/** Sends a (cached) answer. */
export function sendAnswer(reply: FastifyReply, answer: Answer) {
  if (answer.headers) reply.headers(answer.headers);
  return reply.type(JSON_TYPE).send(answer.body);
}

/** The most records a grouped read answers. */
export const MAX_GROUPED = 1000;

const fieldOf = (r: ResourceDef, name: string) => r.fields.find((f) => f.name === name);

export function registerRead(
  app: FastifyInstance,
  db: Db,
  registry: Registry,
  r: ResourceDef,
  read: ReadDef,
  cache: ReadCache,
) {
  const { path } = parseCall(read.call);
  const url = routerPath(urlOf(path));
  const preHandler = guardFor(r, { read });
  // The answer's schema, from the manifest, and its serialiser (response-schemas.ts).
  const options = { preHandler, ...responseOptionsOf(registry, r, read) };
  // The specification writes some reads both ways (`GET /social-links?type=` and `GET /social-links/`):
  // a read declared with a trailing slash answers without it too.
  const alias = url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : undefined;
  const get: Get = (handler) => {
    app.get(url, options, handler);
    if (alias && !app.hasRoute({ method: 'GET', url: alias })) app.get(alias, options, handler);
  };

  switch (read.kind) {
    case 'self':
      return get(async (request) => toRecord(r, request.user));
    case 'one':
      return registerOne(get, url, db, registry, r, read, cache);
    case 'grouped':
      return registerGrouped(get, url, db, registry, r, read, cache);
    case 'list':
      return registerList(get, url, db, registry, r, read, cache);
  }
}

type Get = (handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => void;

interface Owned {
  reach: Reach;
  narrow: Narrow | undefined;
  tables: readonly string[];
}

/**
 * What ownership asks of a read by this request's user: its reach, the narrowing of a list query (none
 * when every row is reached), and the tables the reach reads (a team is read from `users`). Made once
 * for a reach that reads every row (no owner, or a role that sees all), which is no one's in particular.
 */
function ownershipOf(registry: Registry, r: ResourceDef, request: FastifyRequest, all: Owned): Owned {
  const reach: Reach = reachOf(r, request.user);
  if (reach.kind === 'all') return all;
  return { reach, narrow: (query) => whereReachable(registry, r, reach, query), tables: reachTables(registry, r, reach) };
}

/** The reach of every row, for `ownershipOf`. */
const ALL_ROWS: Owned = { reach: { kind: 'all', key: '' }, narrow: undefined, tables: [] };

/** The tables an answer is read from: the read's own and, when the reach reads others, those too. */
const withOwned = (tables: readonly string[], owned: Owned) => (owned.tables.length ? [...tables, ...owned.tables] : tables);

function registerOne(get: Get, url: string, db: Db, registry: Registry, r: ResourceDef, read: OneRead, cache: ReadCache) {
  const by = read.by ?? 'id';
  const byField = fieldOf(r, by);
  // The path's one parameter, when the value is not fixed.
  const param = parseCall(read.call).params[0];
  const tables = [r.name, ...embeddedTables(registry, r, read.embed), ...relatedTablesOf(r)];
  // Items are written only with their parent, whose table every such write invalidates.
  const items = hasItems(r);
  const missing = read.notFound ?? `${r.label} not found.`;
  get(async (request, reply) => {
    // A fixed value (`/site-settings/delivery-time-notice`), else the path's one parameter; as stored,
    // so `/countries/7` and `/countries/07` share an entry (and a malformed one is a 400, never kept).
    const value = storedValue(byField, read.value ?? (request.params as Params)[param], by);
    // Another owner's record is answered as one that does not exist.
    const owned = ownershipOf(registry, r, request, ALL_ROWS);
    const answer = await cache.get(`one ${url} ${typeof value} ${value} ${owned.reach.key}`, withOwned(tables, owned), async (): Promise<Answer> => {
      // Nothing embedded: the record as the database writes it (findReachableJson). A record with `items`
      // is answered from its row, its items embedded (line-items.ts): the JSON text holds its columns only.
      const written = read.embed || items ? undefined : await findReachableJson(db, registry, r, owned.reach, by, value);
      if (written === null) throw notFound(missing);
      if (written) return { body: written.record, headers: { ETag: etagOf(written.version) } };
      const row = toRecord(r, await findReachable(db, registry, r, owned.reach, by, value));
      if (!row) throw notFound(missing);
      if (items) await withItems(db, r, [row]);
      const body = serialize(reply, read.embed ? (await embed(db, registry, r, [row], read.embed))[0] : row);
      // The version an update dialog sends back as If-Match.
      return { body, headers: { ETag: etagOf(row.version) } };
    });
    return sendAnswer(reply, answer);
  });
}

function registerGrouped(get: Get, url: string, db: Db, registry: Registry, r: ResourceDef, read: GroupedRead, cache: ReadCache) {
  const query: ListQuery = { sort: r.sort, start: 0, end: MAX_GROUPED - 1, equals: {} };
  get(async (request, reply) => {
    // The query is fixed: every request of this read by users of one reach is the same one.
    const owned = ownershipOf(registry, r, request, ALL_ROWS);
    const answer = await cache.get(`grouped ${url} ${owned.reach.key}`, withOwned([r.name, ...relatedTablesOf(r)], owned), async (): Promise<Answer> => {
      const rows = (await listQueries(db, r, query, undefined, owned.narrow).page.execute()).map((row) => toRecord(r, row)!);
      if (hasItems(r)) await withItems(db, r, rows);
      // Grouped in a Map: the names are users' text, and on a plain object a group named `constructor`,
      // `toString` or `__proto__` found what Object.prototype holds under that name, not an array (a 500).
      const groups = new Map<string, Row[]>();
      for (const row of rows) {
        const name = String(row[read.by] ?? '');
        const group = groups.get(name);
        if (group) group.push(row);
        else groups.set(name, [row]);
      }
      return { body: serialize(reply, Object.fromEntries(groups)) };
    });
    return sendAnswer(reply, answer);
  });
}

/**
 * A list query as a cache key: the same key exactly when the server runs the same query. Filters are
 * put in name order; text is JSON-quoted so no two queries can spell one key.
 */
function listKey(url: string, q: ListQuery, scope: unknown): string {
  const names = Object.keys(q.equals);
  const equals = names.length ? JSON.stringify(names.sort().map((n) => [n, q.equals[n]])) : '';
  const ranged = Object.keys(q.ranges ?? {});
  const ranges = ranged.length ? JSON.stringify(ranged.sort().map((n) => [n, q.ranges![n].gte ?? null, q.ranges![n].lte ?? null])) : '';
  return `list ${url} ${q.sort.field} ${q.sort.order} ${q.start}-${q.end} ${q.q === undefined ? '' : JSON.stringify(q.q)} ${equals} ${ranges} ${scope === undefined ? '' : JSON.stringify(scope)}${q.after ? ` after ${JSON.stringify(q.after)}` : ''}`;
}

function registerList(get: Get, url: string, db: Db, registry: Registry, r: ResourceDef, read: ListRead, cache: ReadCache) {
  const scoped = read.scope ? fieldOf(r, read.scope.field)! : undefined;
  // A reference is matched through its parent; any other field is compared with the parameter itself.
  const scopeParent = scoped?.kind === 'reference' ? registry.resource(scoped.reference!) : undefined;
  // Everything an answer is read from: a write to any of these makes a cached answer stale.
  const tables = [r.name, ...embeddedTables(registry, r, read.embed), ...relatedTablesOf(r), ...(scopeParent ? [scopeParent.name] : [])];
  const paging = read.paging ?? 'range';

  /**
   * What decides the scope: the value the request names (as stored, or as the parent is matched by),
   * or undefined when the read has no scope or the request names none. Cheap: no database.
   */
  function scopeValueOf(request: FastifyRequest): string | number | undefined {
    if (!read.scope || !scoped) return undefined;
    const { param } = read.scope;
    const given = (request.params as Params)[param] ?? (request.query as Record<string, unknown>)[param];
    if (given === undefined || given === '') return undefined;
    if (!scopeParent) return storedValue(scoped, given, param);
    return typeof given === 'string' ? given : undefined;
  }

  /** The scope the value names: the field's own value, or the parent's (looked up when matched by another field). */
  async function scopeOf(value: string | number | undefined): Promise<Scope | undefined> {
    if (value === undefined || !read.scope || read.scope.through) return undefined;
    const { field, match = 'id' } = read.scope;
    if (!scopeParent) return { [field]: value };
    // What the reference holds: the parent's id, or the field named by `referenceBy`.
    const held = scoped!.referenceBy ?? 'id';
    if (match === held) return { [field]: value };
    const parent = await findBy(db, scopeParent, match, value);
    if (!parent) throw notFound(`${scopeParent.label} not found.`);
    return { [field]: parent[held] as string };
  }

  /** A scope `through` an account: the rows whose account's `through` field holds the value. */
  function throughOf(value: string | number | undefined): Narrow | undefined {
    const through = read.scope?.through;
    if (!through || value === undefined) return undefined;
    const column = `${r.name}.${read.scope!.field}`;
    return <QB extends SelectQueryBuilder<any, any, any>>(query: QB) =>
      query.where(column, 'in', accountsWhere(db, through, value)) as QB;
  }

  get(async (request, reply) => {
    // Parsed before the cache: a malformed query is a 400 (never kept), and the key is the query run.
    const parsed = parseListQuery(r, request.query as Record<string, unknown>, { paging });
    const scopeValue = scopeValueOf(request);
    const reached = ownershipOf(registry, r, request, ALL_ROWS);
    const through = throughOf(scopeValue);
    const owned: Owned = !through
      ? reached
      : { ...reached, narrow: reached.narrow ? (query) => through(reached.narrow!(query)) : through };
    // `?format=csv`: every row this query selects, streamed (export.ts), its references also by their
    // labels where the reader may read them; never cached.
    if (wantsCsv(request.query as Record<string, unknown>)) {
      const labels = { registry, fields: labelledReferences(registry, r, request.user) };
      return sendCsv(reply, r, csvChunks(db, r, parsed, await scopeOf(scopeValue), owned.narrow, labels));
    }
    const key = `${listKey(url, parsed, scopeValue)} ${owned.reach.key}`;
    const readFrom = withOwned(tables, owned);
    const answer = await cache.get(key, readFrom, async (): Promise<Answer> => {
      const scope = await scopeOf(scopeValue);
      const kept = { cache, tables: readFrom };
      const limit = parsed.end - parsed.start + 1;
      const page = Math.floor(parsed.start / limit) + 1;
      // The records written as JSON by the database itself (json-records.ts), unless the read embeds others
      // or the records have items (read for the whole page in one query per items field: line-items.ts).
      const written = read.embed || hasItems(r) ? undefined : await listJson(db, r, parsed, scope, kept, owned.narrow);
      let body: string | Buffer, count: number, total: number, estimated: boolean | undefined;
      if (written) {
        ({ total, estimated } = written);
        count = written.count;
        // The envelope as `serialize` writes it: the schema names exactly these four, in this order.
        // `joined` is the page's JSON array: as it came (SQLite's bytes are the read worker's, moved, not copied), or enveloped.
        body = paging === 'page'
          ? joinedBody('{"data":', written.joined, `,"total":${total},"page":${page},"limit":${limit}}`)
          : asBody(written.joined);
      } else {
        const listed = await list(db, r, parsed, scope, kept, owned.narrow);
        ({ total, estimated } = listed);
        count = listed.rows.length;
        if (hasItems(r)) await withItems(db, r, listed.rows);
        const data = read.embed ? await embed(db, registry, r, listed.rows, read.embed) : listed.rows;
        body = serialize(reply, paging === 'page' ? { data, total, page, limit } : data);
      }
      const last = count ? parsed.start + count - 1 : parsed.start;
      const range = `${r.name} ${parsed.start}-${last}/${total}`;
      // Above count.ts's bound, PostgreSQL's total is the planner's estimate: said so, and the list says "about".
      return { body, headers: estimated ? { 'Content-Range': range, [ESTIMATED_HEADER]: 'true' } : { 'Content-Range': range } };
    });
    return sendAnswer(reply, answer);
  });
}
