/**
 * GET routes generated from each resource's `reads`. List, grouped and one-record answers are cached
 * by URL until a write touches a table they were read from (see ReadCache); the signed-in user's own
 * record is read fresh.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
import { guard } from '../auth/guard.ts';
import { embed, embeddedTables, findBy, list, listQueries, toRecord, type Db, type Row, type Scope } from '../db/repository.ts';
import { parseListQuery, storedValue, type ListQuery } from '../db/list-query.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { notFound } from '../errors.ts';

type Params = Record<string, string>;
const JSON_TYPE = 'application/json; charset=utf-8';
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
  const preHandler = guard(read.access ?? r.access.read);
  // The specification writes some reads both ways (`GET /social-links?type=` and `GET /social-links/`):
  // a read declared with a trailing slash answers without it too.
  const alias = url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : undefined;
  const get: Get = (handler) => {
    app.get(url, { preHandler }, handler);
    if (alias && !app.hasRoute({ method: 'GET', url: alias })) app.get(alias, { preHandler }, handler);
  };

  switch (read.kind) {
    case 'self':
      return get(async (request) => toRecord(r, request.user));
    case 'one':
      return registerOne(get, db, registry, r, read, cache);
    case 'grouped':
      return registerGrouped(get, db, r, read, cache);
    case 'list':
      return registerList(get, db, registry, r, read, cache);
  }
}

type Get = (handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => void;

function registerOne(get: Get, db: Db, registry: Registry, r: ResourceDef, read: OneRead, cache: ReadCache) {
  const by = read.by ?? 'id';
  const tables = [r.name, ...embeddedTables(registry, r, read.embed)];
  get(async (request, reply) => {
    const body = await cache.get(request.url, tables, async () => {
      // A fixed value (`/site-settings/delivery-time-notice`), else the path's one parameter.
      const raw = read.value ?? Object.values(request.params as Params)[0];
      const row = toRecord(r, await findBy(db, r, by, storedValue(fieldOf(r, by), raw, by)));
      if (!row) throw notFound(`${r.label} not found.`);
      return JSON.stringify(read.embed ? (await embed(db, registry, r, [row], read.embed))[0] : row);
    });
    return reply.type(JSON_TYPE).send(body);
  });
}

function registerGrouped(get: Get, db: Db, r: ResourceDef, read: GroupedRead, cache: ReadCache) {
  const query: ListQuery = { sort: r.sort, start: 0, end: MAX_GROUPED - 1, equals: {} };
  get(async (request, reply) => {
    const body = await cache.get(request.url, [r.name], async () => {
      const rows = (await listQueries(db, r, query).page.execute()).map((row) => toRecord(r, row)!);
      const groups: Record<string, Row[]> = {};
      for (const row of rows) (groups[String(row[read.by] ?? '')] ??= []).push(row);
      return JSON.stringify(groups);
    });
    return reply.type(JSON_TYPE).send(body);
  });
}

function registerList(get: Get, db: Db, registry: Registry, r: ResourceDef, read: ListRead, cache: ReadCache) {
  const scoped = read.scope ? fieldOf(r, read.scope.field)! : undefined;
  // A reference is matched through its parent; any other field is compared with the parameter itself.
  const scopeParent = scoped?.kind === 'reference' ? registry.resource(scoped.reference!) : undefined;
  // Everything an answer is read from: a write to any of these makes a cached answer stale.
  const tables = [r.name, ...embeddedTables(registry, r, read.embed), ...(scopeParent ? [scopeParent.name] : [])];
  const paging = read.paging ?? 'range';

  /** The scope the request names, or none when its parameter is absent. */
  async function scopeOf(request: FastifyRequest): Promise<Scope | undefined> {
    if (!read.scope || !scoped) return undefined;
    const { field, param, match = 'id' } = read.scope;
    const given = (request.params as Params)[param] ?? (request.query as Record<string, unknown>)[param];
    if (given === undefined || given === '') return undefined;
    if (!scopeParent) return { [field]: storedValue(scoped, given, param) };
    if (typeof given !== 'string') return undefined;
    // What the reference holds: the parent's id, or the field named by `referenceBy`.
    const held = scoped.referenceBy ?? 'id';
    if (match === held) return { [field]: given };
    const parent = await findBy(db, scopeParent, match, given);
    if (!parent) throw notFound(`${scopeParent.label} not found.`);
    return { [field]: parent[held] as string };
  }

  get(async (request, reply) => {
    const answer = await cache.get(request.url, tables, async () => {
      const query = request.query as Record<string, unknown>;
      const parsed = parseListQuery(r, query, { paging });
      const { rows, total } = await list(db, r, parsed, await scopeOf(request), cache);
      const last = rows.length ? parsed.start + rows.length - 1 : parsed.start;
      const data = read.embed ? await embed(db, registry, r, rows, read.embed) : rows;
      const limit = parsed.end - parsed.start + 1;
      const body = JSON.stringify(
        paging === 'page' ? { data, total, page: Math.floor(parsed.start / limit) + 1, limit } : data,
      );
      return { range: `${r.name} ${parsed.start}-${last}/${total}`, body };
    });
    return reply.header('Content-Range', answer.range).type(JSON_TYPE).send(answer.body);
  });
}
