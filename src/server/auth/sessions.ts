/**
 * Server-side sessions. The cookie holds a random token; the table holds only its SHA-256, so a copy
 * of the database cannot be replayed as cookies. Signing out deletes the row.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db, Row } from '../db/repository.ts';

export const SESSION_COOKIE = 'sid';
export const SESSION_DAYS = 7;

const digest = (token: string) => createHash('sha256').update(token).digest('base64url');

export async function createSession(db: Db, userId: string): Promise<{ token: string; expires: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expires = new Date(Date.now() + SESSION_DAYS * 86_400_000);
  await db
    .insertInto('sessions')
    .values({ id: digest(token), userId, expiresAt: expires.toISOString(), createdAt: new Date().toISOString() })
    .execute();
  return { token, expires };
}

/** The user a session token belongs to, or undefined when it is unknown or expired. */
export async function userOfSession(db: Db, token: string | undefined): Promise<Row | undefined> {
  if (!token) return undefined;
  const session = await db.selectFrom('sessions').selectAll().where('id', '=', digest(token)).executeTakeFirst();
  if (!session) return undefined;
  if (String(session.expiresAt) < new Date().toISOString()) {
    await db.deleteFrom('sessions').where('id', '=', session.id).execute();
    return undefined;
  }
  return db.selectFrom('users').selectAll().where('id', '=', session.userId).executeTakeFirst();
}

export async function endSession(db: Db, token: string | undefined) {
  if (token) await db.deleteFrom('sessions').where('id', '=', digest(token)).execute();
}
