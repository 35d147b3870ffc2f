/**
 * "Change password" in the account menu: a dialog with the current password, the new one and its
 * repeat, sent to `POST /api/auth/password` (resources/people.ts PASSWORD_CHANGE_PATH), which checks the
 * current one within the sign-in limits, ends the account's other sessions and starts this one afresh.
 */
import { forwardRef, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, ListItemIcon, ListItemText, MenuItem, Stack, TextField } from '@mui/material';
import KeyIcon from '@mui/icons-material/Key';
import { PASSWORD_CHANGE_PATH, passwordRule } from '../../../../resources/people.ts';
import { SELF_SERVICE_MESSAGES } from '../../../../resources/self-service.ts';
import { failureToast, successToast } from '../../dialogs/outcome.ts';
import { httpClient } from '../../providers/http.ts';
import { useToast } from '../toast.tsx';
import { hasErrors, serverErrors, type FieldErrors } from './form-errors.ts';

export const CHANGE_PASSWORD_TEXTS = {
  menu: 'Change password',
  title: 'Change password',
} as const;

const EMPTY = { currentPassword: '', password: '', confirm: '' };

export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const toast = useToast();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const close = () => {
    if (busy) return;
    setValues(EMPTY);
    setErrors({});
    onClose();
  };

  async function submit() {
    // The current password is the server's to judge (its messages: src/server/auth/password-change.ts).
    const found: FieldErrors = {};
    const judged = passwordRule.safeParse(values.password);
    if (!judged.success) found.password = judged.error.issues[0]?.message;
    if (values.confirm !== values.password) found.confirm = SELF_SERVICE_MESSAGES.mismatch;
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      await httpClient(PASSWORD_CHANGE_PATH, {
        method: 'POST',
        body: JSON.stringify({ currentPassword: values.currentPassword, password: values.password }),
      });
      toast(successToast(SELF_SERVICE_MESSAGES.passwordChanged));
      setBusy(false);
      setValues(EMPTY);
      onClose();
    } catch (error) {
      setErrors(serverErrors(error));
      toast(failureToast(SELF_SERVICE_MESSAGES.changeFailure, error));
      setBusy(false);
    }
  }

  const field = (key: keyof typeof EMPTY, label: string, autoComplete: string, autoFocus = false) => (
    <TextField
      type="password"
      label={label}
      name={key}
      autoComplete={autoComplete}
      autoFocus={autoFocus}
      value={values[key]}
      onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
      error={!!errors[key]}
      helperText={errors[key] ?? ' '}
      disabled={busy}
      required
    />
  );

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="xs" aria-labelledby="change-password-title">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <DialogTitle id="change-password-title">{CHANGE_PASSWORD_TEXTS.title}</DialogTitle>
        <DialogContent>
          <Stack spacing={1} sx={{ pt: 1 }}>
            {field('currentPassword', 'Current password', 'current-password', true)}
            {field('password', 'New password', 'new-password')}
            {field('confirm', 'Repeat the new password', 'new-password')}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** The menu's entry: closes the menu and opens the dialog (which outlives the menu). */
export const ChangePasswordMenuItem = forwardRef<HTMLLIElement, { onClose: () => void; onOpen: () => void }>(function ChangePasswordMenuItem(
  { onClose, onOpen },
  ref,
) {
  return (
    <MenuItem
      ref={ref}
      onClick={() => {
        onClose();
        onOpen();
      }}
    >
      <ListItemIcon>
        <KeyIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{CHANGE_PASSWORD_TEXTS.menu}</ListItemText>
    </MenuItem>
  );
});
