/** What both engines' runners share: their handle, and the `every` jobs' first occurrences. */
import type { Registry } from '../../../manifest/index.ts';
import type { Db } from '../../db/types.ts';
import { declaredJobs } from './run.ts';
import { putOccurrence, runKey } from './schedule.ts';

export interface JobRunner {
  /** Stops taking jobs and waits for the runs going on to end. */
  stop(): Promise<void>;
}

/**
 * Puts each `every` job's first occurrence one period from now, unless it has one: a row under its key
 * outlives restarts and is shared by the nodes, so neither a restart nor a second node adds a run.
 */
export async function ensureEveryJobs(db: Db, registry: Registry) {
  for (const { resource, job, def } of declaredJobs(registry))
    if (def.every !== undefined)
      await putOccurrence(db, { job, resource: resource.name, recordId: null, key: runKey(resource.name, job) }, new Date(Date.now() + def.every * 1000), false);
}
