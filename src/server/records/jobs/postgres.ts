/**
 * The PostgreSQL runner, on pg-boss 10.4 (the newest release that runs on Node 20: 11 and 12 need Node 22).
 * pg-boss rather than Graphile Worker: a job's retries, backoff base and expiry are set per job when it is
 * sent (a JobDef's `retries`, `backoff`, `timeout`), and its supervisor retries a job whose node died once
 * the expiry passes, so the test's killed node costs seconds; Graphile Worker's backoff is one fixed curve
 * and a crashed worker's job stays locked for 4 hours. pg-boss is also plain SQL over any connection we
 * hand it (`db.executeSql`): it rides the app's own pool, and a transaction's connection, with no pool or
 * LISTEN connection of its own.
 *
 * Writes schedule into JOB_RUNS in their own transaction (schedule.ts). Here each node moves the rows not
 * yet handed over into pg-boss, the row locked (`for update skip locked`, so two nodes never hand one
 * over twice) and the send made in the same transaction, so a row is handed over exactly once. pg-boss
 * gives each job to one worker of one node; the worker claims its row only while the row still holds the
 * job's token and is not done, so a job rescheduled, deleted or already done is skipped.
 */
import PgBoss from 'pg-boss';
import { CompiledQuery, sql } from 'kysely';
import { jobOptions } from '../../../manifest/index.ts';
import { JOB_RUNS } from '../../../../resources/system.ts';
import type { Db, Row } from '../../db/types.ts';
import { declaredJob, declaredJobs, runClaimed, type RunnerDeps } from './run.ts';
import { ensureEveryJobs, type JobRunner } from './runner.ts';

/** The one pg-boss queue all declared jobs go through (each job carries its own retries and expiry). */
const QUEUE = 'record-jobs';
/** How often each node looks for rows to hand over, and each worker for jobs. */
const POLL_SECONDS = 1;
/** Workers per node: runs going at once. */
const CONCURRENCY = 4;
/** How often (across the nodes: one of them does it) pg-boss looks for jobs whose node died. */
const MAINTENANCE_SECONDS = 5;
/** pg-boss's tables, made in the app's schema beside the records: a resource must not be named so. */
const PG_BOSS_TABLES = ['version', 'queue', 'schedule', 'subscription', 'job', 'archive'];

/** pg-boss's SQL through a Kysely executor: the app's pool, or a transaction's connection. */
const through = (executor: Db): PgBoss.Db => ({
  async executeSql(text, values) {
    const { rows } = await executor.executeQuery(CompiledQuery.raw(text, values ?? []));
    return { rows: rows as any[] };
  },
});

export async function startPgBossRunner(deps: RunnerDeps): Promise<JobRunner> {
  const { db, registry, log } = deps;
  const clash = registry.resources.find((r) => PG_BOSS_TABLES.includes(r.name));
  if (clash) throw new Error(`Resource '${clash.name}' is named like one of pg-boss's tables (${PG_BOSS_TABLES.join(', ')})`);
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const boss = new PgBoss({ db: through(db), schema: rows[0].schema, schedule: false, maintenanceIntervalSeconds: MAINTENANCE_SECONDS });
  boss.on('error', (error) => log.error(error));
  await boss.start();
  await boss.createQueue(QUEUE);
  await ensureEveryJobs(db, registry);
  const jobs = declaredJobs(registry);
  let stopped = false;

  const handOver = () =>
    db.transaction().execute(async (trx) => {
      const rows = (await trx
        .selectFrom(JOB_RUNS)
        .selectAll()
        .where('state', '=', 'scheduled')
        .where('queued', 'is', null)
        .where((eb) => eb.or(jobs.map(({ resource, job }) => eb.and([eb('resource', '=', resource.name), eb('job', '=', job)]))))
        .orderBy('dueAt')
        .limit(100)
        .forUpdate()
        .skipLocked()
        .execute()) as Row[];
      for (const row of rows) {
        const { retries, backoff, timeout } = jobOptions(declaredJob(registry, row)!.def);
        await boss.send(QUEUE, { id: row.id, token: row.token }, { startAfter: new Date(String(row.dueAt)), retryLimit: retries, retryDelay: backoff, retryBackoff: true, expireInSeconds: timeout, db: through(trx) });
        await trx.updateTable(JOB_RUNS).set({ queued: row.token }).where('id', '=', row.id as string).execute();
      }
    });

  let handing: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (stopped || handing || !jobs.length) return;
    handing = handOver()
      .catch((error: unknown) => log.error(error instanceof Error ? error : String(error)))
      .finally(() => (handing = undefined));
  }, POLL_SECONDS * 1000);
  timer.unref();

  const work = async ([job]: PgBoss.Job<{ id: string; token: string }>[]) => {
    const now = new Date().toISOString();
    const claimed = (await db
      .updateTable(JOB_RUNS)
      .set({ state: 'running', attempts: sql`${sql.ref('attempts')} + 1`, startedAt: now, updatedAt: now })
      .where('id', '=', job.data.id)
      .where('token', '=', job.data.token)
      // `running`: the node that had it died, and pg-boss gives it to this one after its expiry.
      .where('state', 'in', ['scheduled', 'running'])
      .returningAll()
      .executeTakeFirst()) as Row | undefined;
    if (!claimed) return;
    deps.changed();
    const result = await runClaimed(deps, claimed);
    // pg-boss retries it (after its backoff) or, with no retry left, fails it: as the row already says.
    if (result.outcome === 'failed') throw result.error;
  };
  if (jobs.length) for (let i = 0; i < CONCURRENCY; i++) await boss.work(QUEUE, { batchSize: 1, pollingIntervalSeconds: POLL_SECONDS }, work);

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await handing;
      await boss.stop({ graceful: true, wait: true });
    },
  };
}
