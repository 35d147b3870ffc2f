/**
 * What Kysely's SQLite driver is handed as its database: better-sqlite3 with two costs taken out of
 * every query.
 *
 * - Preparing: the driver prepares every query it runs, and preparing costs more than running a small
 *   indexed query. The generated routes run a handful of distinct SQL texts, so statements are kept by
 *   text (bounded, in case some caller builds unbounded variations).
 * - Making rows: better-sqlite3 builds each row object key by key, which for a page of 25 rows of 20-odd
 *   columns cost more than finding them (measured: 25 product rows by the name index, about 280 µs as
 *   objects against 100 µs as arrays). A reading statement runs in raw mode (arrays) and each array
 *   becomes an object through a function made once per statement from its columns: an object literal
 *   of fixed shape, which V8 builds in one step. Same keys in the same order, a later column of the
 *   same name winning, as better-sqlite3's own objects.
 */
import type SQLite from 'better-sqlite3';

type Row = Record<string, unknown>;
type MakeRow = (values: unknown[]) => Row;

/** What Kysely's SqliteDialect calls on a statement. */
interface DriverStatement {
  readonly reader: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): SQLite.RunResult;
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

/**
 * The function that turns one raw row into the object better-sqlite3 would have made, or undefined
 * where a column's name cannot stand as a literal's key (`__proto__` would set the prototype).
 */
export function rowMaker(columns: readonly string[]): MakeRow | undefined {
  if (columns.includes('__proto__')) return undefined;
  // JSON.stringify quotes any name (spaces, quotes, unicode) as a valid key of a JavaScript literal.
  return new Function('v', `return {${columns.map((c, i) => `${JSON.stringify(c)}: v[${i}]`).join(', ')}};`) as MakeRow;
}

function driverStatement(statement: SQLite.Statement): DriverStatement {
  const make = statement.reader ? rowMaker(statement.columns().map((c) => c.name)) : undefined;
  if (!make) return statement as unknown as DriverStatement;
  statement.raw(true);
  return {
    reader: true,
    all: (parameters) => {
      const rows = statement.all(parameters) as unknown[][];
      for (let i = 0; i < rows.length; i++) (rows as unknown[])[i] = make(rows[i]);
      return rows;
    },
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters) as IterableIterator<unknown[]>) yield make(values);
    },
  };
}

/** better-sqlite3 as Kysely's SqliteDialect takes it, with prepared statements kept and rows made fast. */
export function withStatementCache(sqlite: SQLite.Database, max = 500) {
  const statements = new Map<string, DriverStatement>();
  return {
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= max) statements.clear();
        statement = driverStatement(sqlite.prepare(text));
        statements.set(text, statement);
      }
      return statement;
    },
    close: () => sqlite.close(),
  };
}
