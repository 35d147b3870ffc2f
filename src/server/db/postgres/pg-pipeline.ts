/**
 * PostgreSQL: statements that read, run alone (not in a transaction), sent down pipelined connections,
 * several on the wire at once, instead of one at a time on a pooled connection each.
 *
 * A pooled connection carries one query at a time: a request waits for a free connection, its query is
 * written to the socket, PostgreSQL's backend wakes to answer it, and the connection is given back. On
 * a machine whose cores the server, PostgreSQL and the clients share, each of those wake-ups is a switch
 * of process: a V8 profile of cold sorted pages (50,000 top categories, 50 connections) found 40 % of
 * the server's main thread in the `writev` that sends a query (the thread preempted by the backend it
 * had woken), and PostgreSQL's ten backends used as much CPU as the server, little of it in the query.
 * A pipelined connection (node-postgres' `pipeline: true`) writes each read as it comes, each with its
 * own Sync (an error fails that read alone), and PostgreSQL answers them in order; the reads of one turn
 * of the event loop leave in one write (the socket corked until `setImmediate`), so a backend woken once
 * answers all of them. Cold sorted pages, alone: 4,205–5,793 → 8,482–10,707 req/s (README, Performance).
 *
 * Lines are filled in order: a read goes down the first that has room (MAX_IN_FLIGHT) and is not held
 * up (its oldest read out for less than STUCK_MS), else the next, else a pooled connection. Under a
 * steady load one backend answers everything: two lines shared evenly stalled each other's reads for
 * 40–300 ms at a time on these 2 cores. A slow read (a large count) holds up the reads behind it on its
 * line for at most about STUCK_MS before the next ones go elsewhere.
 *
 * Only statements run alone come here (`PipelinedExecutor`), and a transaction's reads made before it
 * has sent anything (pg-write-behind.ts `READ_AHEAD_MARK`): a transaction's other statements, and those
 * on `db.connection()` (which share a session: an advisory lock), run on their own pooled connection, as
 * Kysely gives them an executor of that connection. Each line prepares its reads once, as the pooled
 * connections do (pg-statements.ts). A read sees what was committed when it starts, as on a pooled
 * connection; a write is answered after its commit, so a read asked after it sees it. A line whose
 * connection is lost (its backend ended, the socket closed) has the reads on its wire run again on a
 * pooled connection, and the next read opens a new line.
 *
 * Write lines (issue 54: creates against Platformatic DB, whose create is one insert on its own
 * connection): a transaction of which nothing was sent before its `commit` (a create: its row, its
 * notification and audit entries, all kept by pg-write-behind.ts) is sent whole, `begin` to `commit`, down
 * a line of another set, with the other such transactions of its turn (`transaction`). Which connection
 * runs it does not matter: none of its statements waited for another's answer. Its statements are queued
 * together, so no other transaction's come between them; each has its own Sync, so a failure ends that
 * transaction (its `commit` answers ROLLBACK) and the next one on the line runs as if alone. Lines are
 * spread over rather than filled in order, so that commits wait for their WAL flushes side by side. A
 * transaction that would wait for a lock there gives up after WRITE_LINE_LOCK_TIMEOUT_MS and runs on a
 * pooled connection of its own. Measured: docs/performance.md "Issue 54, fourth part".
 */
import pg from 'pg';
import {
  DefaultQueryExecutor,
  Kysely,
  type CompiledQuery,
  type ConnectionProvider,
  type DatabaseConnection,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type KyselyPlugin,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { prepareReadingStatements, READING } from './pg-statements.ts';
import type { Kept } from './pg-write-behind.ts';

/** The most reads one pipelined connection carries at once; past it, a read takes the next line or a pooled connection. */
export const MAX_IN_FLIGHT = 64;
/**
 * A line whose oldest read has waited this long is passed over (the next line, else a pooled connection
 * answers): a slow read (a large count, an export's page) holds up every read behind it on its line, as
 * one connection answers one statement at a time.
 */
export const STUCK_MS = 25;
/** The `application_name` of a pipelined connection. */
export const PIPELINE_NAME = 'marketplace read pipeline';
/** The `application_name` of a pipelined connection that carries whole transactions (`PgPipelines.transaction`). */
export const WRITE_PIPELINE_NAME = 'marketplace write pipeline';
/**
 * How long a transaction on a write line may wait for a lock (another transaction's row, a unique key
 * being written) before it is taken back and run on a pooled connection of its own, where it may wait as
 * long as it must: a line answers in order, so one transaction waiting there would hold up every one
 * behind it, and a wait for a transaction that is itself behind it on the line would never end.
 */
export const WRITE_LINE_LOCK_TIMEOUT_MS = 20;
/** PostgreSQL's SQLSTATE for a lock not had within `lock_timeout`. */
const LOCK_NOT_AVAILABLE = '55P03';

/** What a set of lines is for: its connections' name, and a statement each runs first. */
export interface LinesRole {
  name: string;
  setup?: string;
}

/** The pipelined connections a server keeps: `PG_PIPELINES`, else 2 (measured: README, Performance). */
export function parsePipelines(value: string | undefined): number {
  if (value === undefined || value === '') return 2;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 32) throw new Error(`PG_PIPELINES must be a whole number from 0 to 32, not '${value}'`);
  return n;
}

