/** The body of a delete confirmation: "Delete <record>?", then the dialog's declared call. */
import { useState } from 'react';
import { DialogActions, DialogContent, DialogContentText } from '@mui/material';
import { DialogButtons } from './DialogButtons.tsx';
import { useRefresh } from 'react-admin';
import type { RemoveDialog } from '../../manifest/index.ts';
import { send } from '../providers/http.ts';
import { useToast } from '../shell/toast.tsx';
import type { DialogBodyProps } from './context.ts';
import { failureToast, successToast } from './outcome.ts';
import { inSentence } from './titles.ts';

export function RemoveDialogBody({ resource, dialog, data, onClose }: DialogBodyProps<RemoveDialog>) {
  const toast = useToast();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const name = data?.[resource.title];
  const what = name === undefined || name === null || name === '' ? `this ${inSentence(resource.label)}` : String(name);

  async function confirm() {
    setBusy(true);
    try {
      await send(dialog.call, { ...data });
      toast(successToast(dialog.success));
      refresh();
    } catch (error) {
      toast(failureToast(dialog.failure, error));
    } finally {
      setBusy(false);
      onClose();
    }
  }

  return (
    <>
      <DialogContent>
        <DialogContentText>Delete {what}?</DialogContentText>
      </DialogContent>
      <DialogActions>
        <DialogButtons busy={busy} onCancel={onClose} busyLabel="Deleting" color="error" autoFocus onConfirm={() => void confirm()}>
          Delete
        </DialogButtons>
      </DialogActions>
    </>
  );
}
