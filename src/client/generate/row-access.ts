/**
 * Whether the signed-in user may use a row's dialog on that very row: `authorize` asked with the record
 * (role and ownership, src/manifest/authorize.ts), as the server's guard and records service will ask it.
 * The list already offers only the dialogs the role may open (list-dialogs.ts); this keeps off a row what
 * the server would refuse for that record (another owner's row). A dialog of another resource (a list's
 * `rowDialogs`) is not judged by the row: the row is not its record.
 */
import { useCallback } from 'react';
import { authorize, mayCall, type DialogDef, type ResourceDef } from '../../manifest/index.ts';
import { useSignedIn } from './signed-in.tsx';

export type MayOnRow = (offered: { dialog: DialogDef; resource: ResourceDef }, listResource: string, record: Record<string, unknown>) => boolean;

/** Under a `SignedInProvider` (signed-in.tsx): the list's rows share one reading of who is signed in. */
export function useMayOnRow(): MayOnRow {
  const { role: permissions, id } = useSignedIn();
  return useCallback<MayOnRow>(
    ({ dialog, resource }, listResource, record) => {
      // Until the account is known, the role alone decides (what the list offered on that ground).
      if (resource.name !== listResource || id === undefined || id === null || id === '') return mayCall(permissions, resource, { dialog });
      return authorize({ id: String(id), role: permissions }, resource, { dialog }, record).allowed;
    },
    [permissions, id],
  );
}
