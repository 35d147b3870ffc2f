/**
 * What the server, the realtime socket, Web Push and the bell agree on: the notification's wire shape,
 * the socket's path, events and rooms, and the spec's constants (§9). Declared once here; the server
 * (features/notifications/server, server/realtime, features/push) and the client read them from here.
 */

import { NOTIFICATION_TYPES } from '../../manifest/types.ts';

/** The tones a notification is shown in (its `type`): declared by the manifest's notify. */
export { NOTIFICATION_TYPES };

/** Spec §3: a notification as it travels (REST answers and the socket's `notification` event). */
export interface NotificationWire {
  id: string;
  title: string;
  message: string;
  /** The toast tone it is shown with. */
  type: (typeof NOTIFICATION_TYPES)[number];
  isRead: boolean;
  userId: string;
  /** `category` groups notifications (commission, documents, account, …); other keys are the event's. */
  metadata: { category?: string; [key: string]: unknown };
  createdAt: string;
}

/** Spec §7: the realtime socket lives at this path on the app's port. */
export const SOCKET_PATH = '/api/socket';

/** Spec §7: the events the client emits and receives. */
export const SOCKET_EVENTS = {
  /** client → server: the user is present (the tab is visible). */
  online: 'user:online',
  /** client → server: the user left (the tab is hidden or closing). */
  offline: 'user:offline',
  /** client → server: join a room; only the caller's own user room is allowed (ack `JoinAnswer`). */
  join: 'join',
  /** server → client: one new notification (`NotificationWire`). */
  notification: 'notification',
  /** server → client: the unread count changed (`UnreadAnswer`). */
  unread: 'unread_notifications',
} as const;

/** The room of one user's sockets: every socket of a signed-in user is put in it on connect. */
export const userRoom = (userId: string) => `user:${userId}`;

/** The room of every socket of a role's accounts: a notification to the role is emitted to it once. */
export const roleRoom = (role: string) => `role:${role}`;

/**
 * Who a notification to everyone of a role is to, in its `userId`: stored once for the whole role
 * (each person's read state apart), so telling a thousand admins costs what telling one does. Never an
 * account's id (ids are 24 hex characters). In a person's own list it is answered with their id.
 */
export const roleAudience = (role: string) => `role:${role}`;

/** The role a notification's `userId` names everyone of, or undefined when it names one person. */
export const audienceRole = (userId: string): string | undefined => (userId.startsWith('role:') ? userId.slice('role:'.length) : undefined);

/** What the server answers a `join` (as the emit's acknowledgement). */
export interface JoinAnswer {
  ok: boolean;
  message?: string;
}

/** The payload of `unread_notifications`. */
export interface UnreadAnswer {
  unreadCount: number;
}

/** Spec §7: a socket message larger than this closes that socket. */
export const SOCKET_MAX_MESSAGE_BYTES = 1_000_000;

/** Spec §9: the notifications' constants. */
export const NOTIFICATIONS = {
  /** A page of `GET /api/notifications/enhanced`; a page shorter than this is the last. */
  pageSize: 20,
  /** At most this many notifications are kept in the browser. */
  cacheLimit: 50,
  /** Notifications arriving on the socket are shown as a toast this long after the last one arrived. */
  toastDebounceMs: 300,
} as const;

/** Spec §9: the push opt-in banner's constants. */
export const PUSH_BANNER = {
  delayMs: 5_000,
  dismissedForMs: 24 * 60 * 60 * 1000,
} as const;
