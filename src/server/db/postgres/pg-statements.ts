/**
 * PostgreSQL: reading statements prepared once per connection, as the SQLite side keeps its statements
 * (sqlite-statements.ts).
 *
 * Kysely hands node-postgres each query as text and parameters, which node-postgres sends as an unnamed
 * statement: the server parses, analyses and plans it on every request. For the generated routes' small
 * indexed reads the planning costs more than the running (measured on `products`, 20-odd columns and
 * their indexes: 0.16–0.27 ms to plan a page, 0.01–0.05 ms to run it). A named statement is parsed once
 * per connection, and after five runs PostgreSQL keeps a generic plan for it when that plan costs no more
 * than the ones made for each run's values; where the values matter (a filter on a skewed column), it goes
 * on planning for each run, as before.
 *
 * Only `select`s are named: a write's plan is cheap, and a transaction's `begin`/`commit` or a migration's
 * DDL gain nothing. The names a connection holds are bounded (a text with an `in (…)` list of each length
 * is a statement of its own); past the bound a new text runs unnamed. A statement prepared before its
 * table changed shape (`select *` after a migration added a column) fails with "cached plan must not change
 * result type": it is then prepared anew under another name and run again, as is one whose statement is
 * gone ("prepared statement … does not exist": STATEMENT_GONE).
 *
 * Named statements live in a server session: a pooler that hands one client's statements to another
 * session (PgBouncer in transaction mode before 1.21) needs its prepared-statement support turned on.
 */
import type pg from 'pg';

/** The most statements one connection keeps prepared. */
export const MAX_PREPARED = 200;

/** What a reading statement starts with: the statements prepared here, and those pg-pipeline.ts sends down its pipelines. */
export const READING = /^\s*select\b/i;
/** PostgreSQL's code for a prepared statement whose result's shape changed (feature_not_supported). */
const PLAN_CHANGED = '0A000';
/**
 * PostgreSQL's code for a statement name it does not know (invalid_sql_statement_name): node-postgres,
 * given a value it cannot write (it throws while binding), closes the statement it has just parsed yet
 * still counts it as prepared, so each later run of that text would fail so.
 */
const STATEMENT_GONE = '26000';

type Query = (...args: unknown[]) => unknown;

/**
 * Makes `client` prepare the reading statements Kysely sends it (text and parameters, no callback),
 * once each, under names of its own. Called on each new pooled connection (`pool.on('connect', …)`).
 */
export function prepareReadingStatements(client: pg.ClientBase, max = MAX_PREPARED): void {
  const query = client.query.bind(client) as Query;
  const names = new Map<string, string>();
  let made = 0;
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined && names.size < max) names.set(text, (name = `kysely_${++made}`));
    return name;
  };
  (client as unknown as { query: Query }).query = (...args: unknown[]) => {
    const [text, values, callback] = args;
    if (typeof text !== 'string' || !(values === undefined || Array.isArray(values)) || callback !== undefined || !READING.test(text))
      return query(...args);
    const name = nameOf(text);
    if (name === undefined) return query(text, values);
    return (query({ name, text, values }) as Promise<unknown>).catch((error: { code?: string }) => {
      if (error?.code !== PLAN_CHANGED && error?.code !== STATEMENT_GONE) throw error;
      // Prepared before its table changed, or closed under its name: forget it (its name stays taken on
      // the server) and prepare it again, under one new name for all the runs that failed so at once.
      if (names.get(text) === name) names.delete(text);
      return query({ name: nameOf(text), text, values });
    });
  };
}