interface Line {
  client: pg.Client;
  /** Connected and ready to query; a line that fails is dropped and the next read opens another. */
  ready: Promise<pg.Client>;
  /** When each read on the wire was sent, oldest first (a ring of MAX_IN_FLIGHT): answers come in order. */
  sentAt: Float64Array;
  oldest: number;
  inFlight: number;
  corked: boolean;
  /** The connection was lost (or never made): what was on its wire is run elsewhere. */
  failed: boolean;
  /** The oldest read on the wire was answered. */
  done(): void;
  /** Marks the line failed and takes it out of use. */
  drop(): void;
}

/**
 * Whether a read's error says its line's connection is gone rather than that the read is wrong: the
 * connection said it ended (`failed`), PostgreSQL's FATAL error ended the session (57P01 when an operator
 * terminates the backend), or node-postgres' own error came with the socket closed ("Connection
 * terminated unexpectedly"). An error node-postgres raises before sending (a value it cannot write)
 * carries no SQLSTATE either, but leaves the connection as it was: that read fails, the line goes on.
 */
const lostWith = (line: Line, error: unknown) => {
  if (line.failed) return true;
  const { severity } = (error ?? {}) as { severity?: string };
  return severity === 'FATAL' || severity === 'PANIC' || streamOf(line.client).destroyed === true;
};

/**
 * `config` with its connections named `name`: node-postgres takes a name in the connection string over
 * the one given beside it, so one there is taken out (a line is named by what it carries, whatever the
 * pool's connections are called).
 */
function namedConfig(config: pg.ClientConfig, name: string): pg.ClientConfig {
  let { connectionString } = config;
  if (connectionString?.includes('application_name')) {
    const parsed = new URL(connectionString);
    parsed.searchParams.delete('application_name');
    connectionString = parsed.toString();
  }
  return { ...config, connectionString, application_name: name };
}

/** The socket under a node-postgres client (its `connection.stream`). */
const streamOf = (client: pg.Client) =>
  (client as unknown as { connection: { stream: NodeJS.WritableStream & { cork?(): void; uncork?(): void; destroyed?: boolean } } }).connection.stream;

/** Pipelined connections to one database, opened when first needed and filled in order (above). */
export class PgPipelines {
  readonly #lines: (Line | undefined)[];
  #closed = false;

  constructor(
    private readonly config: pg.ClientConfig,
    count: number,
    private readonly role: LinesRole = { name: PIPELINE_NAME },
  ) {
    this.#lines = Array.from({ length: count }, () => undefined);
  }

  /**
   * The line a statement goes down now, counted as sent: of those with room and not held up, the first
   * (reads), or the one with the fewest on its wire (`spread`: whole transactions).
   */
  #take(spread = false): Line | undefined {
    const now = performance.now();
    let taken: Line | undefined;
    for (let i = 0; i < this.#lines.length; i++) {
      const line = (this.#lines[i] ??= this.#open(i));
      if (line.inFlight >= MAX_IN_FLIGHT || (line.inFlight > 0 && now - line.sentAt[line.oldest] > STUCK_MS)) continue;
      if (!taken || line.inFlight < taken.inFlight) taken = line;
      if (!spread || !line.inFlight) break;
    }
    if (taken) {
      taken.sentAt[(taken.oldest + taken.inFlight) % MAX_IN_FLIGHT] = now;
      taken.inFlight++;
    }
    return taken;
  }

