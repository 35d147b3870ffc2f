/**
 * "Create account" (`#/sign-up`): a buyer makes an account (resources/self-service.ts `signUpBody`), with
 * the referral code a link brought (`?bref=`, kept by referral-storage.ts) filled in; then is signed in
 * with the same email and password, as the sign-in form would, and taken in.
 */
import { useState } from 'react';
import { TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useAuthProvider, useNavigate } from 'react-admin';
import { SELF_SERVICE_MESSAGES, SIGN_UP_PATH, signUpBody } from '../../../../resources/self-service.ts';
import { storedReferral, takeReferral } from '../../areas/referral-storage.ts';
import { failureToast, successToast } from '../../dialogs/outcome.ts';
import { httpClient } from '../../providers/http.ts';
import { useToast } from '../toast.tsx';
import { hasErrors, ruleErrors, serverErrors, type FieldErrors } from './form-errors.ts';
import { NewPasswordFields, newPasswordErrors } from './NewPasswordFields.tsx';
import { SelfServiceCard } from './SelfServiceCard.tsx';

export const SIGN_UP_TEXTS = {
  title: 'Create account',
  intro: 'A buyer’s account: shop, bid and follow your orders.',
  submit: 'Create account',
  haveAccount: 'Already have an account? Sign in',
} as const;

/** The account's first password: not a "new" one. */
const SIGN_UP_PASSWORD_LABELS = { password: 'Password', confirm: 'Repeat the password' } as const;

export function SignUpPage() {
  const toast = useToast();
  const authProvider = useAuthProvider();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [values, setValues] = useState({ name: '', email: '', password: '', confirm: '', bhrfc: storedReferral() ?? '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));

  async function submit() {
    const { confirm, ...body } = values;
    const found = { ...ruleErrors(signUpBody, body), ...newPasswordErrors({ password: body.password, confirm }) };
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      await httpClient(SIGN_UP_PATH, { method: 'POST', body: JSON.stringify(body) });
      // Recorded with the account: not sent again after signing in (AffiliateSender).
      takeReferral();
      toast(successToast(SELF_SERVICE_MESSAGES.signedUp));
      await authProvider!.login({ username: body.email.trim(), password: body.password });
      // This page is drawn beside the app's routes, which asked who is signed in when it opened (nobody):
      // asked afresh before going in, or they would sign the new session out again.
      await queryClient.resetQueries({ queryKey: ['auth'] });
      navigate('/');
    } catch (error) {
      setErrors(serverErrors(error));
      toast(failureToast(SELF_SERVICE_MESSAGES.signUpFailure, error));
      setBusy(false);
    }
  }

  const field = (key: keyof typeof values, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      name={key}
      value={values[key]}
      onChange={set(key)}
      error={!!errors[key]}
      helperText={errors[key] ?? ' '}
      disabled={busy}
      {...extra}
    />
  );

  return (
    <SelfServiceCard
      title={SIGN_UP_TEXTS.title}
      intro={<Typography color="text.secondary">{SIGN_UP_TEXTS.intro}</Typography>}
      submitLabel={SIGN_UP_TEXTS.submit}
      busy={busy}
      onSubmit={() => void submit()}
      footer={<Link to="/login">{SIGN_UP_TEXTS.haveAccount}</Link>}
    >
      {field('name', 'Name', { autoFocus: true, autoComplete: 'name', required: true })}
      {field('email', 'Email', { type: 'email', autoComplete: 'email', required: true })}
      <NewPasswordFields value={values} onChange={(pair) => setValues((v) => ({ ...v, ...pair }))} errors={errors} disabled={busy} labels={SIGN_UP_PASSWORD_LABELS} />
      {field('bhrfc', 'Referral code (optional)', { autoComplete: 'off' })}
    </SelfServiceCard>
  );
}
