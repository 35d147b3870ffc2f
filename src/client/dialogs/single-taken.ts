/**
 * A form that makes a record of a resource declaring `single` (one pending document per kind) does not
 * offer the values the signed-in user already holds so: they are read from the list (the user's own
 * records holding `while`) and disabled in the field's select (`ui:enumDisabled`). The server refuses a
 * second anyway (src/server/records/single.ts); this keeps the form from offering what it would refuse.
 */
import { useMemo } from 'react';
import type { UiSchema } from '@rjsf/utils';
import { useGetIdentity, useGetList } from 'react-admin';
import { makesRecord, type DialogDef, type ResourceDef } from '../../manifest/index.ts';

/** How many of one's own records are read to find the values taken (people file a handful). */
const READ_AT_MOST = 100;

/** `uiSchema` with the values the user already holds disabled in `single.field`'s select. */
export function useSingleTaken(resource: ResourceDef, dialog: DialogDef, uiSchema: UiSchema): UiSchema {
  const single = resource.single;
  const asks = !!single && !!resource.access.owner && makesRecord(dialog) && 'pick' in dialog && dialog.pick.includes(single.field);
  const { identity } = useGetIdentity();
  const me = identity?.id;
  const { data } = useGetList(
    resource.name,
    { pagination: { page: 1, perPage: READ_AT_MOST }, filter: { ...single?.while, [resource.access.owner?.field ?? 'id']: me } },
    { enabled: asks && me !== undefined && me !== '' },
  );
  return useMemo(() => {
    if (!asks || !data?.length) return uiSchema;
    const taken = [...new Set(data.map((r) => r[single!.field]))];
    const own = (uiSchema[single!.field] ?? {}) as Record<string, unknown>;
    return { ...uiSchema, [single!.field]: { ...own, 'ui:enumDisabled': taken } };
  }, [asks, data, single, uiSchema]);
}
