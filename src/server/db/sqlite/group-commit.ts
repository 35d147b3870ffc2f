/**
 * Kysely's SQLite driver with group commit: write transactions that come together share one commit.
 *
 * Why: a create's own statements are cheap next to its commit, which writes every page the write touched
 * (the table, each of its indexes, the audit log's and the search index's) to the WAL. Writes that come
 * together touch the same last pages of the time-ordered indexes and the same search segments, so a
 * commit for many costs little more than a commit for one (measured: 1.6 ms a create one by one, 0.9 ms
 * in groups of 25; README, Performance).
 *
 * How: the first write transaction opens the shared one (`begin`); each write transaction runs inside it
 * as a savepoint, and when its work is done it releases the savepoint and gives the connection to the
 * next one, then waits. The shared transaction commits once nothing else is queued (`setImmediate`),
 * after at most `maxGroup` writes, or before any statement outside a write transaction (a read, a write
 * of its own) runs: so a read never sees a write not yet committed. Only after that commit does a write
 * transaction return, so the server acknowledges no write before it is committed, as before (a killed
 * process loses nothing acknowledged: tests/api/durability.test.ts). A write that fails rolls back to its
 * own savepoint and the others go on; a commit that fails fails every write of the group, none kept.
 * Reads outside write transactions share one read transaction a turn of the event loop (`#readTogether`).
 * Records read one at a time may be given to `readInTurn`, which runs those of a turn one after another.
 */
import { CompiledQuery, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult } from 'kysely';
import type SQLite from 'better-sqlite3';

/** What the driver runs statements on: better-sqlite3, or its statement cache (sqlite-statements.ts). */
interface StatementSource {
  prepare(text: string): { reader: boolean; all(parameters: readonly unknown[]): unknown[]; run(parameters: readonly unknown[]): SQLite.RunResult };
}

export interface GroupCommitOptions {
  /** The most write transactions one commit holds: past this the group commits at once. */
  maxGroup?: number;
  /**
   * Runs inside every transaction that writes, just before it commits, on the same connection: a group's
   * and a lone write statement's alike (db/connect.ts: the search index's queue, search-pending.ts). If it
   * throws, the transaction is rolled back and its writes fail.
   */
  beforeCommit?: () => void;
}

/** How many commits the driver made and how many write transactions they held (tests read it). */
export interface GroupCommitStats {
  commits: number;
  writes: number;
  /** Read transactions opened for the reads of a turn (`#readTogether`). */
  readTransactions: number;
  /** Batches of reads run together at the end of a turn (`readInTurn`). */
  turnBatches: number;
  /** The reads those batches held. */
  turnReads: number;
}

/**
 * A statement that changes rows (what Kysely writes: insert, update, delete, or one of them after `with`).
 * Others outside a write transaction (a pragma, schema changes) run as they are.
 */
const WRITE = /^\s*(insert|update|delete|replace|with)\b/i;

/** Each write transaction runs as this savepoint inside the shared transaction. */
const SAVEPOINT = 'group_write';

/** A connection handed to one user at a time (Kysely acquires one per query or transaction). */
class Lease implements DatabaseConnection {
  /** Inside a write transaction (its savepoint is open). */
  inWrite = false;
  /** The connection went back to the queue early (its write waits for the group's commit). */
  released = false;

  constructor(
    private readonly driver: GroupCommitDriver,
    /** Hands the connection to the next holder in the queue. */
    readonly unlock: () => void,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return Promise.resolve(this.driver.run<R>(query, this.inWrite));
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not used with SQLite here');
  }
}

export class GroupCommitDriver implements Driver {
  readonly stats: GroupCommitStats = { commits: 0, writes: 0, readTransactions: 0, turnBatches: 0, turnReads: 0 };
  readonly #sqlite: SQLite.Database;
  readonly #statements: StatementSource;
  readonly #maxGroup: number;
  readonly #beforeCommit: (() => void) | undefined;
  /** The connection's queue: a promise per holder, each waiting for the one before. */
  #tail: Promise<void> = Promise.resolve();
  /** The shared transaction is open. */
  #open = false;
  /** Writes released into the shared transaction and not yet committed. */
  #waiting: { resolve(): void; reject(error: unknown): void }[] = [];
  #flushQueued = false;

  constructor(sqlite: SQLite.Database, statements: StatementSource, options: GroupCommitOptions = {}) {
    this.#sqlite = sqlite;
    this.#statements = statements;
    this.#maxGroup = options.maxGroup ?? 64;
    this.#beforeCommit = options.beforeCommit;
  }

  async init() {}

  /** Waits for the connection: queued in order, one holder at a time. */
  #lock(): Promise<() => void> {
    let unlock!: () => void;
    const mine = new Promise<void>((resolve) => (unlock = resolve));
    const before = this.#tail;
    this.#tail = before.then(() => mine);
    return before.then(() => unlock);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Lease(this, await this.#lock());
  }

