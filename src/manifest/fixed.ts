/**
 * Which picked fields a form shows but does not let anyone type into. A `readOnly` field is fixed in
 * every form; a `setOnce` field (an account's email: its login) is typed where the record is made and
 * fixed everywhere after, so the profile shows the email an admin's "Create user" asked for.
 */
import { parseCall } from './call.ts';
import type { DialogDef, FieldDef } from './types.ts';

/** A dialog that makes a record: a create, or an action that is a POST without a path parameter (`POST /agents`). */
export function makesRecord(d: DialogDef): boolean {
  if (d.kind === 'create') return true;
  if (d.kind !== 'action') return false;
  const { method, params } = parseCall(d.call);
  return method === 'POST' && params.length === 0;
}

/** Whether `f` is shown but not editable in `d`'s form. */
export const fixedIn = (f: FieldDef, d: DialogDef): boolean => !!f.readOnly || (!!f.setOnce && !makesRecord(d));
