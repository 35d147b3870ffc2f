/**
 * Routes of a resource's `operations`: the declared call, its access (`op.access`, else the resource's
 * `write`), the body judged by `op.body` when declared, then the named handler.
 */
import type { FastifyInstance } from 'fastify';
import { parseCall, routerPath, urlOf, type OperationDef, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { guard } from '../auth/guard.ts';
import type { Db } from '../db/repository.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { answer } from './dialogs.ts';
import { callHandler, validBody, type Handlers } from './handlers.ts';

export function registerOperation(
  app: FastifyInstance,
  db: Db,
  registry: Registry,
  handlers: Handlers,
  r: ResourceDef,
  name: string,
  op: OperationDef,
  cache: ReadCache,
) {
  const named = handlers[op.handler];
  if (!named) throw new Error(`Operation ${r.name}.${name}: no server handler named '${op.handler}'`);
  const { method, path } = parseCall(op.call);
  const invalidate = (table: string) => cache.invalidate(table);
  const route = (scope: FastifyInstance) =>
    scope.route({
      method,
      url: routerPath(urlOf(path)),
      preHandler: guard(op.access ?? r.access.write),
      handler: async (request, reply) => {
        const body = op.body ? validBody(op.body, request.body) : {};
        let result: unknown;
        try {
          result = await callHandler(named, { db, registry, resource: r, invalidate }, request, reply, body);
        } finally {
          invalidate(r.name);
        }
        return answer(reply, result);
      },
    });
  // A handler that needs plugins of its own (multipart) gets them in a scope holding its route alone.
  const { scope } = named;
  if (scope)
    void app.register(async (child) => {
      await scope(child);
      route(child);
    });
  else route(app);
}
