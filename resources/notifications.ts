/**
 * In-app notifications (spec §3 Notification: id, title, message, type, isRead, userId, metadata.category;
 * §4 "unread becomes read, singly or all at once"; §7 the admin's `/notifications` calls and the user's
 * `/api/notifications/enhanced` calls). A notification belongs to the user it was sent to: every
 * signed-in role reads and marks its own through the enhanced calls, and an admin reads all of them
 * (and may mark one read) under the admin base.
 *
 * The system sends them: a dialog or operation declares `notify` (src/manifest/types.ts `NotifyDef`)
 * and the routes send it after the call succeeded; code calls `notify` (src/features/notifications/server).
 * Delivery (the socket, Web Push) listens to `app.notifications`. The wire shape is NotificationWire
 * (src/features/notifications/contract.ts): `metadata` there is an object holding `category`.
 *
 * Storage: `category` is a column of its own (the user's `filters` and the bell filter by it, from an
 * index); `metadata` keeps the rest of the metadata as JSON text (what event, which record), as the
 * audit log keeps its changes. The admin's generic reads answer the two as stored.
 */
import { z } from 'zod';
import { defineResource, dialog, field, operation, read, rules, ROLES, type OwnerReach, type Role } from '../src/manifest/index.ts';
import { NOTIFICATION_TYPES } from '../src/features/notifications/contract.ts';
import { users } from './people.ts';

/** The notifications' table, and the one of each person's reads of a notification to their role. */
export const NOTIFICATIONS_TABLE = 'notifications';
export const NOTIFICATION_READS = 'notificationReads';

/** The longest message a notification may carry (a reject reason is quoted in it). */
export const MAX_NOTIFICATION_MESSAGE = 2000;
/** The longest metadata JSON kept. */
export const MAX_NOTIFICATION_METADATA = 2000;

/** The rules of what a notification holds: its fields' rules and the create call's body share them. */
export const notificationRules = {
  title: rules.text(1, 'Title is required!'),
  message: rules.text(1, 'Message is required!', { length: MAX_NOTIFICATION_MESSAGE, message: `Message must be at most ${MAX_NOTIFICATION_MESSAGE} characters.` }),
  type: z.enum(NOTIFICATION_TYPES, { error: `Type must be one of ${NOTIFICATION_TYPES.join(', ')}.` }),
  userId: rules.hex24('User is required!'),
  category: z.string().trim().min(1, 'Category is required!').max(50, 'Category must be at most 50 characters.'),
  isRead: z.boolean({ error: 'isRead must be true or false.' }),
  toRole: z.enum(ROLES, { error: 'Role must be one of the roles offered.' }),
};

/** Told when an admin's message names both a person and a role, or neither (`sendNotificationModal`). */
export const AUDIENCE_MESSAGE = 'Choose a user or a role, not both.';
/** The category an admin's own message is filed under (the bell groups and filters by it). */
export const MESSAGE_CATEGORY = 'message';

/** `POST /api/notifications/enhanced` (admins): one notification to one user. Strict: nothing else is taken. */
export const createNotificationBody = z.strictObject({
  title: notificationRules.title,
  message: notificationRules.message,
  type: notificationRules.type,
  userId: notificationRules.userId,
  metadata: z.strictObject({ category: notificationRules.category.optional() }).optional(),
});

/** Every role reaches its own notifications (through the enhanced calls); an admin reaches all. */
const reach = Object.fromEntries(ROLES.map((role) => [role, role === 'admin' ? 'all' : 'own'])) as Record<Role, OwnerReach>;

