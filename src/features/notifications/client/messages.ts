/** Spec §8 "Notifications and sockets": the bell's failure toasts, word for word. */
export const NOTIFICATION_FAILURES = {
  load: 'Failed to load notifications',
  markOne: 'Failed to mark notification as read',
  markAll: 'Failed to mark all notifications as read',
} as const;
