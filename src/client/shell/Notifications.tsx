/**
 * react-admin's own notifications (login errors, access denied, list failures) shown as our toasts,
 * so there is one toast area and only one toast at a time (spec §9).
 */
import { useEffect } from 'react';
import { useNotificationContext, useTranslate } from 'react-admin';
import { useToast, type ToastSeverity } from './toast.tsx';

export function ToastNotifications() {
  const { notifications, takeNotification } = useNotificationContext();
  const translate = useTranslate();
  const toast = useToast();

  useEffect(() => {
    // One per run: `takeNotification` answers from this render's queue, so calling it again here
    // would return the same one. The queue shrinks, the effect runs again, the next one replaces it.
    const taken = notifications.length ? takeNotification() : undefined;
    if (!taken) return;
    const { message, type, notificationOptions } = taken;
    const text =
      typeof message === 'string' ? translate(message, { _: message, ...notificationOptions?.messageArgs }) : String(message);
    toast({ title: text, severity: (type ?? 'info') as ToastSeverity });
  }, [notifications, takeNotification, translate, toast]);

  return null;
}
