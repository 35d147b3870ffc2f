/**
 * Write routes generated from each resource's dialogs: the dialog's call, its access, and its body
 * validated by the same strict zod schema the form uses.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  bodySchema,
  issuesByField,
  parseCall,
  routerPath,
  urlOf,
  type DialogDef,
  type Registry,
  type ResourceDef,
} from '../../manifest/index.ts';
import { guard } from '../auth/guard.ts';
import type { Db } from '../db/repository.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { createRecord, removeRecord, updateRecord } from '../db/writes.ts';
import { badRequest, VALIDATION_FAILED } from '../errors.ts';
import type { Handlers } from './handlers.ts';

export function registerDialog(
  app: FastifyInstance,
  db: Db,
  registry: Registry,
  handlers: Handlers,
  r: ResourceDef,
  type: string,
  d: DialogDef,
  cache: ReadCache,
) {
  if (!('call' in d)) return; // details dialogs read, they call nothing of their own
  const { method, path } = parseCall(d.call);
  const url = routerPath(urlOf(path));
  const preHandler = guard(d.access ?? r.access.write);
  const schema = bodySchema(r, d);
  const validBody = (request: FastifyRequest) => {
    const parsed = schema.safeParse(request.body ?? {});
    if (!parsed.success) throw badRequest(VALIDATION_FAILED, issuesByField(parsed.error));
    return parsed.data as Record<string, unknown>;
  };
  const id = (request: FastifyRequest) => (request.params as { id: string }).id;

  let handler: (request: FastifyRequest) => Promise<unknown>;
  switch (d.kind) {
    case 'create':
      handler = (request) => createRecord(db, registry, r, validBody(request));
      break;
    case 'update':
      handler = (request) => updateRecord(db, registry, r, id(request), validBody(request));
      break;
    case 'remove':
      handler = (request) => removeRecord(db, registry, r, id(request));
      break;
    case 'action': {
      const named = handlers[d.handler];
      if (!named) throw new Error(`Dialog ${type}: no server handler named '${d.handler}'`);
      handler = (request) =>
        named({ db, registry, resource: r, request, body: validBody(request), invalidate: (t) => cache.invalidate(t) });
      break;
    }
  }
  app.route({
    method,
    url,
    preHandler,
    handler: async (request, reply) => {
      const result = await handler(request);
      cache.invalidate(r.name);
      if (d.kind === 'create') reply.code(201);
      return result;
    },
  });
}
