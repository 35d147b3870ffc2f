/**
 * SQLite: list pages read by worker threads, each with its own read-only connection, so the server's
 * one JavaScript thread is not the only one running SQLite.
 *
 * Why: better-sqlite3 runs a query on the thread that asks, to its end. A cold page of 25 products
 * (44 columns written as JSON) costs SQLite about 100–130 µs, a search's walked page about 280 µs, of a
 * request's 150–300 µs on the main thread: the server answered on one core while the machine had more.
 * WAL lets any number of connections read while one writes; each worker reads on its own.
 *
 * What goes there: only a list's page (`readRows`, db/repository.ts), the dearer read, whose answer is
 * small to send back (25 rows, or one text of 25 records joined: db/json-records.ts `joinedPage`). A record
 * by id (about 10 µs of SQLite) costs less than the trip to a worker and back, and stays on the main
 * connection (tried again with batched messages, alternating: 19,365 req/s on the main connection
 * against 16,765 by the worker), as do counts (kept between writes), every write and every read inside
 * a transaction (a transaction is another Kysely instance: it has no pool, so it reads its own writes).
 *
 * What a reader sees: what is committed when its query starts. The server acknowledges a write only
 * after its commit (group-commit.ts), so a page asked after a write was answered holds it; a write in
 * flight may or may not be seen, as on PostgreSQL's pool. The read cache keeps an answer only when no
 * table it read was written while it was read (db/read-cache.ts), so a page read before a write's commit
 * is never kept past it.
 *
 * When a worker fails (it exits, its thread errs), its queries in flight reject with
 * `ReadPoolUnavailable` and `readRows` runs them on the main connection; the next query starts a new
 * worker in its place. Errors of SQLite itself (a BLOB `json_object` refuses) come back as errors with
 * SQLite's message and code, as the main connection's would.
 */
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery, Kysely } from 'kysely';
import { rowMaker } from './sqlite-statements.ts';
import { Slots } from '../../slots.ts';

type Row = Record<string, unknown>;

/** The most workers `READ_WORKERS` may ask for: each holds a connection and its own page cache. */
export const MAX_READ_WORKERS = 16;

/**
 * `READ_WORKERS`: how many threads read list pages (SQLite files; 0 reads on the main connection).
 * Unset or empty: one a CPU, at most 4, and none on a single CPU (the worker would only take turns with
 * the main thread, the trip to it and back added). Why as many as the CPUs, the main thread's too: a
 * worker waits on the main thread for its next pages and the main thread on it for their answers, so
 * with one alone the two took turns. On 2 cores, cold, 50 connections, 50,000 top categories,
 * alternating, 5 rounds of 8 s (2026-12-01, load 2.0–2.7): searching 'glass' 9,515–10,565 req/s with one
 * worker against 11,091–11,471 with two, a sorted page 17,200–18,944 against 19,638–20,446; two ahead in
 * every round. (On 2026-11-26, when a page cost SQLite three times what it does now, one had done as well
 * as two: 'glass' 2,529 and 3,164 req/s against 2,227 and 2,783.) Anything else stops the start with a
 * message.
 */
export function parseReadWorkers(value: string | undefined, cpuCount = cpus().length): number {
  const text = (value ?? '').trim();
  if (text === '') return cpuCount > 1 ? Math.min(cpuCount, 4) : 0;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > MAX_READ_WORKERS)
    throw new Error(`READ_WORKERS must be a whole number from 0 to ${MAX_READ_WORKERS}, not '${value}'`);
  return n;
}

/** The most statements a worker keeps prepared (bounded as the main connection's are). */
const MAX_WORKER_STATEMENTS = 500;

/** Workers in a row that may die before answering anything before the pool stops starting new ones. */
const FAILED_STARTS = 3;

/** A worker could not answer (it exited or failed): the query is to be run on the main connection. */
export class ReadPoolUnavailable extends Error {
  constructor(reason: string) {
    super(`The read worker is unavailable: ${reason}`);
    this.name = 'ReadPoolUnavailable';
  }
}

/** SQLite's own error, as the worker reports it (message and code kept). */
class SqliteReadError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'SqliteError';
  }
}

