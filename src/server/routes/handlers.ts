/**
 * What a named server handler is given, for `action` dialogs and `operations` whose calls are more than a
 * create, update or delete. The handlers themselves are gathered in one map (src/server/handlers.ts),
 * whose names the manifests' `handler` are checked against by the type checker and at start-up.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { issuesByField, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { badRequest, VALIDATION_FAILED } from '../errors.ts';
import type { Db, Row } from '../db/types.ts';
import type { RecordsService } from '../records/service.ts';
import { ifMatchOf } from './versions.ts';

export interface HandlerContext {
  db: Db;
  registry: Registry;
  /** The resource that declares the dialog or operation. */
  resource: ResourceDef;
  request: FastifyRequest;
  /**
   * The reply. A handler may send it itself (a file, a custom status): the route then answers what was
   * sent and ignores the handler's result. Otherwise the result is answered as JSON (no result: 204).
   */
  reply: FastifyReply;
  /** The path parameters (`request.params`). */
  params: Record<string, string>;
  /** The query string (`request.query`). */
  query: Record<string, unknown>;
  /**
   * The body, already validated by the dialog's schema or the operation's `body`. An operation without
   * `body` gets `{}`: a handler reading another kind of body (multipart) reads it from `request`.
   */
  body: Record<string, unknown>;
  /**
   * The record `{id}` names, as the caller may see it: loaded (or answered 404) before the handler runs
   * when the declaring resource has an `owner`, so a handler need not read it again.
   */
  record?: Row;
  /**
   * The records service as the caller writes (its account, reach and host): every write a handler makes
   * goes through it, so it is owned, hooked, audited and dropped from the cache like a dialog's.
   */
  records: RecordsService;
  /** The version the caller last saw (`If-Match`), for `records.update`: a stale one is a 412. */
  ifMatch?: number;
  /**
   * Marks a table as written, so cached reads of it are dropped. The declaring resource is marked
   * after every call; a handler that writes other tables must mark them.
   */
  invalidate(table: string): void;
}

export type Handler = ((context: HandlerContext) => Promise<unknown>) & {
  /**
   * Prepares the route's own plugin scope (multipart parsing for uploads), so what one handler needs
   * is not paid by every other request.
   */
  scope?: (route: FastifyInstance) => Promise<void>;
};
export type Handlers = Record<string, Handler>;

/** A request body judged by `schema`: its parsed value, or a 400 with the messages by field. */
export function validBody(schema: z.ZodType, raw: unknown): Record<string, unknown> {
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) throw badRequest(VALIDATION_FAILED, issuesByField(parsed.error));
  return parsed.data as Record<string, unknown>;
}

/** Calls a named handler for a request: what dialogs' actions and operations share. */
export function callHandler(
  named: Handler,
  base: Pick<HandlerContext, 'db' | 'registry' | 'resource' | 'invalidate' | 'record' | 'records'>,
  request: FastifyRequest,
  reply: FastifyReply,
  body: Record<string, unknown>,
): Promise<unknown> {
  return named({
    ...base,
    ifMatch: ifMatchOf(request),
    request,
    reply,
    params: request.params as Record<string, string>,
    query: request.query as Record<string, unknown>,
    body,
  });
}

/** Fails (at startup) when a manifest names a handler the map does not hold (src/server/handlers.ts). */
export function checkHandlers(registry: Registry, handlers: Handlers) {
  const missing: string[] = [];
  for (const r of registry.resources) {
    for (const [type, d] of Object.entries(r.dialogs))
      if (d.kind === 'action' && !handlers[d.handler]) missing.push(`dialog ${r.name}.${type} → '${d.handler}'`);
    for (const [name, op] of Object.entries(r.operations))
      if (!handlers[op.handler]) missing.push(`operation ${r.name}.${name} → '${op.handler}'`);
  }
  if (missing.length) throw new Error(`No server handler registered for: ${missing.join('; ')}`);
}
