/** Every API route a manifest declares. */
import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../manifest/index.ts';
import type { Db } from '../db/repository.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { registerDefaultRecord } from './default-record.ts';
import { registerDialog } from './dialogs.ts';
import { checkHandlers, handlers } from './handlers.ts';
import { registerOperation } from './operations.ts';
import { registerRead } from './reads.ts';
import { registerReorder } from './reorder.ts';

/**
 * Registers the routes. Every handler a manifest names must be registered by now (modules that add
 * handlers are imported before this runs): a missing one fails here, at startup.
 */
export function registerManifestRoutes(app: FastifyInstance, db: Db, registry: Registry, cache: ReadCache) {
  checkHandlers(registry);
  for (const r of registry.resources) {
    for (const read of Object.values(r.reads)) registerRead(app, db, registry, r, read, cache);
    for (const [type, d] of Object.entries(r.dialogs)) registerDialog(app, db, registry, handlers, r, type, d, cache);
    for (const [name, op] of Object.entries(r.operations)) registerOperation(app, db, registry, handlers, r, name, op, cache);
    registerDefaultRecord(app, db, registry, r, cache);
    registerReorder(app, db, r, cache);
  }
}