  async releaseConnection(connection: DatabaseConnection) {
    const lease = connection as Lease;
    if (lease.released) return;
    lease.released = true;
    lease.unlock();
  }

  /**
   * A read run together with the others given in this turn of the event loop: one after another, once
   * the turn has taken in what it had (`setImmediate`), instead of at once in the middle of its request's
   * work. For records read one at a time (`readInTurn`, records/ownership.ts).
   *
   * Why: reading a product by id takes SQLite 4–5 µs in a loop but 13 µs of a request's 76 under load,
   * where a whole request's code and data come between two reads and push SQLite's out of the
   * processor's caches (README, Performance). Run in a row, each read finds SQLite's code, the statement
   * and the index's pages where the one before left them, and the answers that follow are sent in a row
   * too. Under load 10 or more reads a batch.
   *
   * What a read sees is what `run` gives any read outside a write transaction: everything committed, so
   * every write acknowledged before it was given. A write given in the same turn may commit first, as a
   * read and a write in flight together may come in either order on any connection. A read that fails
   * (a BLOB `json_object` refuses) rejects alone; the others of its batch go on.
   */
  readInTurn<R>(query: CompiledQuery): Promise<R[]> {
    return new Promise<R[]>((resolve, reject) => {
      if (!this.#inTurn.length) setImmediate(this.#runTurnReads);
      this.#inTurn.push({ query, resolve: resolve as (rows: unknown[]) => void, reject });
    });
  }

  /** Reads given to `readInTurn` this turn, not yet run. */
  #inTurn: { query: CompiledQuery; resolve(rows: unknown[]): void; reject(error: unknown): void }[] = [];

  /** Runs the turn's reads, holding the connection once for all of them (made once: no closure a turn). */
  readonly #runTurnReads = async () => {
    const unlock = await this.#lock();
    const batch = this.#inTurn;
    this.#inTurn = [];
    this.stats.turnBatches++;
    this.stats.turnReads += batch.length;
    try {
      for (const read of batch) {
        try {
          read.resolve(this.run(read.query, false).rows);
        } catch (error) {
          read.reject(error);
        }
      }
    } finally {
      unlock();
    }
  };

