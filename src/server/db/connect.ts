/**
 * One query layer, two engines: better-sqlite3 embedded by default (a file under `data/`), PostgreSQL
 * when the URL says so. `schema` isolates a PostgreSQL run (tests use a fresh schema each).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import SQLite from 'better-sqlite3';
import type { ClientConfig } from 'pg';
import type { Database } from './types.ts';
import { ASKED, recordQuery, recordsQuery } from './compiled-queries.ts';
import { withStatementCache } from './sqlite/sqlite-statements.ts';
import { attachTurnReads, GroupCommitSqliteDialect } from './sqlite/group-commit.ts';
import { searchQueueFlusher } from './sqlite/search-pending.ts';
import { FALLBACK_CHECKPOINT_PAGES, startCheckpointer } from './sqlite/checkpointer.ts';
import { attachReadPool, parseReadWorkers, ReadPool } from './sqlite/read-pool.ts';
import { prepareReadingStatements } from './postgres/pg-statements.ts';
import { sendWritesBehind, type Elsewhere } from './postgres/pg-write-behind.ts';
import { batchRecords, parseBatchRecords } from './postgres/record-batches.ts';

export type { Database, Engine } from './types.ts';

/**
 * pg and the pipelines built on it, loaded only when a PostgreSQL database is used: a server on SQLite
 * never loads them, nor Node's own fetch, which pg's first import sets up (it asks `Response` whether it
 * runs on Cloudflare): 14 MiB of the idle process (docs/performance.md, "A lean process (issue 54)").
 */
const loadPg = async () => (await import('pg')).default;

export interface ConnectOptions {
  /** `postgres://…` for PostgreSQL; anything else (or nothing) means SQLite at `file`. */
  url?: string;
  /** The SQLite file; `:memory:` works too. */
  file?: string;
  /** PostgreSQL schema to create (if absent) and use. */
  schema?: string;
  /** SQLite file: threads reading list pages (sqlite/read-pool.ts); left out, `READ_WORKERS` or one a CPU (at most 4, none on one CPU). */
  readWorkers?: number;
  /** PostgreSQL: pipelined connections for reads outside a transaction (postgres/pg-pipeline.ts); left out, `PG_PIPELINES` or 2. */
  pipelines?: number;
}

