/**
 * The embedded runner (SQLite): the due rows of JOB_RUNS are the queue. The database file belongs to this
 * one process, so a due row is claimed by one conditional update (scheduled → running, the same token):
 * however the polls overlap, each try runs once. Due rows persist in the file, so a job due while the
 * server was down runs when it starts; one left `running` by a process that died runs again.
 */
import { sql } from 'kysely';
import { JOB_RUNS } from '../../../../resources/system.ts';
import type { Row } from '../../db/types.ts';
import { declaredJobs, runClaimed, type RunnerDeps } from './run.ts';
import { ensureEveryJobs, type JobRunner } from './runner.ts';

/** How often due rows are looked for. */
const POLL_MS = 500;
/** The most runs going at once (a slow job does not hold up the others). */
const CONCURRENCY = 4;

export async function startSqliteRunner(deps: RunnerDeps): Promise<JobRunner> {
  const { db, registry } = deps;
  const jobs = declaredJobs(registry);
  await db
    .updateTable(JOB_RUNS)
    .set({ state: 'scheduled', lastError: 'The server stopped while it ran.', updatedAt: new Date().toISOString() })
    .where('state', '=', 'running')
    .execute();
  await ensureEveryJobs(db, registry);
  const running = new Set<Promise<unknown>>();
  let stopped = false;
  let polling: Promise<void> | undefined;

  async function poll() {
    if (!jobs.length || running.size >= CONCURRENCY) return;
    const now = new Date().toISOString();
    const due = await db
      .selectFrom(JOB_RUNS)
      .selectAll()
      .where('state', '=', 'scheduled')
      .where('dueAt', '<=', now)
      .where((eb) => eb.or(jobs.map(({ resource, job }) => eb.and([eb('resource', '=', resource.name), eb('job', '=', job)]))))
      .orderBy('dueAt')
      .limit(CONCURRENCY - running.size)
      .execute();
    for (const row of due as Row[]) {
      if (stopped) return;
      const claimed = await db
        .updateTable(JOB_RUNS)
        .set({ state: 'running', attempts: sql`${sql.ref('attempts')} + 1`, startedAt: now, updatedAt: now })
        .where('id', '=', row.id as string)
        .where('token', '=', row.token as string)
        .where('state', '=', 'scheduled')
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) continue;
      deps.changed();
      const run = runClaimed(deps, { ...row, state: 'running', attempts: Number(row.attempts) + 1, startedAt: now })
        .catch((error: unknown) => deps.log.error(error instanceof Error ? error : String(error)))
        .finally(() => running.delete(run));
      running.add(run);
    }
  }

  const timer = setInterval(() => {
    if (stopped || polling) return;
    polling = poll()
      .catch((error: unknown) => deps.log.error(error instanceof Error ? error : String(error)))
      .finally(() => (polling = undefined));
  }, POLL_MS);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await polling;
      await Promise.all([...running]);
    },
  };
}
