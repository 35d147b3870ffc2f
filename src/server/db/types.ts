/**
 * The types the database room shares: the query layer (this folder), each engine's machinery
 * (`sqlite/`, `postgres/`) and the layers above. Declared here once, so no module has to import another
 * for a type alone (scripts/check-imports.ts refuses any import circle, type-only ones too).
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';

export type Row = Record<string, unknown>;
export type Db = Kysely<any>;

export type Engine = 'sqlite' | 'postgres';

export interface Database {
  db: Db;
  engine: Engine;
  close(): Promise<void>;
}

/** Exact matches a read adds to the list's own filters (a parent, a status). */
export type Scope = Record<string, string | number>;
/** Narrows a list's query further (to the rows the user reaches: `whereReachable` in records/ownership.ts). */
export type Narrow = <QB extends SelectQueryBuilder<any, any, any>>(query: QB) => QB;

/** How a page of a search is read: from the search index, or by walking the sort's index and testing each row. */
export type SearchBy = 'index' | 'scan';

/**
 * A table whose records each engine keeps as JSON text beside it (stored-records.ts): what its
 * migration needs, from the query layer that knows how a record is written (json-records.ts).
 */
export interface KeptRecordsTable {
  table: string;
  /** The columns its record holds; undefined where none is kept (a table too wide): the kept table is dropped. */
  columns: readonly string[] | undefined;
  /** The SQL text writing the row `row` (a trigger's `new`, or the table's own name) as its record's JSON text. */
  recordSql(row: string): string;
}
