/**
 * PostgreSQL: a transaction's statements that nothing waits on are sent with the next one it waits on,
 * in one write, pipelined: its `begin` with its first statement, and the writes `writeBehind` names (the
 * record's insert, its audit entries, the notification it stores: db/write-behind.ts) with its `commit`.
 *
 * Why: a product's create was seven statements on its connection, each a round trip: a socket write
 * that wakes PostgreSQL's backend, whose answer wakes the server again. On two cores shared by the
 * server, PostgreSQL and the clients, each wake-up costs more than the statement (a `begin` alone,
 * measured by the backend's CPU in /proc/<pid>/schedstat: 40–90 µs a create), and the server's largest
 * single cost was the `writev` of each statement (15 % of its main thread, docs/performance.md). It became
 * three round trips: `begin` and the site commission; the parents; the product, its notification, its
 * audit entries and `commit`. Now (issue 54, creates against Platformatic DB) none of them is the
 * create's own: its reads before it writes go down the read lines with the other reads of their turn
 * (`READ_AHEAD_MARK`), and, every statement of it having been kept until its `commit`, the transaction
 * goes whole down a write line with the other transactions of its turn (`Elsewhere.whole`).
 *
 * How: each pooled client's `query` (node-postgres) is wrapped. A `begin` is kept, not sent, and answered
 * at once. A statement marked by `WRITE_BEHIND_MARK` (a comment at its start, so an unwrapped client simply
 * runs it) is kept the same way. The next statement that is not kept is sent after everything kept, the
 * socket corked so they leave in one write, with the client in node-postgres' pipeline mode (each with its
 * own Sync) until all are answered. A kept statement that failed fails that next statement, with its own
 * error (a `commit` after it answers ROLLBACK, not an error, in PostgreSQL): so a unique index that refuses
 * a kept insert is still the write's error (the slug's retry, writes.ts `withSlugRetries`; a duplicate's
 * 409). A `rollback` drops what is kept: a `begin` never sent needs no rollback.
 *
 * What is kept is only ever sent before the transaction's next statement, so the transaction reads its
 * own writes as before, in the order it made them, and nothing is ever sent after its end.
 */

/** The comment a statement starts with when its caller does not wait for it (db/write-behind.ts). */
export const WRITE_BEHIND_MARK = '/* behind */ ';
/**
 * The comment a transaction's plain read starts with when it may run before the transaction
 * (db/write-behind.ts `readAhead`): while only the transaction's `begin` is kept, it goes down a
 * pipelined connection (`ReadAhead`) and nothing is sent on this one.
 */
export const READ_AHEAD_MARK = '/* ahead */ ';

/**
 * Runs a read on a pipelined connection (pg-pipeline.ts `PgPipelines.query`), else by `elsewhere`;
 * answers node-postgres' result.
 */
export type ReadAhead = (text: string, values: unknown[] | undefined, elsewhere: () => Promise<unknown>) => Promise<unknown>;

/**
 * Runs a whole transaction, `begin` to `commit`, on a pipelined connection that carries such transactions
 * (pg-pipeline.ts `PgPipelines.transaction`), else by `elsewhere`; answers the `commit`'s result.
 */
export type WholeTransaction = (statements: readonly Kept[], elsewhere: () => Promise<unknown>) => Promise<unknown>;

/** Where a connection's transactions may send what need not be on it (connect.ts). */
export interface Elsewhere {
  /** A read made before the transaction sent anything (`READ_AHEAD_MARK`). */
  ahead?: ReadAhead;
  /** A transaction of which nothing was sent before its `commit`: every statement of it was kept. */
  whole?: WholeTransaction;
}

type Query = (...args: unknown[]) => unknown;

/** A statement kept to be sent later (and one of a transaction sent whole: pg-pipeline.ts `transaction`). */
export interface Kept {
  text: string;
  values: unknown[] | undefined;
}

/** What node-postgres answers, for a statement kept and answered before it is sent. */
const answered = (command: string) => Promise.resolve({ command, rowCount: 0, rows: [], fields: [] });

/** The part of a node-postgres client this wraps. */
interface PipelinableClient {
  query: Query;
  pipeline?: boolean;
  connection?: { stream?: { cork?: () => void; uncork?: () => void } };
}

/**
 * Makes `client` keep a transaction's `begin` and its marked writes, and send them with its next
 * statement (see above). Called on each new pooled connection, after `prepareReadingStatements`.
 */
export function sendWritesBehind(client: PipelinableClient, { ahead, whole }: Elsewhere = {}): void {
  const query = client.query.bind(client) as Query;
  /** Kept, in order; `begun` when a `begin` is among them or was sent. */
  let kept: Kept[] = [];
  (client as { query: Query }).query = (...args: unknown[]) => {
    const [text, values, callback] = args;
    if (typeof text !== 'string' || callback !== undefined || !(values === undefined || Array.isArray(values))) return query(...args);
    if (text === 'begin') {
      kept.push({ text, values: undefined });
      return answered('BEGIN');
    }
    if (text.startsWith(WRITE_BEHIND_MARK)) {
      kept.push({ text: text.slice(WRITE_BEHIND_MARK.length), values });
      return answered('INSERT');
    }
    if (text.startsWith(READ_AHEAD_MARK)) {
      const read = text.slice(READ_AHEAD_MARK.length);
      // Nothing of the transaction sent or written yet: the read runs on a pipelined line, the `begin` stays kept.
      if (ahead && kept.length === 1 && kept[0].text === 'begin') return ahead(read, values, () => Promise.resolve(sendNow(read, values)));
      return sendNow(read, values);
    }
    return sendNow(text, values, () => query(...args));
  };
  /** Sends `text` now, after whatever is kept, in one write with it (`last` sends it, given as it came). */
  function sendNow(text: string, values: unknown[] | undefined, last: () => unknown = () => query(text, values)): unknown {
    if (!kept.length) return last();
    const sending = kept;
    kept = [];
    if (text === 'rollback') {
      // Nothing kept is sent; a `begin` never sent has nothing to roll back.
      return sending[0].text === 'begin' ? answered('ROLLBACK') : last();
    }
    if (text === 'commit' && sending[0].text === 'begin') {
      if (sending.length === 1) return answered('COMMIT');
      // Nothing of the transaction went out before its end: it goes whole, with the others of its turn.
      if (whole) return whole([...sending, { text, values: undefined }], () => together(client, query, sending, last));
    }
    return together(client, query, sending, last);
  }
}

/** Sends `sending`, then `last`, in one write, and answers `last`'s result or the first kept failure. */
async function together(client: PipelinableClient, query: Query, sending: Kept[], last: () => unknown): Promise<unknown> {
  const stream = client.connection?.stream;
  client.pipeline = true;
  stream?.cork?.();
  let results: PromiseSettledResult<unknown>[];
  try {
    const all: Promise<unknown>[] = [];
    try {
      for (const k of sending) all.push(query(k.text, k.values) as Promise<unknown>);
      all.push(last() as Promise<unknown>);
    } finally {
      stream?.uncork?.();
    }
    results = await Promise.allSettled(all);
  } finally {
    // Every statement sent is answered: the client carries one at a time again.
    client.pipeline = false;
  }
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return (results.at(-1) as PromiseFulfilledResult<unknown>).value;
}
