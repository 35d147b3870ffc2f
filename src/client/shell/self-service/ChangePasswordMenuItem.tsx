/**
 * "Change password" in the account menu: a dialog with the current password, the new one and its
 * repeat, sent to `POST /api/auth/password` (resources/people.ts PASSWORD_CHANGE_PATH), which checks the
 * current one within the sign-in limits, ends the account's other sessions and starts this one afresh.
 */
import { forwardRef, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, ListItemIcon, ListItemText, MenuItem, Stack, TextField } from '@mui/material';
import KeyIcon from '@mui/icons-material/Key';
import { PASSWORD_CHANGE_PATH } from '../../../../resources/people.ts';
import { SELF_SERVICE_MESSAGES } from '../../../../resources/self-service.ts';
import { failureToast, successToast } from '../../dialogs/outcome.ts';
import { httpClient } from '../../providers/http.ts';
import { useToast } from '../toast.tsx';
import { hasErrors, serverErrors, type FieldErrors } from './form-errors.ts';
import { NewPasswordFields, newPasswordErrors, NO_NEW_PASSWORD, type NewPassword } from './NewPasswordFields.tsx';

export const CHANGE_PASSWORD_TEXTS = {
  menu: 'Change password',
  title: 'Change password',
} as const;

const EMPTY: NewPassword & { currentPassword: string } = { currentPassword: '', ...NO_NEW_PASSWORD };

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
    const found = newPasswordErrors(values);
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
            <TextField
              type="password"
              label="Current password"
              name="currentPassword"
              autoComplete="current-password"
              autoFocus
              value={values.currentPassword}
              onChange={(e) => setValues((v) => ({ ...v, currentPassword: e.target.value }))}
              error={!!errors.currentPassword}
              helperText={errors.currentPassword ?? ' '}
              disabled={busy}
              required
            />
            <NewPasswordFields value={values} onChange={(pair) => setValues((v) => ({ ...v, ...pair }))} errors={errors} disabled={busy} />
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
