/**
 * Running the generic writes (`createRecord`, `updateRecord` in src/server/db/writes.ts) inside a
 * transaction of one's own, so a handler that writes two records (an agent and its account) commits
 * both or neither while every rule of the generic write still applies to each (references, unique
 * values, computed fields, versions, the audit entry).
 *
 * The generic writes open their own transaction with `db.transaction().execute(…)`, and Kysely cannot
 * open one inside another. `joined(trx)` is `trx` whose `transaction()` joins `trx` instead of opening a
 * new one. Once writes.ts offers writes that take a transaction, this module goes.
 */
import type { Db } from '../db/repository.ts';

export function joined(trx: Db): Db {
  return new Proxy(trx, {
    get(target, key) {
      if (key === 'transaction') return () => ({ execute: <T>(work: (t: Db) => Promise<T>) => work(target) });
      // Kysely keeps its state in private fields: its methods must run on the transaction itself.
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