  /**
   * Runs a whole transaction, `begin` to `commit`, down the line with the fewest on its wire (of those with
   * room and not held up), its statements in one write with the others of this turn, and answers the
   * `commit`'s result, or its first statement's failure (after which PostgreSQL rolled it back). Only a
   * transaction whose every statement is known before any is sent comes here (pg-write-behind.ts: nothing
   * of it read or waited on), so which connection runs it does not matter. A transaction that waited too
   * long for a lock (WRITE_LINE_LOCK_TIMEOUT_MS, when the lines are made with it) was rolled back: it is run
   * again by `elsewhere`. A line lost under it is not: whether its `commit` was done cannot be known, so
   * that is the transaction's error, as on a pooled connection.
   */
  transaction(statements: readonly Kept[], elsewhere: () => Promise<unknown>): Promise<unknown> {
    if (this.#closed) return elsewhere();
    // Spread over the lines: each line's backend commits its transactions one after another, each waiting
    // for its WAL flush; on several lines the flushes overlap (and PostgreSQL makes one of those that meet).
    const line = this.#take(true);
    if (!line) return elsewhere();
    return this.#sendAll(line, statements).then(
      (result) => {
        line.done();
        return result;
      },
      (error: unknown) => {
        line.done();
        if (lostWith(line, error)) line.drop();
        else if ((error as { code?: string })?.code === LOCK_NOT_AVAILABLE && !this.#closed) return elsewhere();
        throw error;
      },
    );
  }

  async #sendAll(line: Line, statements: readonly Kept[]): Promise<unknown> {
    const client = await line.ready;
    this.#cork(line, client);
    // Queued together, in order, in this one turn: no other transaction's statement comes between them.
    const results = await Promise.allSettled(statements.map((s) => client.query(s.text, s.values)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    return (results.at(-1) as PromiseFulfilledResult<unknown>).value;
  }

  /**
   * Runs one reading statement down the first line that can take it, else by `elsewhere` (a pooled
   * connection): also when its line fails under it (the connection lost), since a read can be run again.
   */
  query<R>(text: string, values: readonly unknown[], elsewhere: () => Promise<R>, shape: (result: pg.QueryResult) => R): Promise<R> {
    if (this.#closed) return elsewhere();
    const line = this.#take();
    if (line)
      return this.#send(line, text, values).then(
        (result) => {
          line.done();
          return shape(result);
        },
        (error) => {
          line.done();
          if (this.#closed || !lostWith(line, error)) throw error;
          line.drop();
          return elsewhere();
        },
      );
    return elsewhere();
  }

  async #send(line: Line, text: string, values: readonly unknown[]): Promise<pg.QueryResult> {
    const client = await line.ready;
    this.#cork(line, client);
    return client.query(text, values as unknown[]);
  }

  /** Every statement of this turn goes out in one write: corked now, uncorked once the turn's I/O is handled. */
  #cork(line: Line, client: pg.Client) {
    const stream = streamOf(client);
    if (!line.corked && stream.cork && stream.uncork) {
      line.corked = true;
      stream.cork();
      setImmediate(() => {
        line.corked = false;
        stream.uncork!();
      });
    }
  }

  #open(slot: number): Line {
    // Named, so an operator tells them from the pool's in pg_stat_activity.
    const client = new pg.Client({ ...namedConfig(this.config, this.role.name), pipeline: true } as pg.ClientConfig);
    const line: Line = {
      client,
      ready: undefined as unknown as Promise<pg.Client>,
      sentAt: new Float64Array(MAX_IN_FLIGHT),
      oldest: 0,
      inFlight: 0,
      corked: false,
      failed: false,
      done() {
        this.oldest = (this.oldest + 1) % MAX_IN_FLIGHT;
        this.inFlight--;
      },
      drop: () => {
        if (line.failed) return;
        line.failed = true;
        if (this.#lines[slot] === line) this.#lines[slot] = undefined;
        // Closed too, so a line taken out of use never holds a connection (a FATAL error can come before the socket closes).
        client.end().catch(() => undefined);
      },
    };
    const drop = line.drop;
    // A lost connection (the server restarted, the socket closed): the reads on its wire run again elsewhere, the next read opens another line.
    client.on('error', (error) => {
      drop();
      if (!this.#closed) console.error(`PostgreSQL pipelined connection lost: ${error.message}`);
    });
    client.on('end', drop);
    line.ready = client.connect().then(
      async () => {
        if (this.role.setup) await client.query(this.role.setup);
        prepareReadingStatements(client);
        return client;
      },
      (error) => {
        drop();
        throw error;
      },
    );
    return line;
  }

  async close() {
    this.#closed = true;
    const lines = this.#lines.splice(0).filter((line): line is Line => line !== undefined);
    await Promise.all(lines.map((line) => line.ready.then((client) => client.end(), () => undefined)));
  }
}

/**
 * Kysely's executor, with a statement run alone (not in a transaction, not on `db.connection()`) and
 * reading sent down the pipelines. Transactions and connections are given an executor of their own
 * connection by Kysely (`withConnectionProvider`), which is the default one: nothing of theirs comes here.
 */
export class PipelinedExecutor extends DefaultQueryExecutor {
  constructor(
    private readonly compiler: QueryCompiler,
    private readonly adapterOf: DialectAdapter,
    private readonly provider: ConnectionProvider,
    private readonly pipelines: PgPipelines,
    plugins: KyselyPlugin[] = [],
  ) {
    super(compiler, adapterOf, provider, plugins);
  }

  override async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // Plugins transform results in the base class's private way: a Kysely with any keeps the default path.
    if (this.plugins.length || !READING.test(compiled.sql)) return super.executeQuery<R>(compiled);
    return this.pipelines.query(compiled.sql, compiled.parameters, () => super.executeQuery<R>(compiled), asResult<R>);
  }

  override withPlugins(plugins: readonly KyselyPlugin[]) {
    return new PipelinedExecutor(this.compiler, this.adapterOf, this.provider, this.pipelines, [...this.plugins, ...plugins]);
  }
  override withPlugin(plugin: KyselyPlugin) {
    return new PipelinedExecutor(this.compiler, this.adapterOf, this.provider, this.pipelines, [...this.plugins, plugin]);
  }
  override withPluginAtFront(plugin: KyselyPlugin) {
    return new PipelinedExecutor(this.compiler, this.adapterOf, this.provider, this.pipelines, [plugin, ...this.plugins]);
  }
  override withoutPlugins() {
    return new PipelinedExecutor(this.compiler, this.adapterOf, this.provider, this.pipelines, []);
  }
}

/** A read's answer as Kysely's PostgreSQL driver gives it. */
const asResult = <R>({ rows }: pg.QueryResult): QueryResult<R> => ({ rows: (rows ?? []) as R[] });

/** The dialect's driver, initialised once, that closes the pipelines with the pool. */
class PipelinedDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly pipelines: readonly PgPipelines[],
  ) {}
  init() {
    return this.inner.init();
  }
  acquireConnection(): Promise<DatabaseConnection> {
    return this.inner.acquireConnection();
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return this.inner.beginTransaction(connection, settings);
  }
  commitTransaction(connection: DatabaseConnection) {
    return this.inner.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection) {
    return this.inner.rollbackTransaction(connection);
  }
  releaseConnection(connection: DatabaseConnection) {
    return this.inner.releaseConnection(connection);
  }
  async destroy() {
    await Promise.all(this.pipelines.map((p) => p.close()));
    await this.inner.destroy();
  }
}

/**
 * A Kysely over `dialect` (PostgreSQL's, on a pg Pool) whose lone reads go down `pipelines`; `others`
 * (the write lines) are closed with it. Built from Kysely's public props (`KyselyProps`), as Kysely builds
 * its own copies (`withPlugin`).
 */
export async function pipelinedKysely(dialect: Dialect, pipelines: PgPipelines, others: readonly PgPipelines[] = []): Promise<Kysely<any>> {
  const driver = new PipelinedDriver(dialect.createDriver(), [pipelines, ...others]);
  await driver.init();
  const provider: ConnectionProvider = {
    async provideConnection(consumer) {
      const connection = await driver.acquireConnection();
      try {
        return await consumer(connection);
      } finally {
        await driver.releaseConnection(connection);
      }
    },
  };
  const executor = new PipelinedExecutor(dialect.createQueryCompiler(), dialect.createAdapter(), provider, pipelines);
  return new Kysely<any>({ config: { dialect }, driver, executor, dialect });
}
