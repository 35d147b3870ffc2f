/** Starting a session for a request: the row (sessions.ts) and the httpOnly cookie that names it. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/repository.ts';
import { createSession, SESSION_COOKIE } from './sessions.ts';

/** Starts a session of `userId` and sets its cookie on `reply` (sign-in, a password just changed). */
export async function startSession(db: Db, request: FastifyRequest, reply: FastifyReply, userId: string) {
  const { token, expires } = await createSession(db, userId);
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    expires,
  });
}
