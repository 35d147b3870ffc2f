/**
 * The recycle bin's restore (the records service's `restore`): a `/recycle` delete moved the row into RECYCLE_BIN as
 * JSON (see `removeRecord`); restoring writes it back into its table under its own id. Restoring must
 * not break what the live tables promise, so it is refused (409) when the id or a unique value has been
 * taken since, or a parent it points at is gone.
 */
import { labelOf } from '../../manifest/schema.ts';
import type { Registry } from '../../manifest/registry.ts';
import { RECYCLE_BIN } from '../../../resources/system.ts';
import { conflict, notFound } from '../errors.ts';
import { audit, type Actor } from './audit.ts';
import { scheduleRecordJobs } from './jobs/schedule.ts';
import { findBy, toRecord, type Db, type Row } from '../db/repository.ts';
import { duplicateMessage } from '../db/unique.ts';
import { columnsOf, columnName, VERSION } from '../db/tables.ts';
import { hasItems } from '../db/line-items.ts';
import { writeItems } from './line-items.ts';

/** Restores the bin entry `entryId` in the transaction `trx` (the records service's `restore`). */
export async function restoreRecord(trx: Db, registry: Registry, actor: Actor, entryId: string): Promise<{ table: string; record: Row }> {
  const bin = registry.resource(RECYCLE_BIN);
  const entry = await findBy(trx, bin, 'id', entryId);
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
  // Its items, kept in the bin's JSON with it (writes.ts `removeRecord`), come back with it.
  const items = hasItems(target) ? await writeItems(trx, registry, target, String(row.id), data, true) : {};
  // Its delete dropped its jobs: back, it has them again (one whose time has passed runs now).
  if (target.jobs) await scheduleRecordJobs(trx, target, row);
  await trx.deleteFrom(bin.name).where('id', '=', entry.id).execute();
  await audit(trx, { actor, resource: target, recordId: String(row.id), action: 'restore', after: { ...row, ...items } });
  return { table: target.name, record: toRecord(target, { ...row, ...items })! };
}
