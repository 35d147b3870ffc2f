/**
 * Write routes generated from each resource's dialogs: the dialog's call, its access, and its body
 * validated by the same strict zod schema the form uses, then brought to the stored shape (`fromWire`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  bodySchema,
  fromWire,
  parseCall,
  routerPath,
  urlOf,
  type DialogDef,
  type Registry,
  type ResourceDef,
} from '../../manifest/index.ts';
import { guardFor } from '../auth/guard.ts';
import type { Db } from '../db/types.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { StaleVersion } from '../records/writes.ts';
import { etagOf, ifMatchOf } from './versions.ts';
import { callHandler, validBody, type Handlers } from './handlers.ts';
import { recordsOf } from './records-of.ts';
import { declaredNotices, deliverAfterCommit, notificationsOf, notifyDeclared, type DeclaredNotices } from '../../features/notifications/server/declared.ts';

/** Answers a handler's result unless the handler sent the reply itself; nothing to answer is a 204. */
export function answer(reply: FastifyReply, result: unknown) {
  if (reply.sent) return reply;
  if (result === undefined) return reply.code(204).send();
  return result;
}

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
  const preHandler = guardFor(r, { dialog: d });
  const schema = bodySchema(r, d);
  const storedBody = (request: FastifyRequest) => fromWire(d, validBody(schema, request.body));
  const id = (request: FastifyRequest) => (request.params as { id: string }).id;
  const invalidate = (table: string) => cache.invalidate(table);

  // The manifest's `notify`: a create's or update's notifications are stored in its own transaction
  // (`within`) and told once it committed; any other call's after it committed, in a transaction of their own.
  const declared = 'notify' in d && d.notify ? notificationsOf(d) : [];
  const inWrite = d.kind === 'create' || d.kind === 'update';
  let handler: (request: FastifyRequest, reply: FastifyReply, notices?: DeclaredNotices) => Promise<unknown>;
  switch (d.kind) {
    case 'create':
      handler = async (request, _reply, notices) => recordsOf(request, db, registry).create(r, storedBody(request), { within: notices?.store, labelled: notices?.labelled });
      break;
    case 'update':
      // An owned record's body is judged once the record is found: out of reach is a 404, not a 400
      // telling it exists. Where every row is reachable, the body is judged first, as it always was.
      handler = async (request, _reply, notices) =>
        recordsOf(request, db, registry).update(r, id(request), r.access.owner ? () => storedBody(request) : storedBody(request), { ifMatch: ifMatchOf(request), within: notices?.store, labelled: notices?.labelled });
      break;
    case 'remove':
      handler = async (request) => recordsOf(request, db, registry).remove(r, id(request), { recycle: d.recycle });
      break;
    case 'action': {
      const named = handlers[d.handler];
      if (!named) throw new Error(`Dialog ${type}: no server handler named '${d.handler}'`);
      // An action on one record of an owned resource (the declaring one, or the one `on` names: applying
      // is a form of the applications on a job): out of the caller's reach is a 404 first.
      const on = d.on ? registry.resource(d.on) : r;
      const ownedRecord = !!on.access.owner && parseCall(d.call).params.includes('id');
      handler = async (request, reply) => {
        const records = recordsOf(request, db, registry);
        const record = ownedRecord ? await records.reachable(on, id(request)) : undefined;
        return callHandler(named, { db, registry, resource: r, invalidate, record, records }, request, reply, storedBody(request));
      };
      break;
    }
  }
  app.route({
    method,
    url,
    preHandler,
    handler: async (request, reply) => {
      let result: unknown;
      const notices = inWrite ? declaredNotices(request, db, registry, r, declared) : undefined;
      try {
        result = await handler(request, reply, notices);
      } catch (error) {
        // A stale update answers the record as it is now, so the dialog can show both sides.
        if (error instanceof StaleVersion)
          return reply.code(412).header('ETag', etagOf(error.current.version)).send({ message: error.message, current: error.current });
        throw error;
      } finally {
        // Also after a failure: an action handler may have written before it failed.
        invalidate(r.name);
      }
      if (notices) await deliverAfterCommit(request, notices);
      else if (declared.length) await notifyDeclared(request, db, registry, r, declared, result);
      if (d.kind === 'create' && !reply.sent) reply.code(201);
      const version = (result as { version?: unknown } | undefined)?.version;
      if ((d.kind === 'create' || d.kind === 'update') && version !== undefined && !reply.sent) reply.header('ETag', etagOf(version));
      return answer(reply, result);
    },
  });
}
