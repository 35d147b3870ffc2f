/**
 * Bulk delete (or bulk recycle, where the delete dialog's call ends in `/recycle`): the selected
 * records, after a confirmation, each through the resource's declared delete call, one after another,
 * exactly as its delete dialog sends it, so the server's checks, the audit log and the recycle bin
 * work as for one. Then one toast sums it up: how many went, and which were refused and why (a
 * parent that still has children answers 409 and stays).
 */
import { useId, useState } from 'react';
import { darken, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, lighten, useMediaQuery, type Theme } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import { Button, useListContext, useRefresh, type RaRecord } from 'react-admin';
import type { RemoveDialog, ResourceDef } from '../../manifest/index.ts';
import { DialogButtons } from '../dialogs/DialogButtons.tsx';
import { answerOf, describeAnswer } from '../dialogs/outcome.ts';
import { inSentence } from '../dialogs/titles.ts';
import { send } from '../providers/http.ts';
import { useToast, type Toast } from '../shell/toast.tsx';
import { recordName } from './selection.tsx';
import { useMayOnRow } from './row-access.ts';

/** How many refusals the summary spells out; the rest are counted. */
const REASONS_SHOWN = 5;

/** "1 category", "3 categories". */
export const counted = (n: number, resource: ResourceDef) => `${n} ${inSentence(n === 1 ? resource.label : resource.plural)}`;

export interface BulkOutcome {
  done: number;
  refused: { name: string; reason: string }[];
}

/** The summary toast of a bulk delete. */
export function bulkToast(resource: ResourceDef, recycle: boolean, { done, refused }: BulkOutcome): Toast {
  const verb = recycle ? 'moved to the recycle bin' : 'deleted';
  const title = `${counted(done, resource)} ${verb}` + (refused.length ? `, ${refused.length} refused` : '');
  const lines = refused.slice(0, REASONS_SHOWN).map((r) => `${r.name}: ${r.reason}`);
  if (refused.length > REASONS_SHOWN) lines.push(`… and ${refused.length - REASONS_SHOWN} more.`);
  return { title, description: lines.join('\n') || undefined, severity: !refused.length ? 'success' : done ? 'warning' : 'error' };
}

interface Props {
  resource: ResourceDef;
  /** The resource's delete dialog the role may use: its call is sent for each record. */
  dialog: RemoveDialog;
}

/** In a list screen: who is signed in is the list's (signed-in.tsx). */
export function BulkDeleteButton({ resource, dialog }: Props) {
  const { selectedIds = [], data = [], onUnselectItems } = useListContext();
  const refresh = useRefresh();
  const toast = useToast();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const mayOnRow = useMayOnRow();
  const recycle = !!dialog.recycle;
  const n = selectedIds.length;
  const what = counted(n, resource);

  async function run() {
    // Records of other pages (selected before paging on) are known by their id only, which is all the call needs.
    const records: RaRecord[] = selectedIds.map((id) => data.find((r) => r.id === id) ?? { id });
    const outcome: BulkOutcome = { done: 0, refused: [] };
    for (const [i, record] of records.entries()) {
      setProgress(i);
      // A record the server would refuse this user (another owner's) is not sent: it is told as refused.
      // One known by its id alone (another page's) cannot be judged here; the server judges it.
      if (Object.keys(record).length > 1 && !mayOnRow({ dialog, resource }, resource.name, record)) {
        outcome.refused.push({ name: recordName(record, resource.title), reason: 'You may not delete it.' });
        continue;
      }
      try {
        await send(dialog.call, { ...record });
        outcome.done++;
      } catch (error) {
        outcome.refused.push({ name: recordName(record, resource.title), reason: describeAnswer(answerOf(error)) || 'Refused.' });
      }
    }
    setProgress(null);
    setOpen(false);
    toast(bulkToast(resource, recycle, outcome));
    onUnselectItems();
    refresh();
  }

  const busy = progress !== null;
  return (
    <>
      <Button
        label={recycle ? 'Recycle' : 'Delete'}
        onClick={() => setOpen(true)}
        // On the bulk toolbar's tinted background the theme's red is too faint for text: a darker (dark mode: lighter) red reads.
        sx={(theme) => ({ color: theme.palette.mode === 'dark' ? lighten(theme.palette.error.main, 0.4) : darken(theme.palette.error.main, 0.3) })}
      >
        <DeleteIcon />
      </Button>
      <Dialog open={open} onClose={() => !busy && setOpen(false)} aria-labelledby={titleId} fullScreen={phone} maxWidth="xs" fullWidth>
        <DialogTitle id={titleId}>{recycle ? `Recycle ${what}` : `Delete ${what}`}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {busy
              ? `${recycle ? 'Recycling' : 'Deleting'} ${progress + 1} of ${n}…`
              : recycle
                ? `Move ${what} to the recycle bin? An admin can restore them from there.`
                : `Delete ${what}? This cannot be undone.`}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <DialogButtons busy={busy} onCancel={() => setOpen(false)} busyLabel="Deleting" color="error" autoFocus onConfirm={() => void run()}>
            {recycle ? 'Recycle' : 'Delete'}
          </DialogButtons>
        </DialogActions>
      </Dialog>
    </>
  );
}
