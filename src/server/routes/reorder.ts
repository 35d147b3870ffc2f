/**
 * A list's `reorder` (`list.reorder`): the screen sends `{ [key]: [{ id, [field]: n }] }` after a drag;
 * every row's field is set in one transaction, or none when an id is unknown. Answers the updated
 * records in their new order.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { issuesByField, parseCall, routerPath, urlOf, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { withinStorage } from '../../manifest/rules.ts';
import { guardFor } from '../auth/guard.ts';
import { toRecord, type Db, type Row } from '../db/repository.ts';
import { badRequest, VALIDATION_FAILED } from '../errors.ts';
import { recordsOf } from './records-of.ts';

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

export function registerReorder(app: FastifyInstance, db: Db, registry: Registry, r: ResourceDef) {
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
      // Each moved row is an update through the records service (reach, hooks, version, audit as 'reorder'),
      // all in one transaction: every row moves, or none.
      return recordsOf(request, db, registry).transaction(async (records) => {
        const ids = items.map((x) => x.id);
        const rows: Row[] = ids.length ? await records.db.selectFrom(r.name).selectAll().where('id', 'in', ids).execute() : [];
        const byId = new Map(rows.map((row) => [row.id as string, row]));
        const unknown = ids.filter((id) => !byId.has(id));
        if (unknown.length) throw badRequest(VALIDATION_FAILED, { [key]: unknown.map((id) => `${r.label} '${id}' does not exist.`) });
        const moved = new Map<string, Row>();
        for (const x of items) {
          if (byId.get(x.id)![field] === x[field]) continue; // not moved: no write, no entry, version kept
          moved.set(x.id, await records.update(r, x.id, { [field]: x[field] }, { action: 'reorder' }));
        }
        // The new order: by the field, the order sent breaking ties.
        return items
          .map((x, i) => ({ record: moved.get(x.id) ?? toRecord(r, byId.get(x.id)!)!, i }))
          .sort((a, b) => Number(a.record[field]) - Number(b.record[field]) || a.i - b.i)
          .map(({ record }) => record);
      });
    },
  });
}
