/** GET routes generated from each resource's `reads`. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_BASE, parseCall, routerPath, type ReadDef, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { guard } from '../auth/guard.ts';
import { embed, findBy, list, toRecord, type Db } from '../db/repository.ts';
import { parseListQuery } from '../db/list-query.ts';
import type { TableCounts } from '../db/counts.ts';
import { notFound } from '../errors.ts';

type Params = Record<string, string>;

export function registerRead(
  app: FastifyInstance,
  db: Db,
  registry: Registry,
  r: ResourceDef,
  read: ReadDef,
  counts: TableCounts,
) {
  const { path } = parseCall(read.call);
  const url = API_BASE + routerPath(path);
  const preHandler = guard(read.access ?? r.access.read);

  if (read.kind === 'self') {
    app.get(url, { preHandler }, async (request) => toRecord(r, request.user));
    return;
  }

  if (read.kind === 'one') {
    const by = read.by ?? 'id';
    app.get(url, { preHandler }, async (request: FastifyRequest) => {
      const value = Object.values(request.params as Params)[0];
      const row = toRecord(r, await findBy(db, r, by, value));
      if (!row) throw notFound(`${r.label} not found.`);
      return read.embed ? (await embed(db, registry, r, [row], read.embed))[0] : row;
    });
    return;
  }

  app.get(url, { preHandler }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const parsed = parseListQuery(r, query);
    let scope: Record<string, string> | undefined;
    if (read.scope) {
      const { field, param, match = 'id' } = read.scope;
      const given = (request.params as Params)[param] ?? query[param];
      if (typeof given === 'string' && given !== '') {
        const parentResource = registry.resource(r.fields.find((f) => f.name === field)!.reference!);
        const parent = match === 'id' ? { id: given } : await findBy(db, parentResource, match, given);
        if (!parent) throw notFound(`${parentResource.label} not found.`);
        scope = { [field]: parent.id as string };
      }
    }
    const { rows, total } = await list(db, r, parsed, scope, counts);
    const last = rows.length ? parsed.start + rows.length - 1 : parsed.start;
    reply.header('Content-Range', `${r.name} ${parsed.start}-${last}/${total}`);
    return read.embed ? embed(db, registry, r, rows, read.embed) : rows;
  });
}
