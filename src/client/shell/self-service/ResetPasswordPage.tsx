/**
 * The emailed link's page (`#/reset-password?token=…`): choose a new password (§5's rule, with the
 * repeat), sent with the link's token. Done, it goes to the sign-in page; a used or expired link says so
 * and offers to ask for a new one.
 */
import { useState } from 'react';
import { Alert, Typography } from '@mui/material';
import { Link, useLocation, useNavigate } from 'react-admin';
import { RESET_PATH, RESET_TOKEN_PARAM, SELF_SERVICE_MESSAGES, SELF_SERVICE_ROUTES, resetBody } from '../../../../resources/self-service.ts';
import { failureToast, successToast } from '../../dialogs/outcome.ts';
import { httpClient } from '../../providers/http.ts';
import { useToast } from '../toast.tsx';
import { hasErrors, ruleErrors, serverErrors, type FieldErrors } from './form-errors.ts';
import { NewPasswordFields, newPasswordErrors, NO_NEW_PASSWORD } from './NewPasswordFields.tsx';
import { SelfServiceCard } from './SelfServiceCard.tsx';

export const RESET_TEXTS = {
  title: 'Choose a new password',
  intro: '6 to 12 characters. The link works once.',
  submit: 'Set password',
  again: 'Ask for a new link',
  back: 'Back to sign in',
} as const;

export function ResetPasswordPage() {
  const toast = useToast();
  const navigate = useNavigate();
  const token = new URLSearchParams(useLocation().search).get(RESET_TOKEN_PARAM) ?? '';
  const [pair, setPair] = useState(NO_NEW_PASSWORD);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  async function submit() {
    // The token by the body's rule, the pair as every new password is judged (the same rule).
    const found = { ...ruleErrors(resetBody, { token, password: pair.password }), ...newPasswordErrors(pair) };
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      await httpClient(RESET_PATH, { method: 'POST', body: JSON.stringify({ token, password: pair.password }) });
      toast(successToast(SELF_SERVICE_MESSAGES.resetDone));
      navigate('/login');
    } catch (error) {
      setErrors(serverErrors(error));
      toast(failureToast(SELF_SERVICE_MESSAGES.resetFailure, error));
      setBusy(false);
    }
  }

  return (
    <SelfServiceCard
      title={RESET_TEXTS.title}
      intro={<Typography color="text.secondary">{RESET_TEXTS.intro}</Typography>}
      submitLabel={RESET_TEXTS.submit}
      busy={busy}
      onSubmit={() => void submit()}
      footer={
        <>
          <Link to={SELF_SERVICE_ROUTES.forgot}>{RESET_TEXTS.again}</Link>
          <Link to="/login">{RESET_TEXTS.back}</Link>
        </>
      }
    >
      {errors.token && <Alert severity="error">{errors.token}</Alert>}
      <NewPasswordFields value={pair} onChange={setPair} errors={errors} disabled={busy} autoFocus />
    </SelfServiceCard>
  );
}
