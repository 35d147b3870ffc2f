/**
 * The notifications kept in the browser (spec §9: at most 50), shown when the list cannot be loaded
 * (§8). One key per user; when a user's session starts every other user's key is removed, so a shared
 * browser never shows (or keeps) the previous person's notifications.
 */
import { NOTIFICATIONS, type NotificationWire } from '../contract.ts';

const PREFIX = 'notifications:';
const keyOf = (userId: string) => `${PREFIX}${userId}`;

/** The user's cached notifications, newest first; an unreadable entry reads as none. */
export function readCache(userId: string, storage: Storage = localStorage): NotificationWire[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(keyOf(userId)) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((n): n is NotificationWire => !!n && typeof n === 'object' && typeof n.id === 'string' && n.userId === userId);
  } catch {
    return [];
  }
}

/** Keeps the first `NOTIFICATIONS.cacheLimit` of `list` (newest first) as the user's cache. */
export function writeCache(userId: string, list: readonly NotificationWire[], storage: Storage = localStorage): void {
  const own = list.filter((n) => n.userId === userId).slice(0, NOTIFICATIONS.cacheLimit);
  try {
    storage.setItem(keyOf(userId), JSON.stringify(own));
  } catch {
    // Storage full or refused (private mode): the cache is a convenience, the list still works.
  }
}

/** Removes every user's cache but `userId`'s. */
export function forgetOtherUsers(userId: string, storage: Storage = localStorage): void {
  const keep = keyOf(userId);
  const stale: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key?.startsWith(PREFIX) && key !== keep) stale.push(key);
  }
  stale.forEach((key) => storage.removeItem(key));
}
