/**
 * The bell's calls (spec §7), each read from its manifest declaration (resources/notifications.ts):
 * a page of the signed-in user's notifications, mark one read, mark all read.
 */
import { fillPath, parseCall, urlOf, type Call } from '../../../manifest/index.ts';
import { notifications } from '../../../../resources/notifications.ts';
import { httpClient } from '../../../client/providers/http.ts';
import { NOTIFICATIONS, type NotificationWire } from '../contract.ts';
import type { NotificationPage } from './list-state.ts';

const ops = notifications.operations;
const urlOfCall = (call: Call, values: Record<string, unknown> = {}) => urlOf(fillPath(parseCall(call).path, values));

/**
 * Reads a list answer. §7: the list "reads data or notifications, and stats.unreadCount or
 * unreadCount"; anything else is a failure (the cached list is shown instead).
 */
export function readPage(json: unknown): NotificationPage {
  const body = (json ?? {}) as { data?: unknown; notifications?: unknown; stats?: { unreadCount?: unknown }; unreadCount?: unknown };
  const data = Array.isArray(body.data) ? body.data : body.notifications;
  const unreadCount = typeof body.stats?.unreadCount === 'number' ? body.stats.unreadCount : body.unreadCount;
  if (!Array.isArray(data) || typeof unreadCount !== 'number') throw new Error('Unexpected notifications answer');
  return { data: data as NotificationWire[], unreadCount };
}

/** Page `page` (1-based) of the user's notifications, `NOTIFICATIONS.pageSize` at a time. */
export async function fetchNotificationPage(page: number, signal?: AbortSignal): Promise<NotificationPage> {
  const query = new URLSearchParams({ page: String(page), limit: String(NOTIFICATIONS.pageSize) });
  const { json } = await httpClient(`${urlOfCall(ops.mine.call)}?${query}`, { signal });
  return readPage(json);
}

export async function markNotificationRead(id: string): Promise<void> {
  await httpClient(urlOfCall(ops.markRead.call, { id }), { method: 'POST' });
}

export async function markAllNotificationsRead(): Promise<void> {
  await httpClient(urlOfCall(ops.markAllRead.call), { method: 'POST' });
}
