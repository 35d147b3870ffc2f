/** Sign-in and sign-out (`/api/auth/*`) and the session lookup every request goes through. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { issuesByField, type Registry } from '../../manifest/index.ts';
import { badRequest, HttpError, VALIDATION_FAILED } from '../errors.ts';
import { toRecord, type Db } from '../db/repository.ts';
import { signInLimiter } from './limiter.ts';
import { verifyPassword } from './password.ts';
import { createSession, endSession, SESSION_COOKIE, userOfSession } from './sessions.ts';

/** The sign-in body; also what the API document (`src/server/openapi/`) says `POST /api/auth/login` takes. */
export const credentials = z.strictObject({
  email: z.string({ error: 'Email is required.' }).trim().min(1, 'Email is required.').max(320),
  password: z.string({ error: 'Password is required.' }).min(1, 'Password is required.').max(200),
});

export function registerAuth(app: FastifyInstance, db: Db, registry: Registry) {
  const users = registry.resource('users');
  const limiter = signInLimiter();

  app.addHook('onRequest', async (request) => {
    request.user = await userOfSession(db, request.cookies[SESSION_COOKIE]);
  });

  app.post('/api/auth/login', async (request, reply) => {
    const parsed = credentials.safeParse(request.body ?? {});
    if (!parsed.success) throw badRequest(VALIDATION_FAILED, issuesByField(parsed.error));
    const email = parsed.data.email.toLowerCase();
    // Counted before the (slow) password check, so parallel guesses cannot all slip under the limit.
    const reservation = limiter.reserve(request.ip, email);
    if (!reservation.ok) {
      const minutes = Math.ceil(reservation.retryAfterSeconds / 60);
      return reply
        .code(429)
        .header('Retry-After', String(reservation.retryAfterSeconds))
        .send({ message: `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` });
    }
    const user = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    if (!(await verifyPassword(parsed.data.password, user?.passwordHash as string | undefined)) || !user)
      throw new HttpError(401, 'Invalid email or password.');
    limiter.succeed(request.ip, email);
    const { token, expires } = await createSession(db, user.id as string);
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      expires,
    });
    return toRecord(users, user);
  });

  app.post('/api/auth/logout', async (request, reply) => {
    await endSession(db, request.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.code(204).send();
  });
}
