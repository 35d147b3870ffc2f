/**
 * The new password and its repeat, as every form that sets one draws and judges them: sign-up, the
 * emailed link's page, "Change password" in the account menu, and the choice after a one-time password
 * (ChoosePassword.tsx). The password is judged by §5's rule (resources/people.ts, the server's own), the
 * repeat by being the same ('The passwords do not match.', resources/self-service.ts).
 */
import { TextField } from '@mui/material';
import { passwordRule } from '../../../../resources/people.ts';
import { SELF_SERVICE_MESSAGES } from '../../../../resources/self-service.ts';
import type { FieldErrors } from './form-errors.ts';

/** What the two fields hold. */
export interface NewPassword {
  password: string;
  confirm: string;
}

export const NO_NEW_PASSWORD: NewPassword = { password: '', confirm: '' };

/** The fields' labels: a new password by default; sign-up's are the account's first. */
export const NEW_PASSWORD_LABELS = { password: 'New password', confirm: 'Repeat the new password' } as const;

/** The pair's messages in the browser: under `password` the rule's first, under `confirm` a mismatch. */
export function newPasswordErrors({ password, confirm }: NewPassword): FieldErrors {
  const judged = passwordRule.safeParse(password);
  return {
    password: judged.success ? undefined : judged.error.issues[0]?.message,
    confirm: confirm === password ? undefined : SELF_SERVICE_MESSAGES.mismatch,
  };
}

export interface NewPasswordFieldsProps {
  value: NewPassword;
  onChange: (value: NewPassword) => void;
  /** Messages by field name (`password`, `confirm`); others are the form's own. */
  errors: FieldErrors;
  disabled?: boolean;
  /** The password field takes the focus when the form opens (it is the form's first). */
  autoFocus?: boolean;
  labels?: { password: string; confirm: string };
}

export function NewPasswordFields({ value, onChange, errors, disabled, autoFocus, labels = NEW_PASSWORD_LABELS }: NewPasswordFieldsProps) {
  const field = (key: keyof NewPassword, focus?: boolean) => (
    <TextField
      autoFocus={focus}
      type="password"
      label={labels[key]}
      name={key}
      autoComplete="new-password"
      value={value[key]}
      onChange={(e) => onChange({ ...value, [key]: e.target.value })}
      error={!!errors[key]}
      helperText={errors[key] ?? ' '}
      disabled={disabled}
      required
    />
  );
  return (
    <>
      {field('password', autoFocus)}
      {field('confirm')}
    </>
  );
}
