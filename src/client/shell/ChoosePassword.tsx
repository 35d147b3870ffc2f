/**
 * "Choose a new password": after signing in with a one-time password, the account must choose its own
 * before anything else (the server answers every other call 403 until it has). `PasswordGate` stands
 * in front of the whole layout, so no screen behind it starts loading what it may not load yet.
 * The new password and its repeat are the pair every form that sets one draws (self-service/NewPasswordFields.tsx),
 * judged by the same rule as on the server (resources/people.ts), with §5's messages.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { Box, Button, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import { useGetIdentity, useLogout } from 'react-admin';
import { PASSWORD_CHANGE_PATH } from '../../../resources/people.ts';
import { answerOf, fieldErrorsOf, failureToast, successToast } from '../dialogs/outcome.ts';
import { httpClient } from '../providers/http.ts';
import { ShellLoading } from './loading.tsx';
import { hasErrors, type FieldErrors } from './self-service/form-errors.ts';
import { NewPasswordFields, newPasswordErrors, NO_NEW_PASSWORD } from './self-service/NewPasswordFields.tsx';
import { useToast } from './toast.tsx';

export const CHOOSE_PASSWORD_TEXTS = {
  title: 'Choose a new password',
  intro: 'You signed in with a one-time password. Choose your own to continue: 6 to 12 characters.',
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

export function ChoosePassword({ onChosen }: { onChosen: () => void }) {
  const toast = useToast();
  const logout = useLogout();
  const [pair, setPair] = useState(NO_NEW_PASSWORD);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = newPasswordErrors(pair);
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      await httpClient(PASSWORD_CHANGE_PATH, { method: 'POST', body: JSON.stringify({ password: pair.password }) });
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
              <NewPasswordFields value={pair} onChange={setPair} errors={errors} disabled={busy} autoFocus />
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
