/** Cancel and the dialog's main action, which shows progress and locks while its call runs. */
import type { ReactNode } from 'react';
import { Button, CircularProgress, DialogActions } from '@mui/material';

interface Props {
  busy: boolean;
  onCancel: () => void;
  /** The main button's text ('Create', 'Save', 'Delete'). */
  children: ReactNode;
  /** Screen-reader text of the progress indicator. */
  busyLabel: string;
  color?: 'primary' | 'error';
  /** A submit button (forms) or a click handler (confirmations). */
  onConfirm?: () => void;
  autoFocus?: boolean;
}

export function DialogButtons({ busy, onCancel, children, busyLabel, color = 'primary', onConfirm, autoFocus }: Props) {
  return (
    <>
      <Button onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button
        type={onConfirm ? 'button' : 'submit'}
        onClick={onConfirm}
        color={color}
        variant="contained"
        autoFocus={autoFocus}
        disabled={busy}
        startIcon={busy ? <CircularProgress size={16} color="inherit" aria-label={busyLabel} /> : undefined}
      >
        {children}
      </Button>
    </>
  );
}

/** The actions row of a read-only dialog: any actions of its own, then Close (focused first). */
export function CloseActions({ onClose, children }: { onClose: () => void; children?: ReactNode }) {
  return (
    <DialogActions>
      {children}
      <Button onClick={onClose} autoFocus>
        Close
      </Button>
    </DialogActions>
  );
}
