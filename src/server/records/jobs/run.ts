/**
 * One try of a claimed occurrence, the same on both engines: build its context, run it, and keep what
 * came of it on its row — done, due again after a backoff, failed for good, or (an `every` job) due
 * again one period on. Every change is made only while the row still holds the token that was claimed:
 * a record rescheduled or deleted meanwhile keeps its new schedule.
 */
import { jobOptions, type JobContext, type JobDef, type JobLog, type Registry, type ResourceDef } from '../../../manifest/index.ts';
import { JOB_RUNS } from '../../../../resources/system.ts';
import { findBy, type Db, type Row } from '../../db/repository.ts';
import { freshOccurrence } from './schedule.ts';
import { RecordsService } from '../service.ts';

export interface RunnerDeps {
  db: Db;
  registry: Registry;
  log: JobLog;
  /** Called after the runner changed rows of JOB_RUNS (the Jobs list's cached answers go stale). */
  changed: () => void;
  /** Drops cached reads of a table a job wrote through `records`. */
  invalidate?: (table: string) => void;
  /** Tells everyone of a role (`JobContext.tell`): given by the server that runs the jobs. */
  tell?: JobContext['tell'];
}

/** The job a row is an occurrence of, while its resource still declares it. */
export function declaredJob(registry: Registry, row: Row): { resource: ResourceDef; def: JobDef } | undefined {
  const resource = registry.resources.find((r) => r.name === row.resource);
  const def = resource?.jobs?.[String(row.job)];
  return resource && def ? { resource, def } : undefined;
}

/** The resource and job names the registry declares, to claim only rows this server can run. */
export const declaredJobs = (registry: Registry) =>
  registry.resources.flatMap((r) => Object.entries(r.jobs ?? {}).map(([job, def]) => ({ resource: r, job, def })));

/** Seconds before retry `attempt` (the first failure is attempt 1): backoff, doubled each time. */
export const retryDelaySeconds = (backoff: number, attempt: number) => backoff * 2 ** Math.max(0, attempt - 1);

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 2000) || 'Error';

/**
 * Runs `row` (claimed: state `running`, `attempts` counting this try). Answers `failed` with the error
 * when the run threw (a queue that retries by itself is told so), else `done` or `skipped`.
 */
export async function runClaimed(deps: RunnerDeps, row: Row): Promise<{ outcome: 'done' | 'skipped' } | { outcome: 'failed'; error: unknown; last: boolean }> {
  const { db, registry, log, changed } = deps;
  const token = String(row.token);
  const ours = () => db.updateTable(JOB_RUNS).where('id', '=', row.id as string).where('token', '=', token);
  const declared = declaredJob(registry, row);
  if (!declared) {
    await ours().set({ state: 'failed', lastError: 'This job is no longer declared.', finishedAt: new Date().toISOString() }).execute();
    changed();
    return { outcome: 'skipped' };
  }
  const { resource, def } = declared;
  let record: Row | undefined;
  if (def.at !== undefined) {
    record = await findBy(db, resource, 'id', row.recordId);
    // Its delete dropped the row in the same transaction; a row left without its record is stale.
    if (!record) {
      await db.deleteFrom(JOB_RUNS).where('id', '=', row.id as string).where('token', '=', token).execute();
      changed();
      return { outcome: 'skipped' };
    }
  }
  const attempt = Number(row.attempts);
  const { retries, backoff } = jobOptions(def);
  try {
    const records = new RecordsService({ db, registry, invalidate: deps.invalidate });
    await def.run({ job: String(row.job), resource, registry, db, records, record, now: new Date(), due: new Date(String(row.dueAt)), attempt, log, tell: deps.tell });
  } catch (error) {
    const now = new Date();
    const last = attempt > retries;
    const lastError = errorText(error);
    const retryAt = new Date(now.getTime() + retryDelaySeconds(backoff, attempt) * 1000);
    // An `every` job that used up its retries waits for its next period; an `at` job stays failed.
    const then = !last ? { state: 'scheduled', dueAt: retryAt.toISOString() } : def.every !== undefined ? freshOccurrence(new Date(now.getTime() + def.every * 1000)) : { state: 'failed' };
    await ours().set({ ...then, lastError, finishedAt: now.toISOString(), updatedAt: now.toISOString() }).execute();
    changed();
    log.error(`Job ${resource.name}.${String(row.job)}${row.recordId ? ` of ${String(row.recordId)}` : ''} failed (try ${attempt}): ${lastError}`);
    return { outcome: 'failed', error, last };
  }
  const now = new Date();
  const then = def.every !== undefined ? freshOccurrence(new Date(now.getTime() + def.every * 1000)) : { state: 'done' };
  await ours().set({ ...then, finishedAt: now.toISOString(), updatedAt: now.toISOString() }).execute();
  changed();
  return { outcome: 'done' };
}
