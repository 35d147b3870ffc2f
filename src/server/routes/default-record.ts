/**
 * A resource's `defaultRecord`: a setting naming one of its records as the default (spec §7 currencies:
 * `GET /currencies/settings`, `PUT /currencies/settings` with `id`). Both calls answer
 * `{ id, record }`: the id stored and the record it names, or nulls when none is set (or it is gone).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { issuesByField, parseCall, routerPath, urlOf, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { guard } from '../auth/guard.ts';
import { findBy, toRecord, type Db } from '../db/repository.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { badRequest, VALIDATION_FAILED } from '../errors.ts';
import { getSetting, setSetting, SETTINGS } from '../settings/index.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

export function registerDefaultRecord(app: FastifyInstance, db: Db, _registry: Registry, r: ResourceDef, cache: ReadCache) {
  const spec = r.defaultRecord;
  if (!spec) return;
  const current = async (database: Db) => {
    const id = await getSetting(database, spec.key);
    const record = id === null ? undefined : toRecord(r, await findBy(database, r, 'id', id));
    return record ? { id, record } : { id: null, record: null };
  };

  const read = parseCall(spec.read);
  app.route({
    method: read.method,
    url: routerPath(urlOf(read.path)),
    preHandler: guard(r.access.read),
    handler: async (request, reply) => {
      const body = await cache.get(request.url, [r.name, SETTINGS], async () => JSON.stringify(await current(db)));
      return reply.type(JSON_TYPE).send(body);
    },
  });

  const schema = z.strictObject({ id: z.string({ error: `${r.label} id is required.` }).min(1, `${r.label} id is required.`) });
  const write = parseCall(spec.write);
  app.route({
    method: write.method,
    url: routerPath(urlOf(write.path)),
    preHandler: guard(spec.access ?? r.access.write),
    handler: async (request) => {
      const parsed = schema.safeParse(request.body ?? {});
      if (!parsed.success) throw badRequest(VALIDATION_FAILED, issuesByField(parsed.error));
      try {
        return await db.transaction().execute(async (trx) => {
          if (!(await findBy(trx, r, 'id', parsed.data.id)))
            throw badRequest(VALIDATION_FAILED, { id: [`${r.label} does not exist.`] });
          await setSetting(trx, spec.key, parsed.data.id);
          return current(trx);
        });
      } finally {
        cache.invalidate(SETTINGS);
      }
    },
  });
}
