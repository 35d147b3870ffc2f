/**
 * A write a transaction does not wait for: on PostgreSQL it is sent with the transaction's next statement
 * (its `commit`, at the latest), in one write with it (postgres/pg-write-behind.ts); elsewhere, and outside
 * a transaction, it runs now. Its result is not answered: use it for a write whose outcome nothing in the
 * transaction reads but its failure, which fails the transaction's next statement (and so the transaction)
 * with the write's own error.
 */
import { CompiledQuery } from 'kysely';
import { isSqlite } from './count.ts';
import { WRITE_BEHIND_MARK } from './postgres/pg-write-behind.ts';
import type { Db } from './types.ts';

export async function writeBehind(trx: Db, query: CompiledQuery): Promise<void> {
  if (!trx.isTransaction || isSqlite(trx)) await trx.executeQuery(query);
  else await trx.executeQuery(CompiledQuery.raw(WRITE_BEHIND_MARK + query.sql, [...query.parameters]));
}