export async function connect(options: ConnectOptions): Promise<Database> {
  if (options.url && /^postgres(ql)?:\/\//.test(options.url)) return connectPostgres(options.url, options.schema, options.pipelines);
  const file = options.file ?? 'data/marketplace.sqlite';
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL lets readers go on while a write commits. `synchronous = NORMAL` in WAL: a commit is written to
  // the WAL file (in the operating system's cache) before the server answers, and fsynced at checkpoints.
  // A killed process (kill -9, a crash) loses nothing it acknowledged, since the OS still writes what it
  // was given (tests/api/durability.test.ts); a power cut or kernel crash may lose the last commits before
  // a checkpoint, never the database's consistency. FULL would fsync the WAL on every commit: on this
  // machine's disk 1.5–4 ms a commit against 0.14–0.45 ms (about 10× fewer creates per second: README,
  // Performance), the same promise against a killed process. Where power cuts must not lose an
  // acknowledged write, run PostgreSQL (DATABASE_URL), which fsyncs each commit and groups them.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  // The WAL is copied into the database (and both fsynced) by a worker thread, so no commit waits for
  // it (sqlite/checkpointer.ts); this connection does it itself only if the worker falls far behind.
  sqlite.pragma(`wal_autocheckpoint = ${file === ':memory:' ? 1000 : FALLBACK_CHECKPOINT_PAGES}`);
  // The worker runs while there are writes: each commit wakes it (sqlite/checkpointer.ts).
  const checkpointer = file === ':memory:' ? undefined : startCheckpointer(file);
  // Write transactions that come together share one commit, each acknowledged after it (sqlite/group-commit.ts);
  // the rows they queued for the search index are indexed just before it (sqlite/search-pending.ts).
  const flushSearchQueue = searchQueueFlusher(sqlite);
  const beforeCommit = checkpointer
    ? () => {
        flushSearchQueue();
        checkpointer.wake();
      }
    : flushSearchQueue;
  const dialect = new GroupCommitSqliteDialect(sqlite, withStatementCache(sqlite), { beforeCommit });
  const db = new Kysely<any>({ dialect });
  // Records read one at a time run together with the others of their turn (sqlite/group-commit.ts `readInTurn`).
  attachTurnReads(db, dialect.driver);
  // A memory database is this connection's alone: no other connection can read it.
  const readWorkers = file === ':memory:' ? 0 : (options.readWorkers ?? parseReadWorkers(process.env.READ_WORKERS));
  const pool = readWorkers > 0 ? new ReadPool(file, readWorkers) : undefined;
  if (pool) attachReadPool(db, pool);
  return {
    db,
    engine: 'sqlite',
    close: async () => {
      await pool?.close();
      await db.destroy();
      await checkpointer?.stop();
    },
  };
}

async function connectPostgres(url: string, schema?: string, pipelinesOption?: number): Promise<Database> {
  if (schema && !/^\w+$/.test(schema)) throw new Error(`Invalid schema name '${schema}'`);
  const pg = await loadPg();
  const { parsePipelines, PgPipelines, pipelinedKysely, WRITE_LINE_LOCK_TIMEOUT_MS, WRITE_PIPELINE_NAME } = await import('./postgres/pg-pipeline.ts');
  if (schema) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`create schema if not exists "${schema}"`);
    await client.end();
  }
  const config: ClientConfig = { connectionString: url, ...(schema ? { options: `-c search_path="${schema}"` } : {}) };
  const pool = new pg.Pool({ ...config, max: 10 });
  // Reads outside a transaction go down a few pipelined connections (postgres/pg-pipeline.ts), and so do a
  // transaction's reads made before it has sent anything (db/write-behind.ts `readAhead`).
  const lines = pipelinesOption ?? parsePipelines(process.env.PG_PIPELINES);
  const pipelines = lines > 0 ? new PgPipelines(config, lines) : undefined;
  // A transaction whose statements were all kept until its commit (a create: its row, notification and
  // audit entries) goes whole down lines of its own, with the others of its turn (postgres/pg-pipeline.ts).
  // As many as there are read lines (PG_PIPELINES; none when 0).
  const writeLines = lines > 0 ? new PgPipelines(config, lines, { name: WRITE_PIPELINE_NAME, setup: `set lock_timeout = ${WRITE_LINE_LOCK_TIMEOUT_MS}` }) : undefined;
  const elsewhere: Elsewhere = {
    ahead: pipelines && ((text, values, otherwise) => pipelines.query(text, values ?? [], otherwise, (result) => result)),
    whole: writeLines && ((statements, otherwise) => writeLines.transaction(statements, otherwise)),
  };
  // Each connection prepares the reads it runs, once (postgres/pg-statements.ts), and sends a transaction's
  // `begin` and the writes it does not wait for with its next statement (postgres/pg-write-behind.ts).
  pool.on('connect', (client) => {
    prepareReadingStatements(client);
    sendWritesBehind(client, elsewhere);
  });
  const dialect = new PostgresDialect({ pool });
  const db = pipelines ? await pipelinedKysely(dialect, pipelines, writeLines ? [writeLines] : []) : new Kysely<any>({ dialect });
  // Records read one at a time are read in one statement with the others of their turn (postgres/record-batches.ts).
  if (parseBatchRecords(process.env.PG_BATCH_RECORDS)) batchRecords(db, { one: recordQuery, many: recordsQuery, asked: ASKED });
  return { db, engine: 'postgres', close: () => db.destroy() };
}

/**
 * Runs `work` (migrating, seeding) while no other server process does the same to this database: nodes
 * started together on one PostgreSQL would otherwise create the same tables at once (one fails) and
 * both seed an empty database. The lock is PostgreSQL's advisory lock, held by one pooled connection
 * for the duration, keyed by the schema in use; SQLite's file belongs to one process, so it just runs.
 */
export async function exclusively<T>(database: Database, work: () => Promise<T>): Promise<T> {
  if (database.engine !== 'postgres') return work();
  return database.db.connection().execute(async (connection) => {
    const key = sql`hashtext('marketplace-migrate:' || current_schema())`;
    await sql`select pg_advisory_lock(${key})`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(connection);
    }
  });
}

/** Drops a PostgreSQL schema and everything in it (test clean-up). */
export async function dropSchema(url: string, schema: string) {
  if (!/^\w+$/.test(schema)) throw new Error(`Invalid schema name '${schema}'`);
  const pg = await loadPg();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // An extension made in this schema (by an older migration) moves out first: dropping it would drop
  // the indexes of every other schema that use its operators.
  const { rows } = await client.query(
    `select e.extname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where n.nspname = $1`,
    [schema],
  );
  for (const { extname } of rows) await client.query(`alter extension "${extname}" set schema public`);
  await client.query(`drop schema if exists "${schema}" cascade`);
  await client.end();
}
