/**
 * Sending email. Every email the system sends goes through `sendEmail`, which hands it to the SMTP
 * server of `SMTP_URL` when one is configured (./config.ts) and records it in the email history
 * (resources/email.ts) either way: `sent`, `recorded` (no SMTP server) or `failed` (with the error).
 */
import { EMAIL_HISTORY, type EmailStatus } from '../../../resources/email.ts';
import { MAX_LONG_TEXT, MAX_TEXT } from '../../manifest/rules.ts';
import { newId } from '../db/id.ts';
import type { Db } from '../db/types.ts';
import { readEmailConfig } from './config.ts';
import { transportFor } from './transport.ts';

/** One email. */
export interface Mail {
  /** One address. Anything else (a list, a display name, a line break) is refused and recorded as failed. */
  to: string;
  subject: string;
  /** The plain-text body. */
  text: string;
  /** Why it is sent, for the history's filter: 'one-time-password', 'account-replaced', … */
  kind: string;
  /**
   * Values the body carries that the history must not keep (a one-time password): the owner gets them
   * in the email, the history shows them masked. See `maskSecrets`.
   */
  secrets?: readonly string[];
}

/** What a masked secret reads as in the history. */
export const MASK = '••••••';

/**
 * `text` with every secret replaced by MASK. Why the history never holds the password itself: it is
 * kept for as long as the database is, read by every admin, and copied with every backup; a readable
 * one-time password there would let any of them sign in as its owner until it is changed. The owner
 * has it by email, and the admin who issued it saw it once, in the answer to the issuing call.
 */
export function maskSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join(MASK);
  return out;
}

/** A single plain address: no list, no display name, no whitespace (so no header can be smuggled in). */
const SINGLE_ADDRESS = /^[^\s@,;<>"()]+@[^\s@,;<>"()]+\.[^\s@,;<>"()]+$/;

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max - 1) + '…' : text);
/** A header value on one line: line breaks would start a header of their own. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();

let lastStamp = 0;
/**
 * When an email is recorded: now, or a millisecond after the previous one when that is not earlier,
 * so the history lists a burst of emails in the order they were sent (ids only tell seconds apart).
 */
function stamp(): string {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp).toISOString();
}

/** Called after each recorded email with the history's table name (the read cache drops its answers). */
type Listener = (table: string) => void;
const listeners = new Set<Listener>();

/** Calls `listener` after every email recorded; answers the function that stops it. */
export function onEmailRecorded(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/**
 * Sends `mail` (when `SMTP_URL` is set) and records it in the email history. A refusal or failure of
 * the mail server does not throw: the email is recorded as `failed` with the reason, so whatever the
 * caller did (an account given a new password) stands and the admin can see what did not go out. Only
 * a failure to record throws. Call it after your own transaction has committed: sending is slow, and
 * an email cannot be taken back if the transaction rolled back.
 */
export async function sendEmail(db: Db, mail: Mail): Promise<void> {
  const { smtpUrl, from } = readEmailConfig();
  const to = mail.to.trim();
  const subject = oneLine(mail.subject);
  let status: EmailStatus = 'recorded';
  let error: string | null = null;
  if (!SINGLE_ADDRESS.test(to)) {
    status = 'failed';
    error = 'Not a single email address.';
  } else if (smtpUrl) {
    try {
      await transportFor(smtpUrl).sendMail({ from, to, subject, text: mail.text });
      status = 'sent';
    } catch (e) {
      status = 'failed';
      error = clip(maskSecrets(e instanceof Error ? e.message : String(e), mail.secrets), 2000);
    }
  }
  const now = stamp();
  await db
    .insertInto(EMAIL_HISTORY)
    .values({
      id: newId(),
      sentAt: now,
      to: clip(to, MAX_TEXT),
      subject: clip(maskSecrets(subject, mail.secrets), MAX_TEXT),
      kind: clip(oneLine(mail.kind), MAX_TEXT),
      status,
      text: clip(maskSecrets(mail.text, mail.secrets), MAX_LONG_TEXT),
      error,
      createdAt: now,
      updatedAt: now,
      version: 1,
    })
    .execute();
  for (const listener of listeners) listener(EMAIL_HISTORY);
}
