/**
 * The handlers resources/notifications.ts names: the signed-in user's own notifications (spec §7
 * `/api/notifications/enhanced…`: a page, the stats, one read, all read), an admin's create, and the
 * admin's `PATCH /notifications/{id}` (isRead). Whatever the role, the enhanced calls reach the
 * caller's own notifications only: another's is answered 404, as one that does not exist.
 */
import { z } from 'zod';
import { issuesByField } from '../../../manifest/index.ts';
import type { Handler, HandlerContext } from '../../../server/routes/handlers.ts';
import { actorOf } from '../../../server/records/audit.ts';
import type { Reach } from '../../../server/records/ownership.ts';
import { badRequest, HttpError } from '../../../server/errors.ts';
import { VERSION, type Row } from '../../../server/records/index.ts';
import { audienceRole, NOTIFICATIONS, NOTIFICATION_TYPES, roleAudience } from '../contract.ts';
import { asTheirs, markAllRoleRead, markRoleRead, NOTIFICATION_READS, personOf, readBy, unreadBy, unreadCountOf, visibleTo, type Person } from './audience.ts';
import { notificationRules, type createNotificationBody } from '../../../../resources/notifications.ts';
import { NOTIFICATIONS_TABLE, notify, toWire, unread, unreadChanged, unreadCount } from './notify.ts';

/** The most notifications one page may ask for. */
export const MAX_PAGE_LIMIT = 100;
/** The farthest page asked for: far beyond any user's notifications, short of an offset that costs. */
export const MAX_PAGE = 10_000;

