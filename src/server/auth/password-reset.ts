/**
 * Password reset by an emailed one-time link (resources/self-service.ts):
 * - `POST /api/auth/forgot-password` `{ email }`: when an active account has the email, a link
 *   `<base>/#/reset-password?token=…` is emailed through the email layer. The token is 32 random bytes;
 *   only its SHA-256 is stored (PASSWORD_RESETS), as a session's is, so a copy of the database opens
 *   nothing. It works for `PASSWORD_RESET_MINUTES` (30), once; asking again replaces the account's
 *   earlier link. The answer is the same 202 whether or not an account has the email, and the email is
 *   sent after it (the mail server's time would tell them apart). Limited per email (whether or not an
 *   account has it, so the limit tells nothing either) and per address: RESETS_PER_ACCOUNT and
 *   RESETS_PER_ADDRESS within RESET_WINDOW_MS, then 429.
 * - `POST /api/auth/reset-password` `{ token, password }`: the link is used up (a compare-and-delete in
 *   the write's transaction, so two uses racing cannot both win), the password set through the records
 *   service (hashed, audited), `mustChangePassword` lifted, every other link and every session of the
 *   account ended. An unknown, used or expired token: 400 under `token`. No session is started: the
 *   person signs in with the new password.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RESET_PATH, RESET_REQUEST_PATH, RESET_TOKEN_PARAM, SELF_SERVICE_MESSAGES, SELF_SERVICE_ROUTES, resetBody, resetRequestBody } from '../../../resources/self-service.ts';
import { issuesByField, type Registry } from '../../manifest/index.ts';
import { PASSWORD_RESETS } from '../db/migrate.ts';
import { findBy } from '../db/repository.ts';
import type { Db, Row } from '../db/types.ts';
import { sendEmail } from '../email/send.ts';
import { badRequest, VALIDATION_FAILED } from '../errors.ts';
import { RecordsService } from '../records/service.ts';
import { ACCOUNTS } from '../records/ownership.ts';
import { isDisabled } from './account-state.ts';
import { addressKey, WindowCounter } from './limiter.ts';
import { RESETS_PER_ACCOUNT, RESETS_PER_ADDRESS, RESET_WINDOW_MS, readSelfServiceConfig } from './self-service-config.ts';
import { endSessionsOf } from './sessions.ts';
import { tooMany } from './too-many.ts';

/** What the email history files these emails under. */
export const RESET_EMAIL_KIND = 'password-reset';
export const TOO_MANY_RESETS = 'Too many reset links asked for.';

const TOKEN_BYTES = 32;
const digest = (token: string) => createHash('sha256').update(token).digest('base64url');

export function resetEmail(name: string, email: string, link: string, minutes: number) {
  return {
    subject: 'Choose a new password',
    text: [
      `Hello ${name || email},`,
      '',
      `Someone asked to choose a new password for your account ${email}. If it was you, open this link`,
      `within ${minutes} minutes; it works once:`,
      '',
      link,
      '',
      'If it was not you, ignore this email: your password stays as it is.',
    ].join('\n'),
  };
}

export function registerPasswordReset(app: FastifyInstance, db: Db, registry: Registry) {
  const users = registry.resource(ACCOUNTS);
  // Read once, so a wrong setting stops the server at start rather than failing a request.
  const config = readSelfServiceConfig();
  const perAccount = new WindowCounter(RESETS_PER_ACCOUNT, RESET_WINDOW_MS);
  const perAddress = new WindowCounter(RESETS_PER_ADDRESS, RESET_WINDOW_MS);
  // Emails still being handed over when the server closes are waited for (each has its own timeouts).
  const sending = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...sending]);
  });

  const linkBase = (request: FastifyRequest) => config.publicUrl ?? `${request.protocol}://${request.host}`;

  app.post(RESET_REQUEST_PATH, async (request, reply) => {
    const parsed = resetRequestBody.safeParse(request.body ?? {});
    if (!parsed.success) throw badRequest(VALIDATION_FAILED, issuesByField(parsed.error));
    const { email } = parsed.data;
    const address = addressKey(request.ip);
    const wait = Math.max(perAccount.waitFor(email), perAddress.waitFor(address));
    if (wait > 0) return tooMany(reply, wait, TOO_MANY_RESETS);
    perAccount.take(email);
    perAddress.take(address);

    const now = new Date();
    const user = (await db.selectFrom(ACCOUNTS).selectAll().where('email', '=', email).executeTakeFirst()) as Row | undefined;
    if (user && !isDisabled(user)) {
      const token = randomBytes(TOKEN_BYTES).toString('base64url');
      const userId = String(user.id);
      await db.transaction().execute(async (trx) => {
        // The newest link is the one that works; links nobody used are dropped as they expire.
        await trx
          .deleteFrom(PASSWORD_RESETS)
          .where((eb) => eb.or([eb('userId', '=', userId), eb('expiresAt', '<', now.toISOString())]))
          .execute();
        await trx
          .insertInto(PASSWORD_RESETS)
          .values({
            id: digest(token),
            userId,
            expiresAt: new Date(now.getTime() + config.resetMinutes * 60_000).toISOString(),
            createdAt: now.toISOString(),
          })
          .execute();
      });
      const link = `${linkBase(request)}/#${SELF_SERVICE_ROUTES.reset}?${RESET_TOKEN_PARAM}=${token}`;
      const mail = resetEmail(String(user.name ?? ''), email, link, config.resetMinutes);
      // After the answer: the history keeps the email with the token masked.
      const sent: Promise<void> = sendEmail(db, { to: email, ...mail, kind: RESET_EMAIL_KIND, secrets: [token] })
        .catch((error) => request.log.error(error))
        .finally(() => sending.delete(sent));
      sending.add(sent);
    }
    reply.code(202);
    return { message: SELF_SERVICE_MESSAGES.resetRequested };
  });

  app.post(RESET_PATH, async (request) => {
    const parsed = resetBody.safeParse(request.body ?? {});
    if (!parsed.success) throw badRequest(VALIDATION_FAILED, issuesByField(parsed.error));
    const { token, password } = parsed.data;
    const id = digest(token);
    const refused = () => badRequest(SELF_SERVICE_MESSAGES.badToken, { token: [SELF_SERVICE_MESSAGES.badToken] });
    const link = await db.selectFrom(PASSWORD_RESETS).selectAll().where('id', '=', id).executeTakeFirst();
    if (!link || String(link.expiresAt) <= new Date().toISOString()) throw refused();
    const userId = String(link.userId);
    const user = await findBy(db, users, 'id', userId);
    if (!user || isDisabled(user)) throw refused();
    const records = new RecordsService({
      db,
      registry,
      actor: { id: userId, email: (user.email as string) ?? null, role: (user.role as string) ?? null },
      invalidate: (table) => app.readCache?.invalidate(table),
    });
    await records.transaction(async (tx) => {
      // Used up here: of two uses racing, only the one that deletes the row goes on.
      const used = await tx.db.deleteFrom(PASSWORD_RESETS).where('id', '=', id).executeTakeFirst();
      if (Number(used.numDeletedRows) !== 1) throw refused();
      await tx.update(users, userId, { password, mustChangePassword: false });
      await tx.db.deleteFrom(PASSWORD_RESETS).where('userId', '=', userId).execute();
      // Ended with the change itself: no crash in between leaves a session of the old password open.
      await tx.db.deleteFrom('sessions').where('userId', '=', userId).execute();
    });
    // Drops this node's cached sessions and tells the other nodes and the sockets.
    await endSessionsOf(db, userId);
    return { message: SELF_SERVICE_MESSAGES.resetDone };
  });
}