// Plain JavaScript (the worker runs no TypeScript loader). Statements are kept under a number the main
// thread gives each text (`Reader.give`: a text of some kilobytes is sent once, not copied and hashed on
// every page), bounded as the main connection's are (sqlite-statements.ts), and run in raw mode: arrays
// cross the thread boundary for less than objects, and the main thread makes them objects by one function
// a statement. Bytes (a joined page is one BLOB: db/json-records.ts) are moved to the main thread, not copied.
// Queries come in batches and their answers go back in one message (`Reader.give`); a batch of more than
// one is read in one read transaction, so SQLite takes and releases its WAL read lock (two system calls)
// once, not once a query. Its snapshot starts after every query in it was asked, so it holds every write
// answered before any of them was.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const statements = new Map();
function run({ id, key, sql, parameters, forget }, moved) {
  try {
    if (forget) statements.clear();
    let kept = statements.get(key);
    if (!kept) {
      const statement = db.prepare(sql);
      if (!statement.reader) throw new Error('A read worker runs only statements that return rows');
      statement.raw(true);
      kept = { statement, columns: statement.columns().map((c) => c.name) };
      statements.set(key, kept);
    }
    const rows = kept.statement.all(parameters);
    for (const row of rows) for (const value of row) if (value instanceof Uint8Array && value.byteOffset === 0 && value.buffer.byteLength === value.byteLength) moved.push(value.buffer);
    return { id, rows, columns: kept.columns };
  } catch (error) {
    return { id, error: { message: String((error && error.message) || error), code: error && error.code } };
  }
}
const begin = db.prepare('BEGIN');
const commit = db.prepare('COMMIT');
parentPort.on('message', (queries) => {
  const moved = [];
  const together = queries.length > 1;
  if (together) begin.run();
  let answers;
  try {
    answers = queries.map((query) => run(query, moved));
  } finally {
    if (together && db.inTransaction) commit.run();
  }
  parentPort.postMessage(answers, moved);
});
`;

interface Pending {
  resolve(rows: Row[]): void;
  reject(error: Error): void;
  /** The statement's text (`Reader.give` sets it). */
  sql?: string;
}

/** What the worker is sent for one query: a statement's number, and its text the first time. */
interface Query {
  id: number;
  key: number;
  sql?: string;
  parameters: readonly unknown[];
  forget?: boolean;
}

interface Answer {
  id: number;
  rows?: unknown[][];
  columns?: string[];
  error?: { message: string; code?: string };
}

/** One worker and the queries it has been given and not answered. */
class Reader {
  /** Queries given and not answered, each under its slot, the number its answer comes back with (slots.ts). */
  readonly pending = new Slots<Pending>();
  dead = false;
  /** It answered a query once at least (it started well). */
  answered = false;
  readonly worker: Worker;

  constructor(
    file: string,
    driver: string,
    onAnswer: (reader: Reader, answer: Answer) => void,
    /** The pool's count of messages sent (ReadPool.sent). */
    readonly sent: { n: number },
  ) {
    this.worker = new Worker(WORKER, { eval: true, workerData: { file, driver } });
    // An idle worker keeps nothing alive; one with queries in flight does (`give`).
    this.worker.unref();
    this.worker.on('message', (answers: Answer[]) => {
      for (const answer of answers) onAnswer(this, answer);
    });
    this.worker.on('error', (error) => void this.fail(error.message));
    this.worker.on('exit', (code) => void this.fail(`it exited (${code})`));
  }

  /**
   * The statement texts this worker has been sent, each with the number it keeps it under. At the bound
   * both forget them all (`forget` goes with the next text; messages arrive in order).
   */
  readonly #keys = new Map<string, number>();
  #nextKey = 0;

  /**
   * Queries given and not yet sent. They go to the worker together once the event loop has taken in what
   * it had (`setImmediate`), and come back together: a message each way costs the main thread some
   * microseconds and wakes the other thread, and under load many pages are asked in one turn of the loop
   * (50 connections, cold sorted pages of 50,000 products: 10 or more a message). Alternating with the
   * message-a-query server in one run: 12,554 -> 13,902 req/s, 92 -> 76 µs of CPU a page (main thread
   * 60 -> 48).
   */
  #outbox: Query[] = [];

  give(query: CompiledQuery, pending: Pending) {
    if (!this.pending.size) this.worker.ref();
    pending.sql = query.sql;
    const id = this.pending.add(pending);
    if (!this.#outbox.length) setImmediate(this.#send);
    const key = this.#keys.get(query.sql);
    if (key !== undefined) return void this.#outbox.push({ id, key, parameters: query.parameters });
    const forget = this.#keys.size >= MAX_WORKER_STATEMENTS;
    if (forget) {
      this.#keys.clear();
      this.#nextKey = 0;
    }
    const made = this.#nextKey++;
    this.#keys.set(query.sql, made);
    this.#outbox.push({ id, key: made, sql: query.sql, parameters: query.parameters, forget });
  }

  readonly #send = () => {
    const queries = this.#outbox;
    this.#outbox = [];
    // A worker that failed meanwhile has rejected these already (`fail`).
    if (this.dead) return;
    this.sent.n++;
    this.worker.postMessage(queries);
  };

  /** A text the worker failed on may not be kept there: it is sent whole again next time. */
  forget(sql: string) {
    this.#keys.delete(sql);
  }

  settle(id: number): Pending | undefined {
    const pending = this.pending.take(id);
    if (!this.pending.size) this.worker.unref();
    return pending;
  }

  /** Rejects what it was given and ends the thread; settles when the thread has ended. */
  async fail(reason: string): Promise<void> {
    if (!this.dead) {
      this.dead = true;
      const error = new ReadPoolUnavailable(reason);
      for (const pending of this.pending) pending.reject(error);
      this.pending.clear();
    }
    await this.worker.terminate();
  }
}

/** Worker threads reading one SQLite file, each query to the least busy; started on first use. */
export class ReadPool {
  readonly #file: string;
  readonly #size: number;
  readonly #driver = createRequire(import.meta.url).resolve('better-sqlite3');
  readonly #readers: Reader[] = [];
  /** Objects made from raw rows, a function per statement's columns (sqlite-statements.ts). */
  readonly #makers = new Map<string, ((values: unknown[]) => Row) | undefined>();
  #closed = false;
  /** Workers in a row that died before answering anything; at FAILED_STARTS the pool stops starting them. */
  #failedStarts = 0;

  constructor(file: string, size: number) {
    this.#file = file;
    this.#size = size;
  }

  /** The rows `query` selects, read by a worker. */
  all(query: CompiledQuery): Promise<Row[]> {
    if (this.#closed) return Promise.reject(new ReadPoolUnavailable('the database is closed'));
    let reader: Reader;
    try {
      reader = this.#leastBusy();
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<Row[]>((resolve, reject) => reader.give(query, { resolve, reject }));
  }

  /** How many queries workers have answered (tests: a list page is read by one). */
  served = 0;

  /** How many messages (each a batch of queries) have been sent to workers (tests). */
  get sent(): number {
    return this.#sent.n;
  }

  readonly #sent = { n: 0 };

  /** The workers running now (tests end one to see the pool recover). */
  get threads(): readonly Worker[] {
    return this.#readers.filter((r) => !r.dead).map((r) => r.worker);
  }

  /** The worker to give a query to; throws ReadPoolUnavailable once workers keep failing to start. */
  #leastBusy(): Reader {
    if (this.#failedStarts >= FAILED_STARTS) throw new ReadPoolUnavailable('its workers failed to start');
    // Dead workers are replaced where they stood, unless they keep dying before answering anything (the
    // file, the driver): then every page would pay a thread's start for nothing, and the pool gives up.
    for (let i = 0; i < this.#readers.length; i++) {
      const reader = this.#readers[i];
      if (!reader.dead) continue;
      if (!reader.answered && ++this.#failedStarts >= FAILED_STARTS) {
        console.warn(`SQLite read workers failed to start ${FAILED_STARTS} times in a row; list pages are read on the main connection.`);
        this.#readers.splice(i--, 1);
        continue;
      }
      this.#readers[i] = this.#start();
    }
    if (this.#failedStarts >= FAILED_STARTS) throw new ReadPoolUnavailable('its workers failed to start');
    let best: Reader | undefined;
    for (const r of this.#readers) if (!best || r.pending.size < best.pending.size) best = r;
    // A new worker only while every running one is busy: a quiet server runs one.
    if ((!best || best.pending.size > 0) && this.#readers.length < this.#size) {
      best = this.#start();
      this.#readers.push(best);
    }
    return best!;
  }

  #start() {
    return new Reader(this.#file, this.#driver, (reader, answer) => this.#answered(reader, answer), this.#sent);
  }

  #answered(reader: Reader, { id, rows, columns, error }: Answer) {
    const pending = reader.settle(id);
    if (!pending) return;
    this.served++;
    reader.answered = true;
    this.#failedStarts = 0;
    if (error) {
      reader.forget(pending.sql!);
      return pending.reject(new SqliteReadError(error.message, error.code));
    }
    const key = columns!.join('\u0000');
    let make = this.#makers.get(key);
    if (make === undefined && !this.#makers.has(key)) {
      if (this.#makers.size >= 500) this.#makers.clear();
      this.#makers.set(key, (make = rowMaker(columns!)));
    }
    // A column named `__proto__` cannot be a literal's key: such rows are made key by key.
    const objects = rows!.map((values) => (make ? make(values) : Object.fromEntries(columns!.map((c, i) => [c, values[i]]))));
    pending.resolve(objects);
  }

  /** Stops every worker; queries in flight reject (`ReadPoolUnavailable`). */
  async close() {
    this.#closed = true;
    await Promise.all(this.#readers.map((r) => r.fail('the database is closed')));
  }
}

/** Each SQLite Kysely instance's pool (db/connect.ts): a transaction is another instance, and has none. */
const pools = new WeakMap<Kysely<any>, ReadPool>();

export function attachReadPool(db: Kysely<any>, pool: ReadPool) {
  pools.set(db, pool);
}

export const readPoolOf = (db: Kysely<any>) => pools.get(db);

/**
 * The rows a read selects: by a worker where `db` has a pool, else (and when the worker is gone) on the
 * main connection. For a list's page only (see above).
 */
export async function readRows<R>(db: Kysely<any>, query: { compile(): CompiledQuery; execute(): Promise<R[]> }): Promise<R[]> {
  const pool = pools.get(db);
  if (!pool) return query.execute();
  try {
    return (await pool.all(query.compile())) as R[];
  } catch (error) {
    if (error instanceof ReadPoolUnavailable) return query.execute();
    throw error;
  }
}