const PAGE_MESSAGE = `page must be a whole number from 1 to ${MAX_PAGE}.`;
const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${MAX_PAGE_LIMIT}.`;
const FILTERS_MESSAGE = 'filters must be a JSON object with isRead, type or category.';
/** A notification to everyone of a role has a read state per person, marked from each one's bell. */
const ROLE_READ_MESSAGE = 'A notification to a role is marked read by each of its people, from their own notifications.';

/** A whole number sent as query text ('2'); a repeated or empty parameter is refused with `message`. */
const wholeNumber = (min: number, max: number, fallback: number, message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .pipe(z.number().int(message).min(min, message).max(max, message))
    .optional()
    .transform((v) => v ?? fallback);

/** `isRead` as JSON (`true`) or as query text (`'true'`). */
const readFlag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], {
  error: 'isRead must be true or false.',
});

/** What the user's list may be narrowed by: read or not, a type, a category. */
const filterShape = {
  isRead: readFlag.optional(),
  type: z.enum(NOTIFICATION_TYPES, { error: `type must be one of ${NOTIFICATION_TYPES.join(', ')}.` }).optional(),
  category: notificationRules.category.optional(),
};
const filtersSchema = z.strictObject(filterShape);

/**
 * `GET /api/notifications/enhanced?page&limit[&filters]`: `filters` is a JSON object (`{"isRead":false}`);
 * the same keys are also taken as plain parameters (`&isRead=false`). Other parameters are ignored, as
 * every list of the API ignores them (a cache-busting `_=`).
 */
const pageQuery = z.object({
  page: wholeNumber(1, MAX_PAGE, 1, PAGE_MESSAGE),
  limit: wholeNumber(1, MAX_PAGE_LIMIT, NOTIFICATIONS.pageSize, LIMIT_MESSAGE),
  filters: z
    .string({ error: FILTERS_MESSAGE })
    .max(1000, FILTERS_MESSAGE)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: FILTERS_MESSAGE });
        return z.NEVER;
      }
    })
    .pipe(filtersSchema)
    .optional(),
  ...filterShape,
});

type Filters = z.infer<typeof filtersSchema>;

/** The signed-in user's id: every enhanced call has one (its access is `signedIn`). */
function me(context: HandlerContext): string {
  const id = context.request.user?.id;
  if (typeof id !== 'string') throw new HttpError(401, 'Please sign in.');
  return id;
}

/** The reach "own rows only", whatever the role: an admin's bell is its own too. */
const ownReach = (userId: string): Reach => ({ kind: 'own', userId, key: `own:${userId}` });

export const listMyNotifications: Handler = async (context) => {
  const parsed = pageQuery.safeParse(context.query ?? {});
  if (!parsed.success) {
    const errors = issuesByField(parsed.error);
    throw badRequest(Object.values(errors)[0]?.[0] ?? FILTERS_MESSAGE, errors);
  }
  const { page, limit, filters, ...flat } = parsed.data;
  const wanted: Filters = { ...flat, ...filters };
  const person = caller(context);
  // Theirs and their role's (audience.ts), each read or not as this person has.
  let query = context.db
    .selectFrom(NOTIFICATIONS_TABLE)
    .selectAll(NOTIFICATIONS_TABLE)
    .select(readBy(person).as(READ_FOR))
    .where((eb) => visibleTo(eb, person));
  if (wanted.isRead === true) query = query.where(readBy(person));
  if (wanted.isRead === false) query = query.where(unreadBy(person));
  if (wanted.type) query = query.where('type', '=', wanted.type);
  if (wanted.category) query = query.where('category', '=', wanted.category);
  const [rows, count] = await Promise.all([
    query.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit).offset((page - 1) * limit).execute(),
    unreadCountOf(context.db, person),
  ]);
  // Spec §7 reads `data` or `notifications`, and `stats.unreadCount` or `unreadCount`: both counts are
  // answered (a number); the list once, as `data`. A page shorter than `limit` is the last (spec §9).
  const data = (rows as Row[]).map((row) => asTheirs(toWire(row), person, row[READ_FOR]));
  return { data, stats: { unreadCount: count }, unreadCount: count, page, limit };
};

/** The column a person's read state of each row is selected as. */
const READ_FOR = 'readFor';

/** The signed-in person, whose notifications the enhanced calls read. */
function caller(context: HandlerContext): Person {
  me(context);
  return personOf(context.request.user as Row);
}

export const myNotificationStats: Handler = async (context) => {
  const person = caller(context);
  const [count, total] = await Promise.all([
    unreadCountOf(context.db, person),
    context.db
      .selectFrom(NOTIFICATIONS_TABLE)
      .select((eb) => eb.fn.countAll().as('n'))
      .where((eb) => visibleTo(eb, person))
      .executeTakeFirstOrThrow(),
  ]);
  return { unreadCount: count, total: Number(total.n) };
};

/** `POST /api/notifications/enhanced/{id}/read`: one of the caller's own becomes read (another's: 404). */
export const markNotificationRead: Handler = async (context) => {
  const { db, records, resource, request, params } = context;
  const userId = me(context);
  const person = caller(context);
  // One to their role: their read of it is kept apart (everyone else's stays as it was).
  const toRole = await db
    .selectFrom(NOTIFICATIONS_TABLE)
    .selectAll()
    .where('id', '=', String(params.id))
    .where('userId', '=', roleAudience(person.role))
    .where((eb) => visibleTo(eb, person))
    .executeTakeFirst();
  if (toRole) {
    await records.operation([NOTIFICATION_READS], (trx) => markRoleRead(trx, person, String(toRole.id)));
    const count = await unreadChanged(request.server, db, userId);
    return { data: asTheirs(toWire(toRole as Row), person, true), stats: { unreadCount: count }, unreadCount: count };
  }
  const row = await records.update(resource, params.id, { isRead: true }, { reach: ownReach(userId) });
  // Told even when it was read already: the count is what it is, and a second tab may be behind.
  const count = await unreadChanged(request.server, db, userId);
  return { data: toWire(row), stats: { unreadCount: count }, unreadCount: count };
};

/** `POST /api/notifications/enhanced/mark-all-read`: every unread one of the caller's; answers how many changed. */
export const markAllNotificationsRead: Handler = async (context) => {
  const { db, records, resource, request } = context;
  const userId = me(context);
  const now = new Date().toISOString();
  // One statement for all of them (a person may have thousands), audited row by row as the writer.
  const changed = await records.operation([NOTIFICATIONS_TABLE, NOTIFICATION_READS], async (trx, audit) => {
    // What this statement changed, exactly: a concurrent mark of the same rows is not counted twice.
    const rows = await trx
      .updateTable(NOTIFICATIONS_TABLE)
      .set((eb) => ({ isRead: 1, updatedAt: now, [VERSION]: eb(VERSION, '+', 1) }))
      .where('userId', '=', userId)
      .where(unread)
      .returning('id')
      .execute();
    for (const { id } of rows) await audit({ resource, recordId: String(id), action: 'update', before: { isRead: false }, after: { isRead: true } });
    // And every one to their role they had not read (their reads, apart from everyone else's).
    return rows.length + (await markAllRoleRead(trx, caller(context)));
  });
  const left = changed ? await unreadChanged(request.server, db, userId) : await unreadCount(db, userId);
  return { count: changed, stats: { unreadCount: left }, unreadCount: left };
};

/** `POST /api/notifications/enhanced` (admins): one notification to one user, delivered like any other. */
export const sendNotification: Handler = async ({ db, registry, request, reply, body }) => {
  const input = body as z.infer<typeof createNotificationBody>;
  const [sent] = await notify(
    request.server,
    { userId: input.userId, title: input.title, message: input.message, type: input.type, metadata: input.metadata?.category ? { category: input.metadata.category } : {} },
    { db, registry, actor: actorOf(request) },
  );
  reply.code(201);
  return sent;
};

/** `PATCH /notifications/{id}` (admin, isRead): the generic update, then the user's unread count is told. */
export const updateNotification: Handler = async ({ db, records, resource, request, params, body, ifMatch }) => {
  const stored = await db.selectFrom(NOTIFICATIONS_TABLE).select('userId').where('id', '=', String(params.id)).executeTakeFirst();
  if (stored && audienceRole(String(stored.userId ?? ''))) throw badRequest(ROLE_READ_MESSAGE, { isRead: [ROLE_READ_MESSAGE] });
  const row = await records.update(resource, params.id, { isRead: body.isRead }, { ifMatch });
  if (typeof row.userId === 'string') await unreadChanged(request.server, db, row.userId);
  return row;
};
