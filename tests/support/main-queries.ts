/**
 * Watches the queries a server sends to its main connection, with what each answered: those run
 * through Kysely (`db.executeQuery`) and, on SQLite, records read with the others of their turn
 * (group-commit.ts `readInTurn`), which the driver runs without Kysely. Answers the function that stops
 * watching.
 */
import type { CompiledQuery, Kysely } from 'kysely';
import { GroupCommitDriver } from '../../src/server/db/sqlite/group-commit.ts';

export function watchMainQueries(db: Kysely<any>, see: (sql: string, rows: unknown[]) => void): () => void {
  const watched = db as unknown as { executeQuery: (q: CompiledQuery) => Promise<{ rows: unknown[] }> };
  const original = watched.executeQuery.bind(db);
  watched.executeQuery = async (q) => {
    const result = await original(q);
    see(q.sql, result.rows);
    return result;
  };
  const inTurn = GroupCommitDriver.prototype.readInTurn;
  GroupCommitDriver.prototype.readInTurn = async function (this: GroupCommitDriver, q: CompiledQuery) {
    const rows = await inTurn.call(this, q);
    see(q.sql, rows);
    return rows;
  } as typeof inTurn;
  return () => {
    delete (watched as { executeQuery?: unknown }).executeQuery;
    GroupCommitDriver.prototype.readInTurn = inTurn;
  };
}
