/** Every API route a manifest declares. */
import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../manifest/index.ts';
import type { Db } from '../db/types.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { registerDefaultRecord } from './default-record.ts';
import { registerDialog } from './dialogs.ts';
import { checkHandlers, type Handlers } from './handlers.ts';
import { registerOperation } from './operations.ts';
import { registerRead } from './reads.ts';
import { registerReorder } from './reorder.ts';
import { registerTransitions } from './transitions.ts';

/**
 * Registers the routes, with `handlers` the named handlers (src/server/handlers.ts): a name a manifest
 * uses that the map does not hold fails here, at start-up.
 */
export function registerManifestRoutes(app: FastifyInstance, db: Db, registry: Registry, cache: ReadCache, handlers: Handlers) {
  checkHandlers(registry, handlers);
  for (const r of registry.resources) {
    for (const read of Object.values(r.reads)) registerRead(app, db, registry, r, read, cache);
    for (const [type, d] of Object.entries(r.dialogs)) registerDialog(app, db, registry, handlers, r, type, d, cache);
    for (const [name, op] of Object.entries(r.operations)) registerOperation(app, db, registry, handlers, r, name, op, cache);
    registerDefaultRecord(app, db, registry, r, cache);
    registerReorder(app, db, registry, r);
    registerTransitions(app, db, registry, r, cache);
  }
}
