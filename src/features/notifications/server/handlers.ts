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
import { VERSION } from '../../../server/records/index.ts';
import { NOTIFICATIONS, NOTIFICATION_TYPES } from '../contract.ts';
import { notificationRules, type createNotificationBody } from '../../../../resources/notifications.ts';
import { NOTIFICATIONS_TABLE, notify, toWire, unread, unreadChanged, unreadCount } from './notify.ts';

/** The most notifications one page may ask for. */
export const MAX_PAGE_LIMIT = 100;
/** The farthest page asked for: far beyond any user's notifications, short of an offset that costs. */
export const MAX_PAGE = 10_000;

const PAGE_MESSAGE = `page must be a whole number from 1 to ${MAX_PAGE}.`;
const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${MAX_PAGE_LIMIT}.`;
const FILTERS_MESSAGE = 'filters must be a JSON object with isRead, type or category.';

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
  const userId = me(context);
  let query = context.db.selectFrom(NOTIFICATIONS_TABLE).selectAll().where('userId', '=', userId);
  if (wanted.isRead === true) query = query.where('isRead', '=', 1);
  if (wanted.isRead === false) query = query.where(unread);
  if (wanted.type) query = query.where('type', '=', wanted.type);
  if (wanted.category) query = query.where('category', '=', wanted.category);
  const [rows, count] = await Promise.all([
    query.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit).offset((page - 1) * limit).execute(),
    unreadCount(context.db, userId),
  ]);
  // Spec §7 reads `data` or `notifications`, and `stats.unreadCount` or `unreadCount`: both counts are
  // answered (a number); the list once, as `data`. A page shorter than `limit` is the last (spec §9).
  return { data: rows.map(toWire), stats: { unreadCount: count }, unreadCount: count, page, limit };
};

export const myNotificationStats: Handler = async (context) => {
  const userId = me(context);
  const [count, total] = await Promise.all([
    unreadCount(context.db, userId),
    context.db
      .selectFrom(NOTIFICATIONS_TABLE)
      .select((eb) => eb.fn.countAll().as('n'))
      .where('userId', '=', userId)
      .executeTakeFirstOrThrow(),
  ]);
  return { unreadCount: count, total: Number(total.n) };
};

/** `POST /api/notifications/enhanced/{id}/read`: one of the caller's own becomes read (another's: 404). */
export const markNotificationRead: Handler = async (context) => {
  const { db, records, resource, request, params } = context;
  const userId = me(context);
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
  const changed = await records.operation([NOTIFICATIONS_TABLE], async (trx, audit) => {
    // What this statement changed, exactly: a concurrent mark of the same rows is not counted twice.
    const rows = await trx
      .updateTable(NOTIFICATIONS_TABLE)
      .set((eb) => ({ isRead: 1, updatedAt: now, [VERSION]: eb(VERSION, '+', 1) }))
      .where('userId', '=', userId)
      .where(unread)
      .returning('id')
      .execute();
    for (const { id } of rows) await audit({ resource, recordId: String(id), action: 'update', before: { isRead: false }, after: { isRead: true } });
    return rows.length;
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
  const row = await records.update(resource, params.id, { isRead: body.isRead }, { ifMatch });
  if (typeof row.userId === 'string') await unreadChanged(request.server, db, row.userId);
  return row;
};
