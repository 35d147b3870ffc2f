/**
 * An audit entry's changes (`display: 'changes'`) as people read them (issue 51 §5): a table of the
 * changed fields, each by its label (Field | Before | After), each value shown as the changed resource's
 * own field shows it in its lists: a reference by its record's title, money through the one formatter,
 * a choice by its word, a date in the user's locale. References of a page are fetched as lists fetch
 * them (react-admin batches them: one request per referenced resource).
 *
 * Entries whose text is not `{ field: { before, after } }` (written by older code, or damaged) are shown
 * as the JSON they hold: nothing on record is ever hidden.
 */
import type { ReactElement } from 'react';
import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { RecordContextProvider, useRecordContext } from 'react-admin';
import { labelOf, type FieldDef, type ResourceDef } from '../../manifest/index.ts';
import { useRegistry } from '../registry/context.tsx';
import type { ColumnProps } from './displays.tsx';
import { ReferenceLinkField } from './reference-link.tsx';

/** One changed field as the log keeps it. */
type Change = { before: unknown; after: unknown };

/** How a field of the changed resource is shown (columns.tsx `fieldDisplay`, passed in: it imports this file). */
export type FieldDisplay = (resource: ResourceDef, f: FieldDef) => ReactElement | null;

/** The entry's changes, or undefined when its text is not `{ field: { before, after } }`. */
export function parseChanges(text: unknown): [string, Change][] | undefined {
  if (typeof text !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const entries = Object.entries(parsed as Record<string, unknown>);
  const isChange = (v: unknown): v is Change => !!v && typeof v === 'object' && 'before' in v && 'after' in v;
  return entries.every(([, v]) => isChange(v)) ? (entries as [string, Change][]) : undefined;
}

const isAbsent = (v: unknown) => v === null || v === undefined || v === '';

/** A value no declared field describes (a setting's change), or an item list, as plain text. */
function plain(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} item${value.length === 1 ? '' : 's'}`;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function Value({ resource, field, value, display }: { resource?: ResourceDef; field?: FieldDef; value: unknown; display: FieldDisplay }) {
  const registry = useRegistry();
  if (isAbsent(value))
    return (
      <Typography component="span" variant="body2" color="text.secondary">
        —
      </Typography>
    );
  let shown: ReactElement | null = null;
  if (resource && field && field.kind !== 'items') {
    // A reference to a record since deleted still reads as something: its id.
    shown =
      field.kind === 'reference' && !field.referenceBy ? (
        <ReferenceLinkField source={field.name} target={registry.resource(field.reference!)} emptyText={String(value)} />
      ) : (
        display(resource, field)
      );
  }
  if (!shown)
    return (
      <Typography component="span" variant="body2">
        {plain(value)}
      </Typography>
    );
  // The field's own display reads its value from a record holding it alone.
  return <RecordContextProvider value={{ id: String(value), [field!.name]: value }}>{shown}</RecordContextProvider>;
}

export function ChangesField({ source, display }: ColumnProps & { display: FieldDisplay }) {
  const record = useRecordContext();
  const registry = useRegistry();
  const text = record?.[source];
  const changes = parseChanges(text);
  if (isAbsent(text)) return null;
  if (!changes)
    return (
      <Box component="pre" sx={{ m: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-word', typography: 'body2', fontFamily: 'monospace' }}>
        {String(text)}
      </Box>
    );
  if (!changes.length) return <Typography variant="body2">Nothing changed</Typography>;
  const resource = registry.resources.find((r) => r.name === record?.resource);
  return (
    <Table size="small" aria-label="Changes">
      <TableHead>
        <TableRow>
          <TableCell component="th" scope="col">Field</TableCell>
          <TableCell component="th" scope="col">Before</TableCell>
          <TableCell component="th" scope="col">After</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {changes.map(([name, { before, after }]) => {
          const field = resource?.fields.find((f) => f.name === name);
          return (
            <TableRow key={name}>
              <TableCell component="th" scope="row">
                {field ? labelOf(field) : name}
              </TableCell>
              <TableCell>
                <Value resource={resource} field={field} value={before} display={display} />
              </TableCell>
              <TableCell>
                <Value resource={resource} field={field} value={after} display={display} />
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
