/**
 * Notifications arriving on the socket are told by a toast, debounced (spec §9: 300 ms): the toast
 * shows once none has arrived for that long. One arrival is shown as itself (its title, message and
 * tone); several are summed up in one toast ("3 new notifications", the newest's title below), so a
 * burst never flickers through toasts nobody can read (and one toast at a time holds, §9).
 */
import { NOTIFICATIONS, type NotificationWire } from '../contract.ts';
import type { Toast } from '../../../client/shell/toast.tsx';

/** The toast that tells `arrived` (oldest first). */
export function arrivalToast(arrived: readonly NotificationWire[]): Toast {
  const newest = arrived[arrived.length - 1];
  if (arrived.length === 1) return { title: newest.title, description: newest.message, severity: newest.type };
  return { title: `${arrived.length} new notifications`, description: `Latest: ${newest.title}`, severity: 'info' };
}

export interface ArrivalToasts {
  /** One more arrival: the toast waits until the burst is over. */
  add(notification: NotificationWire): void;
  /** Drops what is waiting (the bell goes away). */
  cancel(): void;
}

export function debounceArrivalToasts(show: (toast: Toast) => void, delayMs: number = NOTIFICATIONS.toastDebounceMs): ArrivalToasts {
  let waiting: NotificationWire[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    add(notification) {
      waiting.push(notification);
      clearTimeout(timer);
      timer = setTimeout(() => {
        const burst = waiting;
        waiting = [];
        show(arrivalToast(burst));
      }, delayMs);
    },
    cancel() {
      clearTimeout(timer);
      waiting = [];
    },
  };
}
