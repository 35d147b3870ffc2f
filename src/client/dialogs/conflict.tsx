/**
 * Two admins editing one record (docs/architecture.md: "an update with a stale If-Match gets 412"). An update
 * dialog sends the version it was opened with; when the server answers 412 with the record as it is
 * now, this panel shows their values beside the user's and lets the user take theirs or keep theirs.
 */
import { Alert, AlertTitle, Box, Button, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { labelOf, type FieldDef } from '../../manifest/index.ts';

type Data = Record<string, unknown>;

/** The 412 answer: `{ message, current }`, or undefined for any other failure. */
export function conflictOf(error: unknown): { message: string; current: Data } | undefined {
  const e = error as { status?: number; body?: { message?: unknown; current?: unknown } } | undefined;
  if (e?.status !== 412 || !e.body?.current || typeof e.body.current !== 'object') return undefined;
  return { message: String(e.body.message ?? 'This record was changed by someone else.'), current: e.body.current as Data };
}

/** The `If-Match` an update sends for a record: its version as an entity tag, when it has one. */
export function ifMatchFor(record: Data | undefined): Record<string, string> | undefined {
  const version = record?.version;
  return typeof version === 'number' || (typeof version === 'string' && /^\d+$/.test(version))
    ? { 'If-Match': `"${version}"` }
    : undefined;
}

const shown = (value: unknown) => {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'object') return 'label' in (value as Data) ? String((value as Data).label || (value as Data).value) : JSON.stringify(value);
  return String(value);
};

interface Props {
  message: string;
  fields: readonly FieldDef[];
  /** Their values, as the form would hold them. */
  theirs: Data;
  /** The user's values, as typed. */
  mine: Data;
  busy: boolean;
  onReload: () => void;
  onOverwrite: () => void;
}

export function ConflictPanel({ message, fields, theirs, mine, busy, onReload, onOverwrite }: Props) {
  const differing = fields.filter((f) => shown(theirs[f.name]) !== shown(mine[f.name]));
  return (
    <Alert severity="warning" role="alert" sx={{ mb: 2 }}>
      <AlertTitle>Changed by someone else</AlertTitle>
      {message} Reload to edit their version, or overwrite it with yours.
      {differing.length > 0 && (
        <Table size="small" aria-label="Their values and yours" sx={{ my: 1 }}>
          <TableHead>
            <TableRow>
              <TableCell component="th">Field</TableCell>
              <TableCell component="th">Theirs</TableCell>
              <TableCell component="th">Yours</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {differing.map((f) => (
              <TableRow key={f.name}>
                <TableCell>{labelOf(f)}</TableCell>
                <TableCell>{shown(theirs[f.name])}</TableCell>
                <TableCell>{shown(mine[f.name])}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <Box sx={{ display: 'flex', gap: 1, mt: 1 }}>
        <Button size="small" variant="outlined" onClick={onReload} disabled={busy}>
          Reload their version
        </Button>
        <Button size="small" color="warning" variant="contained" onClick={onOverwrite} disabled={busy}>
          Overwrite with mine
        </Button>
      </Box>
    </Alert>
  );
}
