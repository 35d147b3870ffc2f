/**
 * The bell's list, as pure functions: pages read from the server, notifications that arrived on the
 * socket since, and what this tab marked read, merged into one list newest first.
 */
import { NOTIFICATIONS, type NotificationWire } from '../contract.ts';

/** One page of `GET /api/notifications/enhanced`, as the client keeps it. */
export interface NotificationPage {
  data: NotificationWire[];
  unreadCount: number;
}

/**
 * The page to read after `pages` (1-based), or undefined when there is none: spec §9, more pages exist
 * only if a page returned exactly the page size.
 */
export function nextPageAfter(pages: readonly NotificationPage[]): number | undefined {
  const last = pages[pages.length - 1];
  return last && last.data.length === NOTIFICATIONS.pageSize ? pages.length + 1 : undefined;
}

const desc = (a: string, b: string) => (a === b ? 0 : a < b ? 1 : -1);
// Ids begin with their creation time (resources/notifications.ts): they order two of the same instant.
const newestFirst = (a: NotificationWire, b: NotificationWire) => desc(a.createdAt, b.createdAt) || desc(a.id, b.id);

/** What the tab learned since the pages were read: arrivals (newest first) and the ids it marked read. */
export interface LocalChanges {
  arrived: readonly NotificationWire[];
  readIds: ReadonlySet<string>;
}

/** The list shown: arrivals and pages, each id once (its newest state), newest first, local reads applied. */
export function mergeList(pages: readonly NotificationPage[], local: LocalChanges): NotificationWire[] {
  const byId = new Map<string, NotificationWire>();
  // Pages first: a page read after an arrival holds the newer state of the same notification.
  for (const n of [...pages.flatMap((p) => p.data), ...local.arrived]) if (!byId.has(n.id)) byId.set(n.id, n);
  return [...byId.values()].map((n) => (!n.isRead && local.readIds.has(n.id) ? { ...n, isRead: true } : n)).sort(newestFirst);
}
