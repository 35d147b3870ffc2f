/**
 * PostgreSQL: records read one at a time by one field, every row reachable (a get-one), asked for in the
 * same turn of the event loop, read by one statement (`where <field> = any($1)`) rather than one each.
 *
 * Why: the reads of a turn already leave in one write (pg-pipeline.ts), but PostgreSQL's backend still
 * binds, runs and answers each statement, and node-postgres parses each answer and settles its promise
 * on our main thread. Under load a turn holds a dozen get-ones or more; asked together, the backend runs
 * one index scan over their values and sends one answer. A product by id, 50,000 products, cold, 50
 * connections, alternating, 4 rounds of 8 s: 21,826–22,222 req/s one statement each, 24,842–26,398 batched.
 *
 * What a read sees is what it would see alone: its statement starts after the turn that asked for it,
 * so after every write acknowledged before it was asked. A statement that fails (a value the column's
 * type refuses) is asked again one value at a time, so each read gets its own answer or its own error,
 * never another request's.
 *
 * Only a database's own Kysely instance batches (`batchRecords`, db/connect.ts): a transaction is an
 * instance of its own, and its reads stay on its connection.
 */
import type { CompiledQuery, Kysely, RawBuilder } from 'kysely';
import type { Db, Row } from '../types.ts';
import { takeFirst } from '../taken-rows.ts';

/**
 * The queries a batch runs, as the query layer compiles them (db/compiled-queries.ts), given by
 * `batchRecords`: a record by one value (`recordQuery`), and the records of many values, each row with the
 * value it was asked by as text in its `asked` column (`recordsQuery`).
 */
export interface RecordQueries {
  one(db: Db, table: string, field: string, value: unknown, asJson: RawBuilder<string>): CompiledQuery<Row>;
  many(db: Db, table: string, field: string, values: readonly unknown[], asJson: RawBuilder<string>): CompiledQuery<Row>;
  asked: string;
}

type Waiting = { resolve(row: Row | undefined): void; reject(error: unknown): void };

/** The values asked for of one table by one field this turn, each with the reads waiting on it. */
interface Batch {
  table: string;
  field: string;
  asJson: RawBuilder<string>;
  queries: RecordQueries;
  asked: Map<string, { value: unknown; waiting: Waiting[] }>;
}

/** Each batching database's queries and this turn's batches, by table and field. */
const batchers = new WeakMap<Db, { queries: RecordQueries; pending: Map<string, Batch> }>();

/** Counted for tests: statements run for batches, and the values they asked for. */
export const recordBatchStats = { statements: 0, values: 0 };

/** Whether get-ones are read in batches: `PG_BATCH_RECORDS` (default on; `0` reads each alone, to compare). */
export function parseBatchRecords(value: string | undefined): boolean {
  if (value === undefined || value === '' || value === '1') return true;
  if (value === '0') return false;
  throw new Error(`PG_BATCH_RECORDS must be 0 or 1, not '${value}'`);
}

/** Makes `db`, a PostgreSQL database's own instance, read the records asked for in one turn together, by `queries`. */
export function batchRecords(db: Kysely<any>, queries: RecordQueries) {
  batchers.set(db, { queries, pending: new Map() });
}

/** Whether `db` reads records in batches (`batchRecords`). */
export const batchesRecords = (db: Db) => batchers.has(db);

/**
 * The record of `table` whose `field` is `value` (its JSON text `asJson` and its version, as
 * `recordQuery` selects them), read with the others asked for this turn; undefined when there is none.
 */
export function recordInTurn(db: Db, table: string, field: string, value: unknown, asJson: RawBuilder<string>): Promise<Row | undefined> {
  const { queries, pending } = batchers.get(db)!;
  const key = `${table}\u0000${field}`;
  let batch = pending.get(key);
  if (!batch) {
    if (!pending.size) setImmediate(runTurn, db, pending);
    pending.set(key, (batch = { table, field, asJson, queries, asked: new Map() }));
  }
  // Two reads of one value share its row (the statement would answer it once).
  const asked = String(value);
  let entry = batch.asked.get(asked);
  if (!entry) batch.asked.set(asked, (entry = { value, waiting: [] }));
  const { waiting } = entry;
  return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
}

function runTurn(db: Db, pending: Map<string, Batch>) {
  for (const batch of pending.values()) void runBatch(db, batch);
  pending.clear();
}

async function runBatch(db: Db, batch: Batch) {
  const { queries } = batch;
  const entries = [...batch.asked.values()];
  // One value alone: the statement a read by itself runs, its plan already made (pg-statements.ts).
  if (entries.length === 1) return runAlone(db, batch, entries[0]);
  recordBatchStats.statements++;
  recordBatchStats.values += entries.length;
  let rows: Row[];
  try {
    const values = entries.map((e) => e.value);
    rows = (await db.executeQuery(queries.many(db, batch.table, batch.field, values, batch.asJson))).rows;
  } catch {
    // One value may have failed them all: each is asked again alone, to be answered or refused alone.
    for (const entry of entries) void runAlone(db, batch, entry);
    return;
  }
  const found = new Map<string, Row>();
  for (const row of rows) found.set(row[queries.asked] as string, row);
  // The driver's array emptied, so the rows it holds die young (db/taken-rows.ts).
  rows.length = 0;
  for (const [asked, entry] of batch.asked) {
    const row = found.get(asked);
    if (row) for (const w of entry.waiting) w.resolve(row);
    // Not found by its text: none exists, or the column writes the value otherwise (a date, a decimal's
    // scale). Asked alone, so a miss is always PostgreSQL's own answer.
    else void runAlone(db, batch, entry);
  }
}

async function runAlone(db: Db, batch: Batch, entry: { value: unknown; waiting: Waiting[] }) {
  try {
    const row = takeFirst((await db.executeQuery<Row>(batch.queries.one(db, batch.table, batch.field, entry.value, batch.asJson))).rows);
    for (const w of entry.waiting) w.resolve(row);
  } catch (error) {
    for (const w of entry.waiting) w.reject(error);
  }
}
