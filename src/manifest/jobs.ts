/**
 * Declared, scheduled work (`ResourceInput.jobs`): at a record's time field (an auction closing at its
 * end) or every N seconds (a sweep). Run by src/server/records/jobs/ exactly once per occurrence across
 * the server nodes, retried with exponential backoff, kept across restarts, and shown to admins on the
 * Jobs list (`JOB_RUNS`, resources/system.ts).
 *
 * Manifests load in the browser too: a module holding a job's `run` must not import server code, so
 * everything a run needs (the database, the registry, its record, the time) comes in its `JobContext`,
 * and this file imports types only.
 */
import type { Kysely } from 'kysely';
import type { Registry } from './registry.ts';
import type { ResourceDef } from './types.ts';

/** What a job's run is given. */
export interface JobContext {
  /** The job's name (its key in `jobs`). */
  job: string;
  /** The resource that declares the job. */
  resource: ResourceDef;
  /** All resources, to find another one's table and fields. */
  registry: Registry;
  /** The database: run queries, or a transaction of the run's own (`db.transaction().execute(…)`). */
  db: Kysely<any>;
  /**
   * Writes through the records service as the server's own work (every row reachable; audited, hooked,
   * held to declared states, dropped from the read cache): what a job that changes records should use.
   */
  records: JobRecords;
  /** An `at` job's record as it is when the run starts (read afresh); absent for an `every` job. */
  record?: Record<string, unknown>;
  /** When the run started. */
  now: Date;
  /** When this try was due: the record's time, an `every` job's slot, or a retry's time after its backoff. */
  due: Date;
  /** 1 for the first try of this occurrence, 2 for the first retry, and so on. */
  attempt: number;
  /** The server's log. */
  log: JobLog;
  /**
   * Tells everyone of a role (every admin): one notification stored for the role, read state kept per
   * person, sent to the role's sockets once stored (src/features/notifications/server/audience.ts), so a
   * run costs the same for one admin or a thousand. Call it after the run's transaction. Absent where no
   * server runs the job (a test's bare runner).
   */
  tell?: (toRole: string, notice: JobNotice) => Promise<void>;
}

/** What `JobContext.tell` sends: a notification's words and where it points. */
export interface JobNotice {
  title: string;
  message: string;
  type: 'info' | 'success' | 'warning' | 'error';
  /** `category` sorts it on the Notifications screen; `resource` and `recordId` make it open that record. */
  metadata?: { category?: string; resource?: string; recordId?: string };
}

/** The records service's writes, as a job is given them (see `JobContext.records`). */
export interface JobRecords {
  create(resource: string, input: Record<string, unknown>): Promise<Record<string, unknown>>;
  update(resource: string, id: string, input: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Runs `work` in one transaction: its writes commit together, or none does. */
  transaction<T>(work: (records: JobTransaction) => Promise<T>): Promise<T>;
}

/** The records service inside a job's transaction (`JobRecords.transaction`). */
export interface JobTransaction extends JobRecords {
  /** The transaction's database: reads that must see its writes. */
  db: Kysely<any>;
  /**
   * A write the service has no verb for (a conditional stock decrement), in this transaction; the
   * `tables` it writes are dropped from the read cache once it commits.
   */
  operation<T>(tables: string[], work: (db: Kysely<any>) => Promise<T>): Promise<T>;
}

/** Where a run says what it did or what went wrong (the server's logger). */
export interface JobLog {
  info(message: string): void;
  error(message: string | Error): void;
}

/** Options every job has. */
interface JobOptions {
  /**
   * The work: a function value (not a name), so a typo fails the type check. A run that throws is
   * retried (`retries`); its error's message is kept on the Jobs list. A run cut short by its node
   * dying runs again on another: make its effects idempotent, or write them in one transaction.
   */
  run: (ctx: JobContext) => Promise<void>;
  /**
   * How many more times a failed run is tried: after a thrown error, or (PostgreSQL) after `timeout`
   * passed without an answer because its node died. Default 3; with 0, a lost run is not tried again.
   */
  retries?: number;
  /**
   * Seconds before the first retry, doubled for each one after (exponential backoff: 10, 20, 40…).
   * A whole number, at least 1. Default 10. On PostgreSQL pg-boss adds up to as much again at random,
   * so retries of many jobs that failed together spread out.
   */
  backoff?: number;
  /**
   * Seconds a run may take (PostgreSQL): past it the run is taken for lost (its node died) and counts as a
   * failed attempt, tried again on a node still alive. Default 900. On SQLite a run lost with its process
   * runs again when the server starts.
   */
  timeout?: number;
}

/** Runs once per record when the time its field holds comes (now, when that time has passed). */
export interface AtJobDef extends JobOptions {
  /**
   * The record's field holding the time (ISO text, as `display: 'datetime'` fields hold it). A write that
   * changes it moves the run; an empty or unreadable time, or deleting the record, drops it.
   */
  at: string;
  every?: never;
}

/** Runs every N seconds, once across all the nodes. */
export interface EveryJobDef extends JobOptions {
  /** Seconds from the end of one run to the start of the next (the first: that long after first start). */
  every: number;
  at?: never;
}

/** A declared job: at a record's time (`at`) or every N seconds (`every`). */
export type JobDef = AtJobDef | EveryJobDef;

/** A job's retries, backoff and timeout with their defaults filled in. */
export function jobOptions(def: JobDef): { retries: number; backoff: number; timeout: number } {
  return { retries: def.retries ?? 3, backoff: def.backoff ?? 10, timeout: def.timeout ?? 900 };
}

/** Refuses jobs that cannot run (called by `defineResource`, so a mistake fails when the manifest loads). */
export function checkJobs(jobs: Record<string, JobDef> | undefined, fieldNames: ReadonlySet<string>, fail: (what: string) => never) {
  for (const [name, def] of Object.entries(jobs ?? {})) {
    if (!/^\w+$/.test(name)) fail(`job '${name}': a name is letters, digits and underscores`);
    if (typeof def.run !== 'function') fail(`job '${name}' has no run function`);
    if ((def.at === undefined) === (def.every === undefined)) fail(`job '${name}' needs either 'at' or 'every'`);
    if (def.at !== undefined && !fieldNames.has(def.at)) fail(`job '${name}' runs at unknown field '${def.at}'`);
    if (def.every !== undefined && !(def.every > 0)) fail(`job '${name}': 'every' must be a number of seconds above 0`);
    const { retries, backoff, timeout } = jobOptions(def);
    if (!Number.isInteger(retries) || retries < 0) fail(`job '${name}': 'retries' must be a whole number, 0 or more`);
    if (!Number.isInteger(backoff) || backoff < 1) fail(`job '${name}': 'backoff' must be a whole number of seconds, at least 1`);
    if (!Number.isInteger(timeout) || timeout < 1) fail(`job '${name}': 'timeout' must be a whole number of seconds, at least 1`);
  }
}
