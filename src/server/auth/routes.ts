/**
 * Sign-in and sign-out (`/api/auth/*`), choosing a new password (./password-change.ts), signing up
 * (./sign-up.ts) and resetting a password by an emailed link (./password-reset.ts), and the session
 * lookup every request goes through, which also shuts out disabled accounts and holds an account with a
 * one-time password to choosing a new one.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { issuesByField, type Registry } from '../../manifest/index.ts';
import { badRequest, HttpError, VALIDATION_FAILED } from '../errors.ts';
import { toRecord, type Db, type Row } from '../db/repository.ts';
import { onEmailRecorded } from '../email/send.ts';
import { DISABLED_MESSAGE, isDisabled, mustChangePassword } from './account-state.ts';
import { refuseAttempt, signInLimiter, type SignInLimits } from './limiter.ts';
import { verifyPassword } from './password.ts';
import { CURRENT_USER_PATH, refuseUntilPasswordChanged, registerPasswordChange } from './password-change.ts';
import { registerPasswordReset } from './password-reset.ts';
import { registerSignUp } from './sign-up.ts';
import { clearSessionCookies, startSession } from './session-cookie.ts';
import { endSession, knownUserOfSession, SESSION_COOKIE, userOfSession } from './sessions.ts';
import { watchAccountUpdates } from '../users/account-update.ts';

/** The sign-in body; also what the API document (`src/server/openapi/`) says `POST /api/auth/login` takes. */
export const credentials = z.strictObject({
  email: z.string({ error: 'Email is required.' }).trim().min(1, 'Email is required.').max(320),
  password: z.string({ error: 'Password is required.' }).min(1, 'Password is required.').max(200),
});

/** Whether a request URL is `path` with or without a query (no string made: this runs on every request). */
const isPathOf = (url: string, path: string) => url.startsWith(path) && (url.length === path.length || url[path.length] === '?');

/** `limits`: how wrong passwords are spaced out (limiter.ts); left out, its defaults. */
export function registerAuth(app: FastifyInstance, db: Db, registry: Registry, limits: Partial<SignInLimits> = {}) {
  const users = registry.resource('users');
  const limiter = signInLimiter(limits);
  app.addHook('preClose', (done) => {
    limiter.stop();
    done();
  });

  const settle = (request: FastifyRequest, user: Row | undefined) => {
    // Disabling ends an account's sessions; one that another server node still holds cached is refused here.
    request.user = isDisabled(user) ? undefined : user;
    refuseUntilPasswordChanged(request);
  };
  // A callback hook: most requests' sessions are known without the database (a lookup of the last few
  // seconds), and those are settled at once, without a promise per request.
  app.addHook('onRequest', (request, _reply, done) => {
    const token = request.cookies[SESSION_COOKIE];
    // The session cache may hold the account as it was a few seconds ago; who it is now (a profile just
    // saved) is read afresh. One query, for the one call the client makes to ask.
    const self = request.method === 'GET' && isPathOf(request.url, CURRENT_USER_PATH);
    const known = self ? undefined : knownUserOfSession(token);
    if (known) {
      try {
        settle(request, known.user);
      } catch (error) {
        return done(error as Error);
      }
      return done();
    }
    userOfSession(db, token)
      .then(async (user) => (user && self ? db.selectFrom('users').selectAll().where('id', '=', user.id as string).executeTakeFirst() : user))
      .then((user) => settle(request, user))
      .then(() => done(), done);
  });
  registerPasswordChange(app, db, registry, limiter);
  // The accounts' self-service: made before anyone is signed in (resources/self-service.ts).
  registerSignUp(app, db, registry);
  registerPasswordReset(app, db, registry);
  watchAccountUpdates(app, db, registry);
  // Emails are recorded outside the manifest's routes: the history's cached reads are dropped as they are.
  const unwatch = onEmailRecorded((table) => app.readCache?.invalidate(table));
  app.addHook('onClose', async () => unwatch());

  app.post('/api/auth/login', async (request, reply) => {
    const parsed = credentials.safeParse(request.body ?? {});
    if (!parsed.success) throw badRequest(VALIDATION_FAILED, issuesByField(parsed.error));
    const email = parsed.data.email.toLowerCase();
    const find = () => db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    let user = await find();
    // Booked before the (slow) password check, so parallel guesses are spaced like a sequence.
    const reservation = limiter.reserve(request.ip, email, { exists: user !== undefined });
    if (!reservation.ok) return refuseAttempt(reply, reservation.retryAfterSeconds);
    if (reservation.waitMs > 0) {
      await limiter.hold(reservation.waitMs);
      // Held for its turn: the account may have changed meanwhile (a new password, disabled).
      user = await find();
    }
    if (!(await verifyPassword(parsed.data.password, user?.passwordHash as string | undefined)) || !user)
      throw new HttpError(401, 'Invalid email or password.');
    limiter.succeed(request.ip, email);
    // Told only to whoever knows the password, so the state of an account is not a way to probe for it.
    if (isDisabled(user)) throw new HttpError(403, DISABLED_MESSAGE);
    await startSession(db, request, reply, user.id as string);
    // The client shows "Choose a new password" before anything else when this is true.
    return { ...toRecord(users, user), mustChangePassword: mustChangePassword(user) };
  });

  app.post('/api/auth/logout', async (request, reply) => {
    await endSession(db, request.cookies[SESSION_COOKIE]);
    clearSessionCookies(reply);
    return reply.code(204).send();
  });
}
