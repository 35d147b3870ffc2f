/** Starting a session for a request: the row (sessions.ts) and the httpOnly cookie that names it. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/types.ts';
import { createSession, SESSION_COOKIE } from './sessions.ts';

/**
 * Whether the session cookie is sent only over HTTPS: when the request came over it (directly, or
 * through a proxy `TRUST_PROXY` believes), and always in production, where a TLS proxy that is not
 * trusted (so the request looks like plain HTTP) must not leave the cookie readable on the wire.
 * Read per request, so the environment decides as it is (tests set it).
 */
export const secureCookie = (request: FastifyRequest) => request.protocol === 'https' || process.env.NODE_ENV === 'production';

/** Starts a session of `userId` and sets its cookie on `reply` (sign-in, a password just changed). */
export async function startSession(db: Db, request: FastifyRequest, reply: FastifyReply, userId: string) {
  const { token, expires } = await createSession(db, userId);
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookie(request),
    expires,
  });
}
