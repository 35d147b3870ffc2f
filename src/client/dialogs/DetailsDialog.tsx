/** The body of a read-only details dialog: the `show` fields of the record it was opened with. */
import { Button, DialogActions, DialogContent, Stack } from '@mui/material';
import { Labeled, RecordContextProvider, ResourceContextProvider } from 'react-admin';
import { labelOf, type DetailsDialog, type FieldDef } from '../../manifest/index.ts';
import { fieldDisplay } from '../generate/columns.tsx';
import type { DialogBodyProps } from './context.ts';

/** `id` is implicit in manifests, so it has no declaration to show it by; this stands in. */
const ID_FIELD: FieldDef = { name: 'id', kind: 'text', storage: 'text', label: 'Id' };

export function DetailsDialogBody({ resource, dialog, data, onClose }: DialogBodyProps<DetailsDialog>) {
  const shown = dialog.show.map((name) => (name === 'id' ? ID_FIELD : resource.fields.find((f) => f.name === name)!));
  return (
    <ResourceContextProvider value={resource.name}>
      <RecordContextProvider value={data ?? {}}>
        <DialogContent>
          <Stack spacing={1.5}>
            {shown.map((f) => {
              const display = fieldDisplay(resource, f);
              return display && <Labeled key={f.name} label={labelOf(f)}>{display}</Labeled>;
            })}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} autoFocus>
            Close
          </Button>
        </DialogActions>
      </RecordContextProvider>
    </ResourceContextProvider>
  );
}
