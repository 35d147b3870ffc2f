/**
 * Whose a notification is. Most are one person's (`userId` their id). One to everyone of a role (a new
 * product's commission to review, told to every admin) is stored once, `userId` `role:<role>`
 * (contract.ts `roleAudience`), and each person's read state is a `notificationReads` row made when
 * they read it: telling a thousand admins is one row written and one socket emit to the role's room,
 * as telling one is (issue 54: a create that made a notification, an audit row and an emit per admin
 * in its request ran at 2–3 a second with 180 admins).
 *
 * A person sees, as their own: theirs, and their role's made since their account was (a new admin is
 * not handed last year's reviews), except those they caused themselves. Every read of a person's
 * notifications (their list, counts, marks) goes through `visibleTo` and `readBy` here.
 */
import { sql, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { VERSION, type Db, type Row } from '../../../server/records/index.ts';
import { audienceRole, roleAudience, type NotificationWire } from '../contract.ts';

import { NOTIFICATION_READS, NOTIFICATIONS_TABLE } from '../../../../resources/notifications.ts';

export { NOTIFICATION_READS, NOTIFICATIONS_TABLE };

/** What deciding whose a notification is reads of a person: their account's id, role and age. */
export interface Person {
  id: string;
  role: string;
  /** When the account was made (ISO text): their role's notifications from before are not theirs. */
  createdAt?: string | null;
}

/** The person of an account row (a request's `user`). */
export const personOf = (user: Row): Person => ({ id: String(user.id), role: String(user.role ?? ''), createdAt: user.createdAt ? String(user.createdAt) : null });

/** The person of `userId`, read from the accounts (undefined when the account is gone). */
export async function findPerson(db: Db | Kysely<any>, userId: string): Promise<Person | undefined> {
  const row = await db.selectFrom('users').select(['id', 'role', 'createdAt']).where('id', '=', userId).executeTakeFirst();
  return row ? personOf(row as Row) : undefined;
}

/** The key of a person's read of a notification to their role (`notificationReads.id`). */
export const readKey = (notificationId: string, userId: string) => `${notificationId}:${userId}`;

/** Unread, as stored on a person's own rows: 0 (a row written before `createdWith` existed may hold null). */
const unreadOwn = sql<SqlBool>`(${sql.ref(`${NOTIFICATIONS_TABLE}.isRead`)} = 0 or ${sql.ref(`${NOTIFICATIONS_TABLE}.isRead`)} is null)`;

/** True where the person has read a notification to their role. */
const readOfRole = (p: Person | PersonById): RawBuilder<SqlBool> =>
  sql<SqlBool>`exists (select 1 from ${sql.table(NOTIFICATION_READS)} where ${sql.ref(`${NOTIFICATION_READS}.id`)} = ${sql.ref(`${NOTIFICATIONS_TABLE}.id`)} || ${`:${p.id}`})`;

/**
 * A person known by their account's id alone: the statement that needs their role and age reads them
 * from the accounts itself, so counting what they have unread after a notification is stored is one
 * round trip on the way to their socket, not two (issue 54, live delivery). An account that is gone has
 * no role: only rows to its id would count.
 */
export interface PersonById {
  id: string;
  byId: true;
}

/** The account's column `column` of `p`, read in the statement. */
const accountColumn = (p: PersonById, column: string) => sql`(select ${sql.ref(`users.${column}`)} from ${sql.table('users')} where ${sql.ref('users.id')} = ${p.id})`;

/** The notifications `p` sees as theirs (read from the `userId` index: their id and their role's audience). */
export function visibleTo(eb: ExpressionBuilder<any, any>, p: Person | PersonById) {
  const byId = 'byId' in p;
  const toRole = [
    eb(`${NOTIFICATIONS_TABLE}.userId`, '=', byId ? sql<string>`(${roleAudience('')} || ${accountColumn(p, 'role')})` : roleAudience(p.role)),
    eb.or([eb(`${NOTIFICATIONS_TABLE}.exceptUserId`, 'is', null), eb(`${NOTIFICATIONS_TABLE}.exceptUserId`, '!=', p.id)]),
  ];
  // An account without a creation time sees its role's every notification (no bound).
  if (byId) toRole.push(eb(`${NOTIFICATIONS_TABLE}.createdAt`, '>=', sql<string>`coalesce(${accountColumn(p, 'createdAt')}, '')`));
  else if (p.createdAt) toRole.push(eb(`${NOTIFICATIONS_TABLE}.createdAt`, '>=', p.createdAt));
  return eb.or([eb(`${NOTIFICATIONS_TABLE}.userId`, '=', p.id), eb.and(toRole)]);
}

/** Whether `p` has read a notification they see: their own row's flag, or their read of their role's. */
export const readBy = (p: Person): RawBuilder<SqlBool> =>
  sql<SqlBool>`(case when ${sql.ref(`${NOTIFICATIONS_TABLE}.userId`)} = ${p.id} then not ${unreadOwn} else ${readOfRole(p)} end)`;

/** The unread among what `p` sees. */
export const unreadBy = (p: Person | PersonById): RawBuilder<SqlBool> =>
  sql<SqlBool>`(case when ${sql.ref(`${NOTIFICATIONS_TABLE}.userId`)} = ${p.id} then ${unreadOwn} else not ${readOfRole(p)} end)`;

/** How many of what `p` sees are unread. */
export async function unreadCountOf(db: Db | Kysely<any>, p: Person | PersonById): Promise<number> {
  const row = await db
    .selectFrom(NOTIFICATIONS_TABLE)
    .select((eb) => eb.fn.countAll().as('n'))
    .where((eb) => visibleTo(eb, p))
    .where(unreadBy(p))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A row `p` sees, as it travels to them: theirs (`userId` their id), read or not as they have. */
export function asTheirs(wire: NotificationWire, p: Person, read: unknown): NotificationWire {
  if (!audienceRole(wire.userId)) return wire;
  return { ...wire, userId: p.id, isRead: read === true || read === 1 || read === '1' || read === 't' };
}

/** `p` has read the notification to their role `notificationId` (a second read changes nothing). */
export async function markRoleRead(db: Db | Kysely<any>, p: Person, notificationId: string): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto(NOTIFICATION_READS)
    .values({ id: readKey(notificationId, p.id), notificationId, userId: p.id, createdAt: now, updatedAt: now, [VERSION]: 1 })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** `p` has read every notification to their role they see: answers how many were unread. */
export async function markAllRoleRead(db: Db | Kysely<any>, p: Person): Promise<number> {
  const now = new Date().toISOString();
  const unread = await db
    .selectFrom(NOTIFICATIONS_TABLE)
    .select(`${NOTIFICATIONS_TABLE}.id`)
    .where((eb) => visibleTo(eb, p))
    .where(`${NOTIFICATIONS_TABLE}.userId`, '=', roleAudience(p.role))
    .where(sql<SqlBool>`not ${readOfRole(p)}`)
    .execute();
  const rows = (unread as Row[]).map((r) => ({ id: readKey(String(r.id), p.id), notificationId: String(r.id), userId: p.id, createdAt: now, updatedAt: now, [VERSION]: 1 }));
  for (let i = 0; i < rows.length; i += 500)
    await db.insertInto(NOTIFICATION_READS).values(rows.slice(i, i + 500)).onConflict((oc) => oc.column('id').doNothing()).execute();
  return rows.length;
}
