/**
 * A write a transaction does not wait for: on PostgreSQL it is sent with the transaction's next statement
 * (its `commit`, at the latest), in one write with it (postgres/pg-write-behind.ts); elsewhere, and outside
 * a transaction, it runs now. Its result is not answered: use it for a write whose outcome nothing in the
 * transaction reads but its failure, which fails the transaction's next statement (and so the transaction)
 * with the write's own error.
 */
import { CompiledQuery } from 'kysely';
import { isSqlite } from './count.ts';
import { READ_AHEAD_MARK, WRITE_BEHIND_MARK } from './postgres/pg-write-behind.ts';
import type { Db } from './types.ts';

export async function writeBehind(trx: Db, query: CompiledQuery): Promise<void> {
  if (!trx.isTransaction || isSqlite(trx)) await trx.executeQuery(query);
  else await trx.executeQuery(CompiledQuery.raw(WRITE_BEHIND_MARK + query.sql, [...query.parameters]));
}

/**
 * A read a transaction may make before anything of it has been sent (a create's parents, its hooks'
 * lookups): on PostgreSQL, while the transaction has written and sent nothing but its `begin`, it goes
 * down a pipelined connection with the reads outside transactions, in one write with the others of its
 * turn, instead of waking a backend of its own (postgres/pg-write-behind.ts). Under READ COMMITTED, each
 * statement sees what was committed when it runs, in or out of the transaction, and a transaction that has
 * written nothing has nothing of its own to see. Once the transaction has written (or a write is kept),
 * the read runs in it, so it sees its writes. Use it only for plain reads: no lock (`for update`), no
 * function with an effect. Elsewhere (SQLite, outside a transaction) it runs as any read.
 */
export async function readAhead<R>(trx: Db, query: CompiledQuery<R>) {
  if (!trx.isTransaction || isSqlite(trx)) return trx.executeQuery(query);
  return trx.executeQuery(CompiledQuery.raw(READ_AHEAD_MARK + query.sql, [...query.parameters]) as CompiledQuery<R>);
}
