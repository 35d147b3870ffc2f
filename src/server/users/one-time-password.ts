/**
 * `POST /users/{id}/one-time-password` (admin; agent-login-details, seller-login-details): the account
 * gets a new random password, answered once in this response and emailed to the owner; it must choose
 * a new one at its next sign-in (src/server/auth/password-change.ts), and every session it had ends.
 */
import { randomInt } from 'node:crypto';
import { badRequest } from '../errors.ts';
import { endSessionsOf } from '../auth/sessions.ts';
import { sendEmail } from '../email/send.ts';
import type { Handler } from '../routes/handlers.ts';

/** Letters and digits that cannot be mistaken for one another when read aloud or copied by hand (no 0/O, 1/l/I). */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
/** 12 characters, the most §5 allows: 55^12, about 69 bits. */
export const ONE_TIME_PASSWORD_LENGTH = 12;

/** A one-time password from the operating system's random source. */
export function oneTimePassword(length = ONE_TIME_PASSWORD_LENGTH): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export const ONE_TIME_PASSWORD_MESSAGES = {
  own: 'You cannot issue a one-time password for your own account.',
  subject: 'Your one-time password',
} as const;

/** The email's body. The password is on a line of its own, so it can be copied without the words around it. */
function emailText(name: string, email: string, password: string, signIn: string) {
  return [
    `Hello ${name || email},`,
    '',
    `An administrator has issued a one-time password for your account ${email}:`,
    '',
    `    ${password}`,
    '',
    `Sign in with it at ${signIn}. You will be asked to choose a new password straight away;`,
    'until then the account can do nothing else. Your previous password no longer works.',
    '',
    'If you did not expect this, tell the marketplace team.',
  ].join('\n');
}

export const issueOneTimePassword: Handler = async ({ db, records, resource, request, reply, params }) => {
  const row = await records.reachable(resource, params.id);
  const id = String(row.id);
  if (id === request.user?.id) throw badRequest(ONE_TIME_PASSWORD_MESSAGES.own);
  const password = oneTimePassword();
  // Hashed by the write like every password field; the audit entry records that it changed, never the value.
  await records.update(resource, id, { password, mustChangePassword: true });
  await endSessionsOf(db, id);
  const email = String(row.email ?? '');
  await sendEmail(db, {
    to: email,
    subject: ONE_TIME_PASSWORD_MESSAGES.subject,
    text: emailText(String(row.name ?? ''), email, password, `${request.protocol}://${request.host}/`),
    kind: 'one-time-password',
    secrets: [password],
  });
  // Shown once: no cache (browser or proxy) may keep the answer.
  reply.header('Cache-Control', 'no-store');
  return { id, email, password, mustChangePassword: true };
};
