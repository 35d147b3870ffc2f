/**
 * Starting a session for a request: the row (sessions.ts), the httpOnly cookie that names it, and its
 * readable marker (src/domain/session-marker.ts says why); and clearing both at sign-out.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_MARKER_COOKIE } from '../../domain/session-marker.ts';
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
  // Set after the session cookie, so a caller reading the first Set-Cookie still finds `sid`.
  reply.setCookie(SESSION_MARKER_COOKIE, '1', { path: '/', sameSite: 'lax', secure: secureCookie(request), expires });
}

/** Clears the session cookie and its marker (sign-out). */
export function clearSessionCookies(reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  reply.clearCookie(SESSION_MARKER_COOKIE, { path: '/' });
}
