/**
 * Server-side sessions. The cookie holds a random token; the table holds only its SHA-256, so a copy
 * of the database cannot be replayed as cookies. Signing out deletes the row.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db, Row } from '../db/types.ts';

export const SESSION_COOKIE = 'sid';
export const SESSION_DAYS = 7;

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * The digests of the tokens seen in the last while: every request of a signed-in user names its token,
 * and hashing it again each time was 3 to 5 % of a get-one's time on the main thread (a V8 profile of
 * the bench's `one`: createHash, update and digest; README, Performance). Only the process holds them,
 * as it holds the cookies it reads; bounded like `recent` below (at DIGESTS_MAX it starts again), and
 * only tokens of the length `createSession` makes are kept, so made-up cookies of 16 kB cannot fill memory.
 */
const digests = new Map<string, string>();
const DIGESTS_MAX = 10_000;
/** How much randomness a session token holds, and so its length in base64url (43 characters). */
const TOKEN_BYTES = 32;
const TOKEN_LENGTH = Math.ceil((TOKEN_BYTES * 4) / 3);

function digest(token: string): string {
  if (token.length !== TOKEN_LENGTH) return hash(token);
  let id = digests.get(token);
  if (id === undefined) {
    if (digests.size >= DIGESTS_MAX) digests.clear();
    digests.set(token, (id = hash(token)));
  }
  return id;
}

/** The stored id of a session token (its SHA-256): what the realtime socket names a session's room by. */
export const sessionIdOf = digest;

/** Sessions that ended: one (signed out) or all of a user's (disabled, replaced, new password). */
export type EndedSessions = { sessionId: string } | { userId: string };
type EndedListener = (ended: EndedSessions) => void | Promise<void>;
const endedListeners = new Set<EndedListener>();

/**
 * Told after sessions are deleted, so what holds them beyond this cache lets go: the realtime socket
 * drops their sockets, the cluster tells the other nodes to forget them (src/server/cluster). Process-wide
 * like the cache itself. Answers the unsubscribe.
 */
export function onSessionsEnded(listener: EndedListener): () => void {
  endedListeners.add(listener);
  return () => endedListeners.delete(listener);
}

/** Drops cached lookups of ended sessions on this node (what another node's `endSession(sOf)` asks). */
export function forgetSessions(ended: EndedSessions) {
  if ('sessionId' in ended) recent.delete(ended.sessionId);
  else for (const [id, hit] of recent) if (hit.user?.id === ended.userId) recent.delete(id);
}

/** Drops every cached lookup (this node may have missed sessions ended elsewhere). */
export function forgetAllSessions() {
  recent.clear();
}

async function tellEnded(ended: EndedSessions) {
  // A listener's failure (Redis away) must not fail the sign-out or the account change that ended them.
  await Promise.all([...endedListeners].map(async (listener) => {
    try {
      await listener(ended);
    } catch (error) {
      console.error(error);
    }
  }));
}

export async function createSession(db: Db, userId: string): Promise<{ token: string; expires: Date }> {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  const expires = new Date(Date.now() + SESSION_DAYS * 86_400_000);
  await db
    .insertInto('sessions')
    .values({ id: digest(token), userId, expiresAt: expires.toISOString(), createdAt: new Date().toISOString() })
    .execute();
  return { token, expires };
}

/**
 * Sessions looked up in the last few seconds, so a busy admin's requests do not each cost two queries.
 * Signing out here drops the entry at once; on other server nodes (shared PostgreSQL) a signed-out
 * session is dropped when Redis tells them (src/server/cluster), and a changed role is honoured within CACHE_MS.
 */
const CACHE_MS = 5_000;
const CACHE_MAX = 10_000;
/** `until`: the sooner of the entry's end and the session's own, so a hit needs one comparison. */
const recent = new Map<string, { user: Row | undefined; until: number }>();

/**
 * The user a session token belongs to, when that is known without the database: no token (no user),
 * or a lookup of the last few seconds still fresh. Undefined when the database must be asked. Lets
 * the per-request hook answer most requests without a promise.
 */
export function knownUserOfSession(token: string | undefined): { user: Row | undefined } | undefined {
  if (!token) return { user: undefined };
  const hit = recent.get(digest(token));
  return hit && hit.until > Date.now() ? hit : undefined;
}

/** The user a session token belongs to, or undefined when it is unknown or expired. */
export async function userOfSession(db: Db, token: string | undefined): Promise<Row | undefined> {
  const known = knownUserOfSession(token);
  if (known) return known.user;
  const id = digest(token!);
  const now = Date.now();
  const session = await db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!session) return undefined;
  if (String(session.expiresAt) < new Date().toISOString()) {
    await db.deleteFrom('sessions').where('id', '=', session.id).execute();
    return undefined;
  }
  const user = await db.selectFrom('users').selectAll().where('id', '=', session.userId).executeTakeFirst();
  if (recent.size >= CACHE_MAX) recent.clear();
  // An expiry that does not parse (NaN) keeps nothing: the next request asks the database again.
  recent.set(id, { user, until: Math.min(now + CACHE_MS, Date.parse(String(session.expiresAt))) });
  return user;
}

export async function endSession(db: Db, token: string | undefined) {
  if (!token) return;
  const sessionId = digest(token);
  forgetSessions({ sessionId });
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
  await tellEnded({ sessionId });
}

/**
 * Ends every session of a user at once (an account replaced, disabled or given a new password): its
 * next request answers 401. The cache is dropped too, so this node forgets them now; other nodes are told
 * (with REDIS_URL) before this answers, else hold a cached session at most CACHE_MS. Their sockets close.
 */
export async function endSessionsOf(db: Db, userId: string) {
  forgetSessions({ userId });
  await db.deleteFrom('sessions').where('userId', '=', userId).execute();
  await tellEnded({ userId });
}
