/**
 * The body of a read-only details dialog: the `show` fields of the record it was opened with, or
 * the named view the dialog declares (`view: 'qrcode'`, `'galleryImage'`). Views are loaded when one
 * first opens, so neither qrcode.react nor the gallery's preview is in the layout's chunk.
 */
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { DialogContent, Stack } from '@mui/material';
import { Labeled, RecordContextProvider, ResourceContextProvider, usePermissions } from 'react-admin';
import { readsReference } from '../generate/access.ts';
import { useRegistry } from '../registry/context.tsx';
import { labelOf, TIMESTAMP_FIELDS, type DetailsDialog, type DetailsView, type FieldDef } from '../../manifest/index.ts';
import { fieldDisplay } from '../generate/columns.tsx';
import type { DialogBodyProps, DialogData } from './context.ts';
import { CloseActions } from './DialogButtons.tsx';
import { DialogLoading } from './DialogLoading.tsx';
import { TransitionButtons } from '../generate/transitions.tsx';
import { ItemsTable } from './items-table.tsx';

/** `id` is implicit in manifests, so it has no declaration to show it by; this stands in. */
const ID_FIELD: FieldDef = { name: 'id', kind: 'text', storage: 'text', label: 'Id' };

/** What a named view is given: the record the dialog was opened with, and how to close it. */
export interface DetailsViewProps {
  record: DialogData;
  onClose: () => void;
}

const VIEWS: Record<DetailsView, LazyExoticComponent<ComponentType<DetailsViewProps>>> = {
  qrcode: lazy(() => import('./views/QrCodeView.tsx').then((m) => ({ default: m.QrCodeView }))),
  galleryImage: lazy(() => import('./views/GalleryImageView.tsx').then((m) => ({ default: m.GalleryImageView }))),
  loginDetails: lazy(() => import('./views/LoginDetailsView.tsx').then((m) => ({ default: m.LoginDetailsView }))),
};

function FieldList({ resource, dialog, record, onClose }: Pick<DialogBodyProps<DetailsDialog>, 'resource' | 'dialog' | 'onClose'> & { record: DialogData }) {
  const { permissions } = usePermissions();
  const registry = useRegistry();
  // No reference to records the role may not read: it would only fetch a refusal (an owner's account).
  const shown = dialog.show
    .map((name) => (name === 'id' ? ID_FIELD : (resource.fields.find((f) => f.name === name) ?? TIMESTAMP_FIELDS.find((f) => f.name === name)!)))
    .filter((f) => readsReference(registry, f, permissions));
  return (
    <>
      <DialogContent>
        <Stack spacing={1.5}>
          {shown.map((f) => {
            const display = f.kind === 'items' ? <ItemsTable field={f} /> : fieldDisplay(resource, f);
            return (
              display && (
                <Labeled key={f.name} label={labelOf(f)}>
                  {display}
                </Labeled>
              )
            );
          })}
        </Stack>
      </DialogContent>
      <CloseActions onClose={onClose}>
        {/* The next steps the record's state allows the role; one made closes the details (the list refreshes). */}
        <TransitionButtons resource={resource} record={record} onDone={onClose} />
      </CloseActions>
    </>
  );
}

export function DetailsDialogBody({ resource, dialog, data, onClose }: DialogBodyProps<DetailsDialog>) {
  const record = data ?? {};
  const View = dialog.view ? VIEWS[dialog.view] : undefined;
  return (
    <ResourceContextProvider value={resource.name}>
      <RecordContextProvider value={record}>
        {View ? (
          <Suspense fallback={<DialogLoading label="Loading" />}>
            <View record={record} onClose={onClose} />
          </Suspense>
        ) : (
          <FieldList resource={resource} dialog={dialog} record={record} onClose={onClose} />
        )}
      </RecordContextProvider>
    </ResourceContextProvider>
  );
}
