/**
 * The recycle bin's restore (`restoreFromBin`): a `/recycle` delete moved the row into RECYCLE_BIN as
 * JSON (see `removeRecord`); restoring writes it back into its table under its own id. Restoring must
 * not break what the live tables promise, so it is refused (409) when the id or a unique value has been
 * taken since, or a parent it points at is gone.
 */
import { labelOf, type ResourceDef } from '../../manifest/index.ts';
import { conflict, notFound } from '../errors.ts';
import { actorOf, audit } from '../db/audit.ts';
import { findBy, toRecord, type Row } from '../db/repository.ts';
import { duplicateMessage } from '../db/unique.ts';
import { columnsOf, columnName, VERSION } from '../db/tables.ts';
import type { HandlerContext } from './handlers.ts';

export async function restoreFromBin({ db, registry, resource: bin, params, invalidate, request }: HandlerContext) {
  const { target, record } = await db.transaction().execute(async (trx) => {
    const entry = await findBy(trx, bin, 'id', params.id);
    if (!entry) throw notFound(`${bin.label} not found.`);
    const target = registry.resources.find((r) => r.name === entry.resource);
    if (!target) throw conflict(`Records of '${String(entry.resource)}' can no longer be restored.`);
    let data: Row;
    try {
      data = JSON.parse(String(entry.data));
    } catch {
      data = {};
    }
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw conflict('The recycled record is damaged and cannot be restored.');

    // Only the columns the table has now; the id is the one it was deleted under.
    const row: Row = Object.fromEntries(columnsOf(target).map((c) => [c.name, data[c.name] ?? null]));
    row.id = entry.recordId;
    row.updatedAt = new Date().toISOString();
    row.createdAt ??= row.updatedAt;
    // Coming back is a change: a dialog still holding the version it was deleted at is stale.
    row[VERSION] = Number(data[VERSION] ?? 1) + 1;

    if (await findBy(trx, target, 'id', row.id)) throw conflict(`${target.label} '${entry.title}' exists again: its id is taken.`);
    for (const f of target.fields) {
      const value = row[columnName(f)];
      if (value === null) continue;
      if (f.unique && (await findBy(trx, target, columnName(f), value)))
        throw conflict(duplicateMessage(target, f));
      if (f.kind === 'reference' && !(await findBy(trx, registry.resource(f.reference!), f.referenceBy ?? 'id', value)))
        throw conflict(`${target.label} '${entry.title}' cannot be restored: its ${labelOf(f).toLowerCase()} no longer exists.`);
    }
    await trx.insertInto(target.name).values(row).execute();
    await trx.deleteFrom(bin.name).where('id', '=', entry.id).execute();
    await audit(trx, { actor: actorOf(request), resource: target, recordId: String(row.id), action: 'restore', after: row });
    return { target: target as ResourceDef, record: toRecord(target, row)! };
  });
  invalidate(target.name);
  invalidate(bin.name);
  return record;
}
