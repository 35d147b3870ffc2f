/**
 * Routes of a resource's `operations`: the declared call, its access (`op.access`, else the resource's
 * `write`), the body judged by `op.body` when declared, then the named handler.
 */
import type { FastifyInstance } from 'fastify';
import { issuesByField, parseCall, routerPath, urlOf, type OperationDef, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { guard } from '../auth/guard.ts';
import type { Db } from '../db/repository.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { badRequest, VALIDATION_FAILED } from '../errors.ts';
import { answer } from './dialogs.ts';
import type { Handlers } from './handlers.ts';

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
  app.route({
    method,
    url: routerPath(urlOf(path)),
    preHandler: guard(op.access ?? r.access.write),
    handler: async (request, reply) => {
      let body: Record<string, unknown> = {};
      if (op.body) {
        const parsed = op.body.safeParse(request.body ?? {});
        if (!parsed.success) throw badRequest(VALIDATION_FAILED, issuesByField(parsed.error));
        body = parsed.data as Record<string, unknown>;
      }
      let result: unknown;
      try {
        result = await named({
          db,
          registry,
          resource: r,
          request,
          reply,
          params: request.params as Record<string, string>,
          query: request.query as Record<string, unknown>,
          body,
          invalidate,
        });
      } finally {
        invalidate(r.name);
      }
      return answer(reply, result);
    },
  });
}
