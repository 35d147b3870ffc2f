/**
 * How a field's value is shown, by kind: a list column, and the same display in details dialogs.
 * References show the parent's title field; images a thumbnail; absent values `emptyShownAs`.
 */
import type { ReactElement } from 'react';
import { NumberField, ReferenceField, TextField, useRecordContext } from 'react-admin';
import { isSortable, labelOf, type FieldDef, type ResourceDef } from '../../manifest/index.ts';
import { registry } from '../../../resources/index.ts';
import { Thumbnail } from '../shell/Thumbnail.tsx';

/** The props react-admin's Datagrid reads from a column (header label, sort). */
interface ColumnProps {
  source: string;
  label?: string;
  sortable?: boolean;
}

function ImageField({ source, titleSource }: ColumnProps & { titleSource: string }) {
  const record = useRecordContext();
  return <Thumbnail src={record?.[source]} alt={String(record?.[titleSource] ?? '')} />;
}

export function fieldDisplay(resource: ResourceDef, f: FieldDef, sortable = false): ReactElement | null {
  const common = { source: f.name, label: labelOf(f), sortable };
  const emptyText = f.emptyShownAs === undefined ? undefined : String(f.emptyShownAs);
  switch (f.kind) {
    case 'password':
      return null;
    case 'image':
      return <ImageField key={f.name} {...common} titleSource={resource.title} />;
    case 'number':
      return <NumberField key={f.name} {...common} emptyText={emptyText} />;
    case 'reference': {
      const parent = registry.resource(f.reference!);
      return (
        <ReferenceField key={f.name} {...common} reference={parent.name} link={false} emptyText={emptyText}>
          <TextField source={parent.title} />
        </ReferenceField>
      );
    }
    default:
      return <TextField key={f.name} {...common} emptyText={emptyText} />;
  }
}

/** The list columns of a resource: its `list: true` fields, in order. */
export function listColumns(resource: ResourceDef): ReactElement[] {
  return resource.fields
    .filter((f) => f.list)
    .map((f) => fieldDisplay(resource, f, isSortable(f)))
    .filter((c): c is ReactElement => c !== null);
}
