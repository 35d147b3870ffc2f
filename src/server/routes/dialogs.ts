/**
 * Write routes generated from each resource's dialogs: the dialog's call, its access, and its body
 * validated by the same strict zod schema the form uses, then brought to the stored shape (`fromWire`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  bodySchema,
  dialogAccess,
  fromWire,
  parseCall,
  routerPath,
  urlOf,
  type DialogDef,
  type Registry,
  type ResourceDef,
} from '../../manifest/index.ts';
import { RECYCLE_BIN } from '../../../resources/system.ts';
import { guard } from '../auth/guard.ts';
import type { Db, Row } from '../db/repository.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { actorOf } from '../db/audit.ts';
import { createRecord, removeRecord, StaleVersion, updateRecord, type WriteContext } from '../db/writes.ts';
import { etagOf, ifMatchOf } from './versions.ts';
import { ownedInput, reachableRow, reachOf } from '../db/ownership.ts';
import { afterRemove, callHandler, validBody, type AfterRemove, type Handlers } from './handlers.ts';
import { notificationsOf, notifyDeclared } from '../../features/notifications/server/declared.ts';

/** What a write takes from the request besides its body. */
export function writeContext(request: FastifyRequest, r?: ResourceDef): WriteContext {
  return {
    hostRoot: `${request.protocol}://${request.host}/`,
    actor: actorOf(request),
    ifMatch: ifMatchOf(request),
    ...(r?.owner ? { reach: reachOf(r, request.user) } : {}),
  };
}


/** Answers a handler's result unless the handler sent the reply itself; nothing to answer is a 204. */
export function answer(reply: FastifyReply, result: unknown) {
  if (reply.sent) return reply;
  if (result === undefined) return reply.code(204).send();
  return result;
}

/**
 * The hook a delete of `r`'s records runs. Purging a recycle-bin entry deletes the recycled record for
 * good, so it runs the hook of the resource the record came from too (with the stored row).
 */
function afterRemoveOf(r: ResourceDef): AfterRemove | undefined {
  if (r.name !== RECYCLE_BIN) return afterRemove[r.name];
  return async (entry, trx, request) => {
    await afterRemove[RECYCLE_BIN]?.(entry, trx, request);
    const hook = afterRemove[String(entry.resource)];
    if (!hook) return;
    let row: unknown;
    try {
      row = JSON.parse(String(entry.data));
    } catch {
      return; // a damaged entry has nothing left to clean up after
    }
    if (row && typeof row === 'object') await hook(row as Row, trx, request);
  };
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
  const preHandler = guard(dialogAccess(r, d));
  const schema = bodySchema(r, d);
  const storedBody = (request: FastifyRequest) => fromWire(d, validBody(schema, request.body));
  const id = (request: FastifyRequest) => (request.params as { id: string }).id;
  const invalidate = (table: string) => cache.invalidate(table);

  let handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  switch (d.kind) {
    case 'create':
      handler = async (request) => {
        const body = await ownedInput(db, registry, r, request.user, storedBody(request), true);
        return createRecord(db, registry, r, body, writeContext(request, r));
      };
      break;
    case 'update':
      handler = async (request) => {
        // Out of reach is a 404 before the body is judged: a 400 would tell the id exists.
        if (r.owner) await reachableRow(db, registry, r, request.user, id(request));
        const body = await ownedInput(db, registry, r, request.user, storedBody(request), false);
        return updateRecord(db, registry, r, id(request), body, writeContext(request, r));
      };
      break;
    case 'remove':
      handler = async (request) => {
        const hook = afterRemoveOf(r);
        const result = await removeRecord(db, registry, r, id(request), {
          recycle: d.recycle,
          actor: actorOf(request),
          reach: r.owner ? reachOf(r, request.user) : undefined,
          afterRemove: hook && ((row, trx) => hook(row, trx, request)),
        });
        if (d.recycle) invalidate(RECYCLE_BIN);
        return result;
      };
      break;
    case 'action': {
      const named = handlers[d.handler];
      if (!named) throw new Error(`Dialog ${type}: no server handler named '${d.handler}'`);
      // An action on one record of an owned resource: out of the caller's reach is a 404 first.
      const ownedRecord = !!r.owner && parseCall(d.call).params.includes('id');
      handler = async (request, reply) => {
        const record = ownedRecord ? await reachableRow(db, registry, r, request.user, id(request)) : undefined;
        return callHandler(named, { db, registry, resource: r, invalidate, record }, request, reply, storedBody(request));
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
      try {
        result = await handler(request, reply);
      } catch (error) {
        // A stale update answers the record as it is now, so the dialog can show both sides.
        if (error instanceof StaleVersion)
          return reply.code(412).header('ETag', etagOf(error.current.version)).send({ message: error.message, current: error.current });
        throw error;
      } finally {
        // Also after a failure: an action handler may have written before it failed.
        invalidate(r.name);
      }
      // The manifest's `notify`: after the write committed, about the record it answers.
      if ('notify' in d && d.notify) await notifyDeclared(request, db, registry, r, notificationsOf(d), result);
      if (d.kind === 'create' && !reply.sent) reply.code(201);
      const version = (result as { version?: unknown } | undefined)?.version;
      if ((d.kind === 'create' || d.kind === 'update') && version !== undefined && !reply.sent) reply.header('ETag', etagOf(version));
      return answer(reply, result);
    },
  });
}
