/**
 * What people do with their accounts without an admin (issue 51): sign up as a buyer (with a referral
 * code when a link brought one), ask for a password reset link by email, and choose a new password with
 * it. Choosing one while signed in is `PASSWORD_CHANGE_PATH` (resources/people.ts). Declared once here:
 * the paths (served by src/server/auth/sign-up.ts and password-reset.ts, described in the API document),
 * the bodies' rules, the messages, and where the client shows each page.
 *
 * No manifest resource: these calls are made before anyone is signed in, which no declared access
 * allows (`Access` names roles or 'signedIn'), like signing in itself.
 */
import { z } from 'zod';
import { ruleOf } from '../src/manifest/index.ts';
import { accountEmail } from './accounts.ts';
import { passwordRule, users } from './people.ts';
import { affiliateBody } from './referrals.ts';

/** Where a new buyer sends `{ name, email, password, bhrfc? }`. */
export const SIGN_UP_PATH = '/api/auth/signup';
/** Where a person asks for a reset link: `{ email }`. */
export const RESET_REQUEST_PATH = '/api/auth/forgot-password';
/** Where the link's page sends `{ token, password }`. */
export const RESET_PATH = '/api/auth/reset-password';

/** The role a sign-up gets: the buyer (spec §6 "user (buyer)"). */
export const SIGN_UP_ROLE = 'user';

/** The client's pages for these, and the reset link's parameter (in a file that imports nothing). */
export { RESET_TOKEN_PARAM, SELF_SERVICE_ROUTES } from './self-service-routes.ts';

export const SELF_SERVICE_MESSAGES = {
  signedUp: 'Your account is ready.',
  signUpFailure: 'Unable to create your account!',
  /** The same answer whether or not an account has the email: the form cannot be used to find accounts. */
  resetRequested: 'If an account has this email, a link to choose a new password is on its way. It works once, and only for a while.',
  resetRequestFailure: 'Unable to send the link!',
  resetDone: 'Your new password is set. Sign in with it.',
  resetFailure: 'Unable to set the password!',
  badToken: 'This link has expired or was already used. Ask for a new one.',
  mismatch: 'The passwords do not match.',
  passwordChanged: 'Your password is changed.',
  changeFailure: 'Unable to change the password!',
  emailRequired: 'Email is required.',
} as const;

/** A referral code typed or kept from a link; empty means none. */
const referralCode = z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), affiliateBody.shape.bhrfc.optional());

/** The sign-up body: the account's name (the profile's rule), its login, a password (§5), and a referral code. */
export const signUpBody = z.strictObject({
  name: ruleOf(users.fields.find((f) => f.name === 'name')!),
  email: accountEmail(5).pipe(z.string().max(255, 'Email must be at most 255 characters.')),
  password: passwordRule,
  bhrfc: referralCode,
});

/** The reset request: any text up to an address's length (an unknown email is answered as a known one). */
export const resetRequestBody = z.strictObject({
  email: z
    .string({ error: SELF_SERVICE_MESSAGES.emailRequired })
    .trim()
    .toLowerCase()
    .min(1, SELF_SERVICE_MESSAGES.emailRequired)
    .max(320, 'Email must be at most 320 characters.'),
});

/** Choosing the new password with the link's token. */
export const resetBody = z.strictObject({
  token: z.string({ error: SELF_SERVICE_MESSAGES.badToken }).min(1, SELF_SERVICE_MESSAGES.badToken).max(128, SELF_SERVICE_MESSAGES.badToken),
  password: passwordRule,
});
