/** Sign-in and sign-out (`/api/auth/*`) and the session lookup every request goes through. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { issuesByField, type Registry } from '../../manifest/index.ts';
import { badRequest, HttpError, VALIDATION_FAILED } from '../errors.ts';
import { toRecord, type Db } from '../db/repository.ts';
import { failureLimiter } from './limiter.ts';
import { verifyPassword } from './password.ts';
import { createSession, endSession, SESSION_COOKIE, userOfSession } from './sessions.ts';

const credentials = z.strictObject({
  email: z.string({ error: 'Email is required.' }).trim().min(1, 'Email is required.').max(320),
  password: z.string({ error: 'Password is required.' }).min(1, 'Password is required.').max(200),
});

export function registerAuth(app: FastifyInstance, db: Db, registry: Registry) {
  const users = registry.resource('users');
  const limiter = failureLimiter();

  app.addHook('onRequest', async (request) => {
    request.user = await userOfSession(db, request.cookies[SESSION_COOKIE]);
  });

  app.post('/api/auth/login', async (request, reply) => {
    const parsed = credentials.safeParse(request.body ?? {});
    if (!parsed.success) throw badRequest(VALIDATION_FAILED, issuesByField(parsed.error));
    const email = parsed.data.email.toLowerCase();
    const key = `${request.ip} ${email}`;
    if (limiter.blocked(key)) throw new HttpError(429, 'Too many failed sign-ins. Try again in 15 minutes.');
    const user = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    if (!(await verifyPassword(parsed.data.password, user?.passwordHash as string | undefined)) || !user) {
      limiter.fail(key);
      throw new HttpError(401, 'Invalid email or password.');
    }
    limiter.succeed(key);
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
