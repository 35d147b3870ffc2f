/**
 * Routes of a resource's `operations`: the declared call, its access (`op.access`, else the resource's
 * `write`), the body judged by `op.body` when declared, then the named handler.
 */
import type { FastifyInstance } from 'fastify';
import { parseCall, routerPath, urlOf, type OperationDef, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { guardFor } from '../auth/guard.ts';
import type { Db } from '../db/types.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { answer } from './dialogs.ts';
import { callHandler, validBody, type Handlers } from './handlers.ts';
import { recordsOf } from './records-of.ts';
import { notificationsOf, notifyDeclared } from '../../features/notifications/server/declared.ts';

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
  const { method, path, params } = parseCall(op.call);
  // An operation on one record of an owned resource: a record out of the caller's reach is a 404
  // before the handler runs (handlers are given it as `record`).
  const ownedRecord = !!r.access.owner && params.includes('id');
  const invalidate = (table: string) => cache.invalidate(table);
  const url = routerPath(urlOf(path));
  // As for reads: a call the spec writes with a trailing slash (`GET /agents/public/`) answers without it too.
  const alias = url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : undefined;
  const route = (scope: FastifyInstance) => {
    for (const at of alias && !scope.hasRoute({ method, url: alias }) ? [url, alias] : [url]) register(scope, at);
  };
  const register = (scope: FastifyInstance, at: string) =>
    scope.route({
      method,
      url: at,
      preHandler: guardFor(r, { operation: op }),
      handler: async (request, reply) => {
        const records = recordsOf(request, db, registry);
        const record = ownedRecord ? await records.reachable(r, (request.params as { id?: string }).id) : undefined;
        const body = op.body ? validBody(op.body, request.body) : {};
        let result: unknown;
        try {
          result = await callHandler(named, { db, registry, resource: r, invalidate, record, records }, request, reply, body);
        } finally {
          invalidate(r.name);
        }
        // The manifest's `notify`: after the call succeeded, about the record it answers.
        if (op.notify) await notifyDeclared(request, db, registry, r, notificationsOf(op), result);
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
