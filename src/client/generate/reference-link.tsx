/**
 * A reference shown as its target's title, linked to the target (`recordAddress`: its update or
 * details dialog, or its list filtered to it) when the role may go there; plain text otherwise.
 * react-admin's ReferenceField fetches every row's target of a page in one request.
 */
import { useCallback } from 'react';
import { ReferenceField, TextField, usePermissions, type RaRecord } from 'react-admin';
import type { ResourceDef } from '../../manifest/index.ts';
import type { ColumnProps } from './displays.tsx';
import { recordAddress } from './record-address.ts';
import { CELL_TEXT } from './cell-text.ts';
import { useRegistry } from '../registry/context.tsx';
import { TextCell } from './cell-displays.tsx';

/** `light`: in a list's table or card, the title drawn light (cell-displays.tsx). */
export function ReferenceLinkField({ source, target, emptyText, light }: ColumnProps & { target: ResourceDef; light?: boolean }) {
  const { permissions } = usePermissions();
  const registry = useRegistry();
  const link = useCallback((record: RaRecord) => recordAddress(registry, target, record, permissions) ?? false, [registry, target, permissions]);
  return (
    <ReferenceField source={source} reference={target.name} link={link} emptyText={emptyText}>
      {light ? <TextCell source={target.title} className={CELL_TEXT} /> : <TextField source={target.title} className={CELL_TEXT} />}
    </ReferenceField>
  );
}
