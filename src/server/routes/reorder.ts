/**
 * A list's `reorder` (`list.reorder`): the screen sends `{ [key]: [{ id, [field]: n }] }` after a drag;
 * every row's field is set in one transaction, or none when an id is unknown. Answers the updated
 * records in their new order.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { issuesByField, parseCall, routerPath, urlOf, type ResourceDef } from '../../manifest/index.ts';
import { withinStorage } from '../../manifest/rules.ts';
import { guardFor } from '../auth/guard.ts';
import { actorOf, audit } from '../records/audit.ts';
import { toRecord, type Db, type Row } from '../db/repository.ts';
import { VERSION } from '../db/tables.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { badRequest, VALIDATION_FAILED } from '../errors.ts';

/** The most rows one reorder may move. */
export const MAX_REORDER = 1000;

/** The body of a list's reorder call: `{ [key]: [{ id, [field]: n }] }`, each record at most once. */
export function reorderSchema(r: ResourceDef) {
  const { key, field } = r.list!.reorder!;
  const item = z.strictObject({
    id: z.string({ error: 'id must be a string.' }).min(1, 'id must be a string.').max(64, 'id is too long.'),
    // Held to the field's storage like any write of it (a 32-bit integer): never a database error.
    [field]: withinStorage(z.number({ error: `${field} must be a whole number.` }).int(`${field} must be a whole number.`), r.fields.find((f) => f.name === field)!, field),
  });
  return z.strictObject({
    [key]: z
      .array(item, { error: `${key} must be a list.` })
      .max(MAX_REORDER, `At most ${MAX_REORDER} ${r.plural.toLowerCase()} can be reordered at once.`)
      .refine((items) => new Set(items.map((x) => x.id)).size === items.length, `Each ${r.label.toLowerCase()} may appear once.`),
  });
}

export function registerReorder(app: FastifyInstance, db: Db, r: ResourceDef, cache: ReadCache) {
  const spec = r.list?.reorder;
  if (!spec) return;
  const { key, field } = spec;
  const schema = reorderSchema(r);
  const { method, path } = parseCall(spec.call);
  app.route({
    method,
    url: routerPath(urlOf(path)),
    preHandler: guardFor(r, 'write'),
    handler: async (request) => {
      const parsed = schema.safeParse(request.body ?? {});
      if (!parsed.success) throw badRequest(VALIDATION_FAILED, issuesByField(parsed.error));
      const items = parsed.data[key] as { id: string; [f: string]: unknown }[];
      try {
        return await db.transaction().execute(async (trx) => {
          const ids = items.map((x) => x.id);
          const rows: Row[] = ids.length ? await trx.selectFrom(r.name).selectAll().where('id', 'in', ids).execute() : [];
          const byId = new Map(rows.map((row) => [row.id as string, row]));
          const unknown = ids.filter((id) => !byId.has(id));
          if (unknown.length)
            throw badRequest(VALIDATION_FAILED, { [key]: unknown.map((id) => `${r.label} '${id}' does not exist.`) });
          const updatedAt = new Date().toISOString();
          const actor = actorOf(request);
          for (const x of items) {
            const before = byId.get(x.id)!;
            if (before[field] === x[field]) continue; // not moved: no write, no entry, version kept
            const values = { [field]: x[field], updatedAt, [VERSION]: Number(before[VERSION] ?? 1) + 1 };
            await trx.updateTable(r.name).set(values).where('id', '=', x.id).execute();
            const after = { ...before, ...values };
            await audit(trx, { actor, resource: r, recordId: x.id, action: 'reorder', before, after });
            byId.set(x.id, after);
          }
          // The new order: by the field, the order sent breaking ties.
          return items
            .map((x, i) => ({ row: byId.get(x.id)!, i }))
            .sort((a, b) => Number(a.row[field]) - Number(b.row[field]) || a.i - b.i)
            .map(({ row }) => toRecord(r, row));
        });
      } finally {
        cache.invalidate(r.name);
      }
    },
  });
}
