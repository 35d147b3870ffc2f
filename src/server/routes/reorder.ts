/**
 * A list's `reorder` (`list.reorder`): the screen sends `{ [key]: [{ id, [field]: n }] }` after a drag;
 * every row's field is set in one transaction, or none when an id is unknown. Answers the updated
 * records in their new order.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { issuesByField, parseCall, routerPath, urlOf, type ResourceDef } from '../../manifest/index.ts';
import { guard } from '../auth/guard.ts';
import { toRecord, type Db, type Row } from '../db/repository.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { badRequest, VALIDATION_FAILED } from '../errors.ts';

/** The most rows one reorder may move. */
export const MAX_REORDER = 1000;

export function registerReorder(app: FastifyInstance, db: Db, r: ResourceDef, cache: ReadCache) {
  const spec = r.list?.reorder;
  if (!spec) return;
  const { key, field } = spec;
  const item = z.strictObject({
    id: z.string({ error: 'id must be a string.' }).min(1, 'id must be a string.'),
    [field]: z.number({ error: `${field} must be a whole number.` }).int(`${field} must be a whole number.`),
  });
  const schema = z.strictObject({
    [key]: z
      .array(item, { error: `${key} must be a list.` })
      .max(MAX_REORDER, `At most ${MAX_REORDER} ${r.plural.toLowerCase()} can be reordered at once.`)
      .refine((items) => new Set(items.map((x) => x.id)).size === items.length, `Each ${r.label.toLowerCase()} may appear once.`),
  });
  const { method, path } = parseCall(spec.call);
  app.route({
    method,
    url: routerPath(urlOf(path)),
    preHandler: guard(r.access.write),
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
          for (const x of items) {
            await trx.updateTable(r.name).set({ [field]: x[field], updatedAt }).where('id', '=', x.id).execute();
            Object.assign(byId.get(x.id)!, { [field]: x[field], updatedAt });
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
