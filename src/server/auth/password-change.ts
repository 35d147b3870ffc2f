/**
 * Choosing a new password (`POST /api/auth/password`), and the gate that holds an account to it: after
 * signing in with a one-time password (src/server/users/one-time-password.ts) every other API call
 * answers 403 'Please choose a new password.' until the owner has chosen one.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { issuesByField, parseCall, urlOf, type Registry } from '../../manifest/index.ts';
import { PASSWORD_CHANGE_PATH, passwordRule, users as usersResource } from '../../../resources/people.ts';
import { badRequest, HttpError, VALIDATION_FAILED } from '../errors.ts';
import { actorOf, audit } from '../records/audit.ts';
import { toRecord, type Db } from '../db/repository.ts';
import { PASSWORD_RESETS } from '../db/migrate.ts';
import { updateRecord } from '../records/writes.ts';
import { MUST_CHANGE_MESSAGE, mustChangePassword } from './account-state.ts';
import { refuseAttempt, type SignInLimiter } from './limiter.ts';
import { verifyPassword } from './password.ts';
import { startSession } from './session-cookie.ts';
import { endSessionsOf } from './sessions.ts';

/** Where a new password is sent. */
export const PASSWORD_PATH = PASSWORD_CHANGE_PATH;

/**
 * The new-password body: `password` by §5's rule (6 to 12 characters, its exact messages), and the
 * current password, which an account that is not being made to change must give: a session left open
 * on a shared computer must not be enough to take the account over. An account signed in with a
 * one-time password has just proven it.
 */
export const newPassword = z.strictObject({
  password: passwordRule,
  currentPassword: z.string().max(200).optional(),
});

/** The messages of the checks beyond the body's shape. */
export const PASSWORD_CHANGE_MESSAGES = {
  currentRequired: 'Current password is required.',
  currentWrong: 'Current password is wrong.',
  same: 'Choose a password other than the one you have now.',
} as const;

/** The signed-in user's own record (`GET /getcurrentuser`), as the router sees its path. */
export const CURRENT_USER_PATH = urlOf(parseCall(usersResource.reads.current.call).path);

/** The API paths an account may call while it must choose a new password: who it is, leaving, and choosing. */
const MAY_CALL_BEFORE_CHANGE = new Set(['/api/auth/login', '/api/auth/logout', PASSWORD_PATH, CURRENT_USER_PATH]);

/**
 * Refuses (403) an API call of a signed-in account that must choose a new password first. The app's
 * own files are not API calls: the client must load to show the form.
 */
export function refuseUntilPasswordChanged(request: FastifyRequest) {
  if (!mustChangePassword(request.user)) return;
  const path = request.url.split('?')[0];
  if (!path.startsWith('/api/') || MAY_CALL_BEFORE_CHANGE.has(path)) return;
  throw new HttpError(403, MUST_CHANGE_MESSAGE);
}

/**
 * `POST /api/auth/password`: sets the signed-in account's password and lifts `mustChangePassword`.
 * A guess of the current password is spaced out by the sign-in's own `limiter` (the same counters: a
 * session is no way around them). Every session of the account ends (one stolen with the old password
 * among them) and this one is replaced by a new session, whose cookie the answer sets; the change is
 * audited as `changePassword`. Answers the account, never its hash.
 */
export function registerPasswordChange(app: FastifyInstance, db: Db, registry: Registry, limiter: SignInLimiter) {
  const users = registry.resource('users');
  app.post(PASSWORD_PATH, async (request, reply) => {
    const user = request.user;
    if (!user) throw new HttpError(401, 'Please sign in.');
    const parsed = newPassword.safeParse(request.body ?? {});
    if (!parsed.success) throw badRequest(VALIDATION_FAILED, issuesByField(parsed.error));
    const { password, currentPassword } = parsed.data;
    const hash = user.passwordHash as string | undefined;
    if (!mustChangePassword(user)) {
      if (!currentPassword) throw badRequest(VALIDATION_FAILED, { currentPassword: [PASSWORD_CHANGE_MESSAGES.currentRequired] });
      const email = String(user.email).toLowerCase();
      const reservation = limiter.reserve(request.ip, email, { exists: true });
      if (!reservation.ok) return refuseAttempt(reply, reservation.retryAfterSeconds);
      await limiter.hold(reservation.waitMs);
      if (!(await verifyPassword(currentPassword, hash)))
        throw badRequest(VALIDATION_FAILED, { currentPassword: [PASSWORD_CHANGE_MESSAGES.currentWrong] });
      limiter.succeed(request.ip, email);
    }
    if (hash && (await verifyPassword(password, hash))) throw badRequest(VALIDATION_FAILED, { password: [PASSWORD_CHANGE_MESSAGES.same] });
    const id = String(user.id);
    const actor = actorOf(request);
    await db.transaction().execute(async (trx) => {
      await updateRecord(trx, registry, users, id, { password, mustChangePassword: false }, { actor });
      // The password is a secret (never in the log) and may be all that changed: the entry says so by its action.
      await audit(trx, { actor, resource: users, recordId: id, action: 'changePassword', changes: {} });
      // Ended with the change itself: no crash in between leaves a session of the old password open.
      await trx.deleteFrom('sessions').where('userId', '=', id).execute();
      // A reset link asked for before is no longer wanted: the owner has just chosen a password.
      await trx.deleteFrom(PASSWORD_RESETS).where('userId', '=', id).execute();
    });
    // Written outside the manifest's routes: cached reads of the accounts are dropped here.
    request.server.readCache?.invalidate(users.name);
    // Drops this node's cached sessions and tells the other nodes and the sockets (the rows are gone already).
    await endSessionsOf(db, id);
    await startSession(db, request, reply, id);
    const stored = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return { ...toRecord(users, stored), mustChangePassword: false };
  });
}
