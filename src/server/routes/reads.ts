/**
 * GET routes generated from each resource's `reads`. List and one-record answers are cached by URL
 * until a write touches a table they were read from (see ReadCache); the signed-in user's own record
 * is read fresh.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseCall, urlOf, routerPath, type ReadDef, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { guard } from '../auth/guard.ts';
import { embed, embeddedTables, findBy, list, toRecord, type Db } from '../db/repository.ts';
import { parseListQuery } from '../db/list-query.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { notFound } from '../errors.ts';

type Params = Record<string, string>;
const JSON_TYPE = 'application/json; charset=utf-8';

function parentOf(registry: Registry, r: ResourceDef, field: string) {
  return registry.resource(r.fields.find((f) => f.name === field)!.reference!);
}

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

  if (read.kind === 'self') {
    app.get(url, { preHandler }, async (request) => toRecord(r, request.user));
    return;
  }

  // Everything an answer is read from: a write to any of these makes a cached answer stale.
  const scopeParent = read.kind === 'list' && read.scope ? parentOf(registry, r, read.scope.field) : undefined;
  const tables = [r.name, ...embeddedTables(registry, r, read.embed), ...(scopeParent ? [scopeParent.name] : [])];

  if (read.kind === 'one') {
    const by = read.by ?? 'id';
    app.get(url, { preHandler }, async (request: FastifyRequest, reply) => {
      const body = await cache.get(request.url, tables, async () => {
        const value = Object.values(request.params as Params)[0];
        const row = toRecord(r, await findBy(db, r, by, value));
        if (!row) throw notFound(`${r.label} not found.`);
        return JSON.stringify(read.embed ? (await embed(db, registry, r, [row], read.embed))[0] : row);
      });
      return reply.type(JSON_TYPE).send(body);
    });
    return;
  }

  app.get(url, { preHandler }, async (request, reply) => {
    const answer = await cache.get(request.url, tables, async () => {
      const query = request.query as Record<string, unknown>;
      const parsed = parseListQuery(r, query);
      let scope: Record<string, string> | undefined;
      if (read.scope && scopeParent) {
        const { field, param, match = 'id' } = read.scope;
        const given = (request.params as Params)[param] ?? query[param];
        if (typeof given === 'string' && given !== '') {
          const parent = match === 'id' ? { id: given } : await findBy(db, scopeParent, match, given);
          if (!parent) throw notFound(`${scopeParent.label} not found.`);
          scope = { [field]: parent.id as string };
        }
      }
      const { rows, total } = await list(db, r, parsed, scope, cache);
      const last = rows.length ? parsed.start + rows.length - 1 : parsed.start;
      const body = JSON.stringify(read.embed ? await embed(db, registry, r, rows, read.embed) : rows);
      return { range: `${r.name} ${parsed.start}-${last}/${total}`, body };
    });
    return reply.header('Content-Range', answer.range).type(JSON_TYPE).send(answer.body);
  });
}
