/**
 * Declared jobs (src/manifest/jobs.ts) run here: scheduled from records' writes inside their
 * transactions (schedule.ts), run on SQLite in process from the JOB_RUNS table (sqlite.ts), on
 * PostgreSQL through pg-boss (postgres.ts), each try kept on JOB_RUNS for the admins' Jobs list (run.ts).
 */
import type { Registry } from '../../../manifest/index.ts';
import type { Database } from '../../db/types.ts';
import { declaredJobs, type RunnerDeps } from './run.ts';
import type { JobRunner } from './runner.ts';
import { startSqliteRunner } from './sqlite.ts';

export { scheduleRecordJobs, dropRecordJobs } from './schedule.ts';
export type { JobRunner } from './runner.ts';

/** Starts this node's runner for `database`'s engine. */
export function startJobRunner(database: Database, registry: Registry, options: Omit<RunnerDeps, 'db' | 'registry'>): Promise<JobRunner> {
  const deps = { db: database.db, registry, ...options };
  // Nothing declared, nothing to run: no polling, and no pg-boss tables made.
  if (!declaredJobs(registry).length) return Promise.resolve({ stop: async () => {} });
  // pg-boss (and pg under it) is loaded only on PostgreSQL.
  return database.engine === 'postgres' ? import('./postgres.ts').then(({ startPgBossRunner }) => startPgBossRunner(deps)) : startSqliteRunner(deps);
}
