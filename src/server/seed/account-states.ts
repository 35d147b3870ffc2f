/**
 * The state of every seeded account: active, no new password due. Seeds insert accounts straight into
 * the table, past `createdWith`; without this their state would be empty, shown as active but missed by
 * a "Status: Active" filter. Runs after every seed step that inserts accounts.
 */
import type { Db } from '../db/types.ts';

export async function seedAccountStates(trx: Db) {
  await trx.updateTable('users').set({ status: 'ACTIVE' }).where('status', 'is', null).execute();
  await trx.updateTable('users').set({ mustChangePassword: 0 }).where('mustChangePassword', 'is', null).execute();
}
