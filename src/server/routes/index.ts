/** Every API route a manifest declares. */
import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../manifest/index.ts';
import type { Db } from '../db/repository.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { registerDialog } from './dialogs.ts';
import { handlers } from './handlers.ts';
import { registerRead } from './reads.ts';

export function registerManifestRoutes(app: FastifyInstance, db: Db, registry: Registry, cache: ReadCache) {
  for (const r of registry.resources) {
    for (const read of Object.values(r.reads)) registerRead(app, db, registry, r, read, cache);
    for (const [type, d] of Object.entries(r.dialogs)) registerDialog(app, db, registry, handlers, r, type, d, cache);
  }
}
