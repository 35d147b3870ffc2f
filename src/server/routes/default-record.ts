/**
 * A resource's `defaultRecord`: a setting naming one of its records as the default (spec §7 currencies:
 * `GET /currencies/settings`, `PUT /currencies/settings` with `id`). Both calls answer
 * `{ id, record }`: the id stored and the record it names, or nulls when none is set (or it is gone).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { issuesByField, parseCall, routerPath, urlOf, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { guardFor } from '../auth/guard.ts';
import { findBy, toRecord, type Db } from '../db/repository.ts';
import { holdsRequired } from '../records/writes.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { badRequest, VALIDATION_FAILED } from '../errors.ts';
import { getSetting, setSetting, SETTINGS } from '../settings/index.ts';
import { sendAnswer, type Answer } from './reads.ts';
import { recordsOf } from './records-of.ts';

/** The body of a default-record write: `{ id }` of the record to make the default. */
export function defaultRecordSchema(r: ResourceDef) {
  return z.strictObject({ id: z.string({ error: `${r.label} id is required.` }).min(1, `${r.label} id is required.`).max(64) });
}

export function registerDefaultRecord(app: FastifyInstance, db: Db, registry: Registry, r: ResourceDef, cache: ReadCache) {
  const spec = r.defaultRecord;
  if (!spec) return;
  const current = async (database: Db) => {
    const id = await getSetting(database, spec.key);
    const record = id === null ? undefined : toRecord(r, await findBy(database, r, 'id', id));
    return record ? { id, record } : { id: null, record: null };
  };

  const read = parseCall(spec.read);
  // One answer whatever the request carries: keyed by the read alone.
  const key = `default ${r.name}`;
  app.route({
    method: read.method,
    url: routerPath(urlOf(read.path)),
    preHandler: guardFor(r, { defaultRecord: spec, write: false }),
    handler: async (_request, reply) => {
      const answer = await cache.get(key, [r.name, SETTINGS], async (): Promise<Answer> => ({ body: JSON.stringify(await current(db)) }));
      return sendAnswer(reply, answer);
    },
  });

  const schema = z.strictObject({ id: z.string({ error: `${r.label} id is required.` }).min(1, `${r.label} id is required.`) });
  const write = parseCall(spec.write);
  app.route({
    method: write.method,
    url: routerPath(urlOf(write.path)),
    preHandler: guardFor(r, { defaultRecord: spec, write: true }),
    handler: async (request) => {
      const parsed = schema.safeParse(request.body ?? {});
      if (!parsed.success) throw badRequest(VALIDATION_FAILED, issuesByField(parsed.error));
      return recordsOf(request, db, registry).operation([SETTINGS], async (trx, audit) => {
        const id = parsed.data.id;
        // Held for this transaction (a write to the row): an update taking the record off what the
        // default requires waits for it, then finds it the default and is refused (writes.ts).
        if (spec.requires) await trx.updateTable(r.name).set((eb) => ({ id: eb.ref('id') })).where('id', '=', id).execute();
        const target = await findBy(trx, r, 'id', id);
        if (!target) throw badRequest(VALIDATION_FAILED, { id: [`${r.label} does not exist.`] });
        if (spec.requires && !holdsRequired(r, target)) throw badRequest(spec.requires.refused, { id: [spec.requires.refused] });
        const before = await getSetting(trx, spec.key);
        await setSetting(trx, spec.key, id);
        await audit({ resource: r, recordId: id, action: 'setDefault', changes: { [spec.key]: { before, after: id } } });
        return current(trx);
      });
    },
  });
}
