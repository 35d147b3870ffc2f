/**
 * The notifications' server side. Importing it registers the handlers resources/notifications.ts names
 * (src/server/app.ts imports it before the manifest's routes are made).
 */
import type { Handlers } from '../../../server/routes/handlers.ts';
import {
  listMyNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  myNotificationStats,
  sendNotification,
  updateNotification,
} from './handlers.ts';
import { sendNotificationTo } from './send.ts';

export const notificationsHandlers = {
  listMyNotifications,
  myNotificationStats,
  markNotificationRead,
  markAllNotificationsRead,
  sendNotification,
  sendNotificationTo,
  updateNotification,
} satisfies Handlers;

export { notify, deliver, storeNotifications, unreadCount, unreadChanged, toWire, type NotifyInput, type NotifyTarget } from './notify.ts';
