/**
 * Who may open the realtime socket: a browser page of the app's own origin (or one ALLOWED_ORIGINS
 * lists), with a live session of an account that is not disabled and has no new password due — the
 * same rules as every API call (src/server/csrf.ts, src/server/auth/).
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'socket.io';
import type { FastifyInstance } from 'fastify';
import { originOf } from '../csrf.ts';
import type { TrustProxy } from '../config.ts';
import type { Db } from '../db/types.ts';
import { DISABLED_MESSAGE, isDisabled, MUST_CHANGE_MESSAGE, mustChangePassword } from '../auth/account-state.ts';
import { SESSION_COOKIE, sessionIdOf, userOfSession } from '../auth/sessions.ts';

/** What a socket's `connect_error` says when there is no live session behind it (none, forged or expired). */
export const NOT_SIGNED_IN = 'Authentication required.';
/** What it says when the session could not be checked (the database failing). */
export const NOT_CHECKED = 'Could not check the session; try again.';

/** What the server keeps on each socket: whose it is, and whether its page told it is visible. */
export interface SocketData {
  userId: string;
  /** The account's role: its sockets are in the role's room too (a notification to the role). */
  role: string;
  /** The session's stored id (`sessionIdOf`), naming its room, so ending it drops its sockets alone. */
  sessionId: string;
  online: boolean;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value?.split(',')[0])?.trim();

/**
 * The origins this request reached the app as: its Host over the connection's scheme, and (when a proxy
 * is trusted) what the proxy says it was asked for. Cross-site checks of the HTTP routes ask Fastify the
 * same; engine.io answers the socket's requests before Fastify sees them.
 */
function ownOrigins(request: IncomingMessage, trustProxy: TrustProxy): string[] {
  const secure = 'encrypted' in request.socket && !!request.socket.encrypted;
  const origins = [request.headers.host && originOf(`${secure ? 'https' : 'http'}://${request.headers.host}`)];
  if (trustProxy !== false) {
    const host = first(request.headers['x-forwarded-host']) ?? request.headers.host;
    const proto = first(request.headers['x-forwarded-proto']) ?? (secure ? 'https' : 'http');
    if (host) origins.push(originOf(`${proto}://${host}`));
  }
  return origins.filter((o): o is string => !!o);
}

/**
 * engine.io's `allowRequest`: a page of another site may not open the socket (its cookie would ride
 * along). As for writes, a request without Origin that the browser does not mark cross-site is not a
 * foreign page's (a same-origin long-polling GET, or a client that is no browser).
 */
export function originCheck(allowedOrigins: readonly string[], trustProxy: TrustProxy) {
  const allowed = new Set(allowedOrigins.map((o) => originOf(o) ?? o));
  return (request: IncomingMessage, answer: (error: string | null | undefined, success: boolean) => void) => {
    const origin = request.headers.origin;
    if (origin === undefined) {
      const site = request.headers['sec-fetch-site'];
      return answer(site === 'cross-site' || site === 'same-site' ? 'Cross-site socket refused.' : null, site !== 'cross-site' && site !== 'same-site');
    }
    const normal = originOf(origin);
    const ok = !!normal && (allowed.has(normal) || ownOrigins(request, trustProxy).includes(normal));
    answer(ok ? null : 'Cross-site socket refused.', ok);
  };
}

/** socket.io middleware: the session cookie must name a live session of an account allowed in. */
export function authenticate(app: FastifyInstance, db: Db) {
  return async (socket: Socket, next: (error?: Error) => void) => {
    try {
      const token = app.parseCookie(socket.request.headers.cookie ?? '')[SESSION_COOKIE];
      const user = await userOfSession(db, token);
      if (!user || !token) return next(new Error(NOT_SIGNED_IN));
      if (isDisabled(user)) return next(new Error(DISABLED_MESSAGE));
      if (mustChangePassword(user)) return next(new Error(MUST_CHANGE_MESSAGE));
      const data: SocketData = { userId: String(user.id), role: String(user.role ?? ''), sessionId: sessionIdOf(token), online: false };
      socket.data = data;
      next();
    } catch (error) {
      app.log.error(error);
      next(new Error(NOT_CHECKED));
    }
  };
}
