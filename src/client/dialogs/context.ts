/**
 * How anything opens a dialog by its specification type name (spec §2: "Screens are modal dialogs
 * opened by a type name"): `useOpenDialog()('updateCategory', record)` inside React, or the plain
 * `openDialog(type, data)` from code that is not a component (sockets, hand-written features).
 */
import { createContext, useContext } from 'react';
import type { ResourceDef } from '../../manifest/index.ts';

export type DialogData = Record<string, unknown>;
export type OpenDialog = (type: string, data?: DialogData) => void;

export interface DialogApi {
  openDialog: OpenDialog;
  closeDialog: () => void;
}

export const DialogContext = createContext<DialogApi | null>(null);

export function useDialogs(): DialogApi {
  const api = useContext(DialogContext);
  if (!api) throw new Error('useDialogs must be used under <DialogHost>');
  return api;
}

export const useOpenDialog = (): OpenDialog => useDialogs().openDialog;

let mounted: DialogApi | null = null;

/** Called by <DialogHost> as it mounts; the answer unregisters it (and only it) again. */
export function registerDialogHost(api: DialogApi): () => void {
  mounted = api;
  return () => {
    if (mounted === api) mounted = null;
  };
}

/** Opens a dialog through the mounted <DialogHost>. */
export function openDialog(type: string, data?: DialogData): void {
  if (!mounted) throw new Error(`openDialog('${type}'): no <DialogHost> is mounted`);
  mounted.openDialog(type, data);
}

/** What the host hands the body of a dialog. */
export interface DialogBodyProps<D> {
  resource: ResourceDef;
  dialog: D;
  /** What `openDialog` was given: the record for update/remove/details, prefills for create. */
  data?: DialogData;
  /** Closes the dialog at once (after its call succeeded, or when there is nothing to lose). */
  onClose: () => void;
  /** The user asks to close (Cancel): the host first asks "Discard changes?" when the body reported any. */
  onCancel?: () => void;
  /** The body reports whether it holds changes the user has not saved. */
  onDirty?: (dirty: boolean) => void;
}
