/**
 * Scheduling a record's jobs from its writes: in the write's own transaction, so a write rolled back
 * schedules nothing and a committed one cannot lose its job. The due row (`JOB_RUNS`) is the schedule on
 * both engines: SQLite's runner claims it when due; on PostgreSQL the runner hands it to pg-boss (queue.ts).
 */
import type { JobDef, ResourceDef } from '../../../manifest/index.ts';
import { JOB_RUNS } from '../../../../resources/system.ts';
import { newId } from '../../db/id.ts';
import { VERSION } from '../../db/tables.ts';
import type { Db, Row } from '../../db/types.ts';

/** One occurrence's key: a record's `at` job, or a resource's `every` job. */
export const runKey = (resource: string, job: string, recordId?: string) => (recordId === undefined ? `${resource}.${job}` : `${resource}.${job}.${recordId}`);

/** The time a record's field holds, or undefined when it holds none a job could run at. */
export function dueTime(value: unknown): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const at = new Date(value instanceof Date ? value.getTime() : typeof value === 'number' ? value : String(value));
  return Number.isNaN(at.getTime()) ? undefined : at;
}

const atJobs = (r: ResourceDef) => Object.entries(r.jobs ?? {}).filter((entry): entry is [string, JobDef & { at: string }] => entry[1].at !== undefined);

/** What a fresh occurrence sets: due at `dueAt`, untried, not yet handed to a queue. */
export const freshOccurrence = (dueAt: Date) => ({ dueAt: dueAt.toISOString(), state: 'scheduled', attempts: 0, token: newId(), queued: null });

/** Inserts an occurrence, or moves the one under its key (a new token: a run of the old one does nothing). */
export async function putOccurrence(trx: Db, fields: { job: string; resource: string; recordId: string | null; key: string }, dueAt: Date, replace = true) {
  const now = new Date().toISOString();
  const occurrence = { ...freshOccurrence(dueAt), startedAt: null, finishedAt: null };
  const row: Row = { id: newId(), ...fields, ...occurrence, lastError: null, createdAt: now, updatedAt: now, [VERSION]: 1 };
  await trx
    .insertInto(JOB_RUNS)
    .values(row)
    .onConflict((oc) => (replace ? oc.column('key').doUpdateSet({ ...occurrence, lastError: null, updatedAt: now }) : oc.column('key').doNothing()))
    .execute();
}

/**
 * Schedules `row`'s `at` jobs, called inside a create or update transaction: a new time (or a new record)
 * schedules its run afresh, an emptied one drops it, an unchanged one leaves it as it is.
 */
export async function scheduleRecordJobs(trx: Db, resource: ResourceDef, row: Row, previous?: Row): Promise<void> {
  const recordId = String(row.id);
  for (const [job, def] of atJobs(resource)) {
    const due = dueTime(row[def.at]);
    const before = previous ? dueTime(previous[def.at]) : undefined;
    if (previous && due?.getTime() === before?.getTime()) continue;
    const key = runKey(resource.name, job, recordId);
    if (!due) await trx.deleteFrom(JOB_RUNS).where('key', '=', key).execute();
    else await putOccurrence(trx, { job, resource: resource.name, recordId, key }, due);
  }
}

/** Drops a deleted record's jobs, in its delete's transaction. */
export async function dropRecordJobs(trx: Db, resource: ResourceDef, id: string): Promise<void> {
  if (!atJobs(resource).length) return;
  await trx.deleteFrom(JOB_RUNS).where('resource', '=', resource.name).where('recordId', '=', String(id)).execute();
}
