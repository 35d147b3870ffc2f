/**
 * An `items` field in a details dialog: its sub-records as a small table, one row per item in position
 * order, a column per sub-field (labels and chosen words as the manifest declares them).
 */
import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { labelOf, type FieldDef } from '../../manifest/index.ts';
import { choiceOf } from '../generate/choices.ts';

/** A sub-field's value as read: its choice's label, Yes/No for a boolean, the value as text otherwise. */
function shown(sub: FieldDef, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const choice = sub.choices && choiceOf(sub.choices, value);
  if (choice) return choice.label;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

export function ItemsTable({ field }: { field: FieldDef }) {
  const record = useRecordContext();
  const items = Array.isArray(record?.[field.name]) ? (record![field.name] as Record<string, unknown>[]) : [];
  const subs = field.items?.fields ?? [];
  if (!items.length) return <Typography variant="body2">No {labelOf(field).toLowerCase()}</Typography>;
  return (
    <Table size="small" aria-label={labelOf(field)}>
      <TableHead>
        <TableRow>
          {subs.map((sub) => (
            <TableCell key={sub.name} align={sub.kind === 'number' ? 'right' : 'left'}>
              {labelOf(sub)}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {items.map((item, i) => (
          <TableRow key={i}>
            {subs.map((sub) => (
              <TableCell key={sub.name} align={sub.kind === 'number' ? 'right' : 'left'}>
                {shown(sub, item[sub.name])}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