export const notifications = defineResource({
  name: NOTIFICATIONS_TABLE,
  label: 'Notification',
  plural: 'Notifications',
  title: 'title',
  access: { read: ['admin'], write: ['admin'], owner: { field: 'userId', roles: reach } },
  menu: { group: 'Settings', icon: 'Campaign' },
  // No kept record beside each: a person's bell reads its rows (handlers.ts), never a kept text; only the
  // admin's Notifications screen would, and each create of a product would pay a second row for it.
  keptRecords: false,
  fields: [
    field.text('title', { rule: notificationRules.title, list: true, searchable: true }),
    field.textarea('message', { rule: notificationRules.message, maxLength: MAX_NOTIFICATION_MESSAGE }),
    field.select('type', NOTIFICATION_TYPES, {
      rule: notificationRules.type,
      list: true,
      choices: [
        { value: 'info', label: 'Info', tone: 'info' },
        { value: 'success', label: 'Success', tone: 'success' },
        { value: 'warning', label: 'Warning', tone: 'default' },
        { value: 'error', label: 'Error', tone: 'default' },
      ],
    }),
    field.boolean('isRead', { label: 'Read', rule: notificationRules.isRead, list: true, filterable: true, createdWith: false }),
    field.reference('userId', 'users', { label: 'User', rule: notificationRules.userId, list: true }),
    field.text('category', { rule: notificationRules.category, list: true, filterable: true }),
    // Set on each notification an admin sent to everyone of a role; the words of the roles are the accounts'.
    field.select('toRole', ROLES, {
      label: 'To role',
      // Not a filter: each filter is an index every notification written keeps up.
      filterable: false,
      rule: notificationRules.toRole,
      choices: users.fields.find((f) => f.name === 'role')?.choices,
    }),
    // JSON text of the metadata besides `category` (the event's resource and record), shown as a link to that record.
    field.textarea('metadata', { label: 'Link', maxLength: MAX_NOTIFICATION_METADATA, display: 'recordLink', emptyShownAs: 'None' }),
    // A notification to everyone of a role (`userId` is `role:<role>`: contract.ts `roleAudience`): the
    // one who caused it, who is not told of its own act. Each person's read state is a `notificationReads` row.
    field.text('exceptUserId', { maxLength: 64 }),
  ],
  // Newest first: ids begin with their creation time.
  sort: { field: 'id', order: 'DESC' },
  reads: {
    // Spec §7: `GET /notifications/?type`.
    list: read.list('GET /notifications/', { scope: { field: 'type', param: 'type' } }),
    one: read.one('GET /notifications/{id}'),
  },
  dialogs: {
    // Spec §7 `PATCH /notifications/{id}` (isRead): an action, so the user's unread count is told at once.
    updateNotification: dialog.action({
      title: 'Notification',
      pick: ['isRead'],
      call: 'PATCH /notifications/{id}',
      handler: 'updateNotification',
      success: 'Notification updated successfully.',
      failure: 'Unable to update notification!',
    }),
    // What it says, where it leads and when it was sent (issue 51 §5).
    notificationDetails: dialog.details({ show: ['title', 'message', 'metadata', 'createdAt', 'type', 'isRead', 'userId', 'toRole', 'category'] }),
    // Ours: an admin's message to one person or to everyone of a role, from the Notifications screen's
    // toolbar. Sent through `notify`, so it is stored, audited and delivered live like any other.
    sendNotificationModal: dialog.action({
      title: 'Send notification',
      pick: ['userId', 'toRole', 'title', 'message', 'type'],
      optional: ['userId', 'toRole', 'type'],
      call: 'POST /notifications/send',
      handler: 'sendNotificationTo',
      access: ['admin'],
      success: 'Notification sent.',
      failure: 'Unable to send notification!',
    }),
  },
  operations: {
    // Spec §7 "In-app and push notifications": the signed-in user's own, whatever its role.
    mine: operation('GET /api/notifications/enhanced', 'listMyNotifications', { access: 'signedIn' }),
    stats: operation('GET /api/notifications/enhanced/stats', 'myNotificationStats', { access: 'signedIn' }),
    markRead: operation('POST /api/notifications/enhanced/{id}/read', 'markNotificationRead', { access: 'signedIn' }),
    markAllRead: operation('POST /api/notifications/enhanced/mark-all-read', 'markAllNotificationsRead', { access: 'signedIn' }),
    // Admins (and the system, through `notify`) send them.
    send: operation('POST /api/notifications/enhanced', 'sendNotification', { access: ['admin'], body: createNotificationBody }),
  },
});

/**
 * Who has read a notification sent to everyone of a role (notify.ts `broadcast`): one row per person
 * and notification, made when that person reads it, keyed `<notificationId>:<userId>` so a second read is
 * the same row. Internal: the enhanced calls read and write it; no route of its own.
 */
export const notificationReads = defineResource({
  name: NOTIFICATION_READS,
  label: 'Notification read',
  plural: 'Notification reads',
  title: 'notificationId',
  access: { read: [], write: [] },
  fields: [field.text('notificationId', { maxLength: 64 }), field.text('userId', { maxLength: 64 })],
});