  /** Runs one statement. Outside a write transaction, the group commits first (nothing uncommitted is read). */
  run<R>(query: CompiledQuery, inWrite: boolean): QueryResult<R> {
    if (!inWrite && this.#open) this.#commit();
    const statement = this.#statements.prepare(query.sql);
    if (statement.reader && (inWrite || this.#readTogether(query.sql))) return { rows: statement.all(query.parameters) as R[] };
    if (!inWrite) this.#endReads();
    if (statement.reader) return { rows: statement.all(query.parameters) as R[] };
    const { changes, lastInsertRowid } = !inWrite && this.#beforeCommit && !this.#sqlite.inTransaction && WRITE.test(query.sql) ? this.#alone(statement, query.parameters) : statement.run(query.parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  /**
   * Reads outside a write transaction share one read transaction until this turn of the event loop ends
   * (`setImmediate`), or until anything else runs on the connection (a write transaction, a statement
   * that writes or changes the schema: `#endReads` first). False for a statement that may write (an
   * `insert … returning` is a reader to better-sqlite3): it runs alone, as before.
   *
   * Why: on its own, every read is a read transaction of its own, and starting one in WAL mode costs
   * SQLite three system calls (the database file's size, and unlocking and locking its read mark in the
   * `-shm` file): on this project's machines 8.9 µs, where the same indexed read of a record takes
   * 0.8 µs inside a transaction (50,000 products, by rowid, measured alone). Under load, the reads of
   * one turn (a request's session and record, and other requests') now pay that once.
   *
   * What a read sees is unchanged in what matters: every write the server acknowledged, since a write
   * transaction ends the shared read one before it begins and commits before it is acknowledged. A
   * write by another process to the same file (the server does not share its file) would be seen from
   * the next turn on.
   */
  #readTogether(text: string): boolean {
    if (WRITE.test(text)) return false;
    if (this.#reading) return true;
    if (this.#sqlite.inTransaction) return false;
    this.#exec('begin');
    this.#reading = true;
    this.stats.readTransactions++;
    setImmediate(this.#endReadsLater);
    return true;
  }

  /** The shared read transaction is open (`#readTogether`). */
  #reading = false;

  /** Ends the shared read transaction, if one is open. */
  #endReads() {
    if (!this.#reading) return;
    this.#reading = false;
    if (this.#sqlite.inTransaction) this.#exec('commit');
  }

  /** `#endReads` as `setImmediate` calls it (made once: no closure a turn). */
  readonly #endReadsLater = () => this.#endReads();

  /**
   * A write statement outside a write transaction, in a transaction of its own so that `beforeCommit`
   * runs before it commits (SQLite would commit it as it ends).
   */
  #alone(statement: ReturnType<StatementSource['prepare']>, parameters: readonly unknown[]) {
    this.#exec('begin');
    try {
      const result = statement.run(parameters);
      this.#beforeCommit!();
      this.#exec('commit');
      return result;
    } catch (error) {
      if (this.#sqlite.inTransaction) this.#exec('rollback');
      throw error;
    }
  }

  /** The few transaction statements, each prepared once: every write runs two or three of them. */
  #control = new Map<string, SQLite.Statement>();

  #exec(text: string) {
    let statement = this.#control.get(text);
    if (!statement) this.#control.set(text, (statement = this.#sqlite.prepare(text)));
    statement.run();
  }

  async beginTransaction(connection: DatabaseConnection) {
    const lease = connection as Lease;
    this.#endReads();
    if (!this.#open) {
      this.#exec('begin');
      this.#open = true;
    }
    this.#exec(`savepoint ${SAVEPOINT}`);
    lease.inWrite = true;
  }

  async commitTransaction(connection: DatabaseConnection) {
    const lease = connection as Lease;
    this.#exec(`release ${SAVEPOINT}`);
    lease.inWrite = false;
    const committed = new Promise<void>((resolve, reject) => this.#waiting.push({ resolve, reject }));
    if (this.#waiting.length >= this.#maxGroup) this.#commit();
    else this.#queueFlush();
    // The next queued holder goes on inside the same transaction while this write waits for the commit.
    await this.releaseConnection(lease);
    await committed;
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    const lease = connection as Lease;
    if (lease.released) return; // its commit failed: the group's rollback already undid it
    lease.inWrite = false;
    if (!this.#sqlite.inTransaction) {
      // SQLite rolled the whole transaction back itself (a full disk, an I/O error): the group is lost.
      this.#failGroup(new Error('The database rolled back a group of writes'));
      return;
    }
    this.#exec(`rollback to ${SAVEPOINT}`);
    this.#exec(`release ${SAVEPOINT}`);
    // Rolling back to the savepoint keeps the shared transaction and the write lock its failed statement
    // took: nothing would end it before the next statement, so another process writing to the file got
    // "database is locked" until then (issue 50). With no write of the group waiting to commit it holds
    // nothing: end it now. Otherwise the group's commit, already queued, ends it.
    if (!this.#waiting.length) {
      this.#exec('rollback');
      this.#open = false;
    }
  }

  /** Commits the group once the writes queued now have run. */
  #queueFlush() {
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    setImmediate(async () => {
      const unlock = await this.#lock();
      this.#flushQueued = false;
      try {
        if (this.#open) this.#commit();
      } finally {
        unlock();
      }
    });
  }

  /** Commits the shared transaction (the caller holds the connection) and answers every write it held. */
  #commit() {
    const group = this.#takeWaiting();
    try {
      this.#beforeCommit?.();
      this.#exec('commit');
    } catch (error) {
      if (this.#sqlite.inTransaction) this.#exec('rollback');
      this.#failGroup(error, group);
      return;
    }
    this.#open = false;
    this.stats.commits++;
    this.stats.writes += group.length;
    for (const write of group) write.resolve();
  }

  /** The writes waiting for the next commit, taken out of the queue. */
  #takeWaiting() {
    const group = this.#waiting;
    this.#waiting = [];
    return group;
  }

  /** The shared transaction is gone: every write it held fails (`group`: those already taken out to commit). */
  #failGroup(error: unknown, group = this.#takeWaiting()) {
    this.#open = false;
    for (const write of group) write.reject(error);
  }

  async destroy() {
    const unlock = await this.#lock();
    try {
      if (this.#open) this.#commit();
      this.#endReads();
      this.#sqlite.close();
    } finally {
      unlock();
    }
  }
}

/** Each SQLite Kysely instance's driver (db/connect.ts): a transaction is another instance, and reads as it is. */
const turnReaders = new WeakMap<Kysely<any>, GroupCommitDriver>();

export function attachTurnReads(db: Kysely<any>, driver: GroupCommitDriver) {
  turnReaders.set(db, driver);
}

/**
 * The rows a query reads: with the others of this turn where `db` is a SQLite database's own instance
 * (`GroupCommitDriver.readInTurn`), else at once. For records read one at a time.
 */
export async function readInTurn<R>(db: Kysely<any>, query: CompiledQuery<R>): Promise<R[]> {
  const driver = turnReaders.get(db);
  return driver ? driver.readInTurn<R>(query) : (await db.executeQuery(query)).rows;
}

/** Kysely's SQLite dialect with the group-commit driver. */
export class GroupCommitSqliteDialect implements Dialect {
  readonly driver: GroupCommitDriver;
  constructor(sqlite: SQLite.Database, statements: StatementSource, options?: GroupCommitOptions) {
    this.driver = new GroupCommitDriver(sqlite, statements, options);
  }
  createDriver = () => this.driver;
  createQueryCompiler = () => new SqliteQueryCompiler();
  createAdapter = () => new SqliteAdapter();
  createIntrospector = (db: Kysely<any>) => new SqliteIntrospector(db);
}
