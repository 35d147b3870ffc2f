/**
 * The records service as a request writes: the signed-in user, the host it came to, the app's read
 * cache (what it writes is dropped from it) and the services hooks may use.
 */
import type { FastifyRequest } from 'fastify';
import type { Registry } from '../../manifest/registry.ts';
import type { HookServices } from '../../manifest/hooks.ts';
import type { Db } from '../db/types.ts';
import { actorOf } from '../records/audit.ts';
import { RecordsService } from '../records/service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** What hooks are given besides records (`HookServices`): filled by the modules that offer one. */
    hookServices: HookServices;
  }
}

export function recordsOf(request: FastifyRequest, db: Db, registry: Registry): RecordsService {
  const app = request.server;
  return new RecordsService({
    db,
    registry,
    user: request.user,
    actor: actorOf(request),
    hostRoot: `${request.protocol}://${request.host}/`,
    invalidate: (table) => app.readCache?.invalidate(table),
    services: app.hasDecorator('hookServices') ? app.hookServices : ({} as HookServices),
  });
}
