/**
 * "Forgot password?" (`#/forgot-password`): asks for a reset link by email. The answer is the same
 * whether or not an account has the email, and the page says just that.
 */
import { useState } from 'react';
import { Alert, TextField, Typography } from '@mui/material';
import { Link } from 'react-admin';
import { RESET_REQUEST_PATH, SELF_SERVICE_MESSAGES, resetRequestBody } from '../../../../resources/self-service.ts';
import { failureToast } from '../../dialogs/outcome.ts';
import { httpClient } from '../../providers/http.ts';
import { useToast } from '../toast.tsx';
import { hasErrors, ruleErrors, serverErrors, type FieldErrors } from './form-errors.ts';
import { SelfServiceCard } from './SelfServiceCard.tsx';

export const FORGOT_TEXTS = {
  title: 'Forgot password?',
  intro: 'Type the email you sign in with: we email you a link to choose a new password.',
  submit: 'Email me a link',
  back: 'Back to sign in',
} as const;

export function ForgotPasswordPage() {
  const toast = useToast();
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<string>();

  async function submit() {
    const found = ruleErrors(resetRequestBody, { email });
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      const { json } = await httpClient(RESET_REQUEST_PATH, { method: 'POST', body: JSON.stringify({ email }) });
      setAnswer(String((json as { message?: string })?.message ?? SELF_SERVICE_MESSAGES.resetRequested));
    } catch (error) {
      setErrors(serverErrors(error));
      toast(failureToast(SELF_SERVICE_MESSAGES.resetRequestFailure, error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <SelfServiceCard
      title={FORGOT_TEXTS.title}
      intro={<Typography color="text.secondary">{FORGOT_TEXTS.intro}</Typography>}
      submitLabel={FORGOT_TEXTS.submit}
      busy={busy}
      onSubmit={() => void submit()}
      footer={<Link to="/login">{FORGOT_TEXTS.back}</Link>}
    >
      <TextField
        autoFocus
        label="Email"
        name="email"
        type="email"
        autoComplete="username"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={!!errors.email}
        helperText={errors.email ?? ' '}
        disabled={busy}
        required
      />
      {answer && (
        <Alert severity="success" role="status">
          {answer}
        </Alert>
      )}
    </SelfServiceCard>
  );
}
