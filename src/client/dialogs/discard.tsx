/**
 * "Discard changes?": asked before a form with unsaved changes closes (Escape, Cancel, a click beside
 * it). Keeping on editing is the safe answer, so it has the focus and Escape means it too.
 */
import { useId } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';

/** The confirmation's words, declared once (the tests find it by them). */
export const DISCARD = {
  title: 'Discard changes?',
  text: 'What you changed in this form has not been saved and will be lost.',
  keep: 'Keep editing',
  discard: 'Discard',
} as const;

interface Props {
  open: boolean;
  /** Back to the form, nothing lost. */
  onKeep: () => void;
  /** Close the form and drop what was typed. */
  onDiscard: () => void;
}

export function DiscardConfirm({ open, onKeep, onDiscard }: Props) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog
      open={open}
      onClose={onKeep}
      aria-labelledby={titleId}
      aria-describedby={textId}
      maxWidth="xs"
      role="alertdialog"
    >
      <DialogTitle id={titleId}>{DISCARD.title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{DISCARD.text}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onKeep} autoFocus>
          {DISCARD.keep}
        </Button>
        <Button onClick={onDiscard} color="error" variant="contained">
          {DISCARD.discard}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
