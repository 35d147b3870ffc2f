/**
 * "Choose a new password": after signing in with a one-time password, the account must choose its own
 * before anything else (the server answers every other call 403 until it has). `PasswordGate` stands
 * in front of the whole layout, so no screen behind it starts loading what it may not load yet.
 * The new password is judged by the same rule as on the server (resources/people.ts), with §5's messages.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { Box, Button, Card, CardContent, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import { useGetIdentity, useLogout } from 'react-admin';
import { PASSWORD_CHANGE_PATH, passwordRule } from '../../../resources/people.ts';
import { SELF_SERVICE_MESSAGES } from '../../../resources/self-service.ts';
import { answerOf, fieldErrorsOf, failureToast, successToast } from '../dialogs/outcome.ts';
import { httpClient } from '../providers/http.ts';
import { ShellLoading } from './loading.tsx';
import { useToast } from './toast.tsx';

export const CHOOSE_PASSWORD_TEXTS = {
  title: 'Choose a new password',
  intro: 'You signed in with a one-time password. Choose your own to continue: 6 to 12 characters.',
  // Declared once, with the reset page's (resources/self-service.ts).
  mismatch: SELF_SERVICE_MESSAGES.mismatch,
  success: 'Your new password is set.',
  failure: 'Unable to set the password!',
} as const;

/** Shows the form instead of `children` while the signed-in account must choose a new password. */
export function PasswordGate({ children }: { children: ReactNode }) {
  const { identity, isPending } = useGetIdentity();
  // Once chosen, the identity read a moment ago may still say otherwise: what happened here wins.
  const [chosen, setChosen] = useState(false);
  if (isPending) return <ShellLoading />;
  if (identity?.mustChangePassword === true && !chosen) return <ChoosePassword onChosen={() => setChosen(true)} />;
  return <>{children}</>;
}

type Errors = { password?: string; confirm?: string };

export function ChoosePassword({ onChosen }: { onChosen: () => void }) {
  const toast = useToast();
  const logout = useLogout();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  function check(): Errors {
    const found: Errors = {};
    const judged = passwordRule.safeParse(password);
    if (!judged.success) found.password = judged.error.issues[0]?.message;
    if (confirm !== password) found.confirm = CHOOSE_PASSWORD_TEXTS.mismatch;
    return found;
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = check();
    setErrors(found);
    if (found.password || found.confirm) return;
    setBusy(true);
    try {
      await httpClient(PASSWORD_CHANGE_PATH, { method: 'POST', body: JSON.stringify({ password }) });
      toast(successToast(CHOOSE_PASSWORD_TEXTS.success));
      onChosen();
    } catch (error) {
      toast(failureToast(CHOOSE_PASSWORD_TEXTS.failure, error));
      const byField = fieldErrorsOf(answerOf(error));
      if (byField?.password) setErrors({ password: byField.password[0] });
      if ((error as { status?: number })?.status === 401) void logout();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <Card sx={{ width: '100%', maxWidth: 420 }}>
        <CardContent>
          <Box component="form" noValidate onSubmit={(e) => void submit(e)}>
            <Stack spacing={2}>
              <Typography component="h1" variant="h6">
                {CHOOSE_PASSWORD_TEXTS.title}
              </Typography>
              <Typography color="text.secondary">{CHOOSE_PASSWORD_TEXTS.intro}</Typography>
              <TextField
                autoFocus
                type="password"
                label="New password"
                name="password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                error={!!errors.password}
                helperText={errors.password ?? ' '}
                disabled={busy}
                required
              />
              <TextField
                type="password"
                label="Repeat the new password"
                name="confirm"
                autoComplete="new-password"
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
                error={!!errors.confirm}
                helperText={errors.confirm ?? ' '}
                disabled={busy}
                required
              />
              <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
                <Button onClick={() => void logout()} disabled={busy}>
                  Sign out
                </Button>
                <Button
                  type="submit"
                  variant="contained"
                  disabled={busy}
                  startIcon={busy ? <CircularProgress size={16} color="inherit" aria-label="Saving" /> : undefined}
                >
                  Set password
                </Button>
              </Box>
            </Stack>
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
