/**
 * Sending a notification: it is stored (as a record of resources/notifications.ts, through the generic
 * write, so it is versioned and audited like every write), and once its transaction has committed the
 * app's hub (`app.notifications`) is told, with the user's unread count: the socket and Web Push
 * deliver from there. Told only after the commit, so nobody is ever shown a notification that a
 * rolled-back write took back.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Registry } from '../../../manifest/index.ts';
import { MAX_TEXT } from '../../../manifest/rules.ts';
import { MAX_NOTIFICATION_MESSAGE, NOTIFICATIONS_TABLE } from '../../../../resources/notifications.ts';
import { fromStoredBoolean, insertQuery, newId, VERSION, writeBehind, type Db, type Row } from '../../../server/records/index.ts';
import { RecordsService } from '../../../server/records/service.ts';
import type { Actor } from '../../../server/records/audit.ts';
import { roleAudience, type NotificationWire } from '../contract.ts';
import { unreadCountOf } from './audience.ts';

/** The table the notifications live in (resources/notifications.ts). */
export { NOTIFICATIONS_TABLE };

/** What a notification says and to whom. */
export interface NotifyInput {
  userId: string;
  title: string;
  message: string;
  type: NotificationWire['type'];
  /** `category` and whatever else the event wants to carry (the record it is about). */
  metadata?: NotificationWire['metadata'];
  /** The role an admin sent it to, everyone of it (send.ts): kept on the notification. */
  toRole?: string;
}

/** Where a notification is written: the database (or the caller's transaction) and the manifests. */
export interface NotifyTarget {
  db: Db;
  registry: Registry;
  /** Who caused it, for the audit log; the system when absent. */
  actor?: Actor;
}

/** A stored row as it travels (NotificationWire): booleans as booleans, metadata as an object with `category`. */
export function toWire(row: Row): NotificationWire {
  let rest: Record<string, unknown> = {};
  if (typeof row.metadata === 'string' && row.metadata) {
    try {
      const parsed: unknown = JSON.parse(row.metadata);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) rest = parsed as Record<string, unknown>;
    } catch {
      // A damaged metadata text is shown as none rather than failing the whole list.
    }
  }
  return {
    id: String(row.id),
    title: String(row.title ?? ''),
    message: String(row.message ?? ''),
    type: (row.type ?? 'info') as NotificationWire['type'],
    isRead: fromStoredBoolean(row.isRead) ?? false,
    userId: String(row.userId ?? ''),
    metadata: { ...rest, ...(row.category ? { category: String(row.category) } : {}) },
    createdAt: String(row.createdAt ?? ''),
  };
}

/** Unread rows: stored as 0 (a row written before `createdWith` existed may hold null). */
export const unread = sql<boolean>`(${sql.ref('isRead')} = 0 or ${sql.ref('isRead')} is null)`;

/**
 * How many of `userId`'s notifications are unread: their own and their role's (audience.ts), read from
 * the `userId` index, in one statement. An account that is gone has no role: only its own rows count.
 */
export async function unreadCount(db: Db, userId: string): Promise<number> {
  // One statement: the person's role and age are read in it (audience.ts `PersonById`).
  return unreadCountOf(db, { id: userId, byId: true });
}

/**
 * Stores notifications in `db`, which may be the caller's transaction: they commit or roll back with
 * the caller's write. Tell the hub with `deliver` once that transaction has committed.
 */
export async function storeNotifications(target: NotifyTarget, inputs: readonly NotifyInput[]): Promise<NotificationWire[]> {
  const r = target.registry.resource(NOTIFICATIONS_TABLE);
  const stored: NotificationWire[] = [];
  for (const input of inputs) {
    const { category, ...rest } = input.metadata ?? {};
    // The server's own write (no account's reach), as the actor whose event it tells of.
    const row = await new RecordsService({ db: target.db, registry: target.registry, actor: target.actor }).create(
      r,
      {
        userId: input.userId,
        // Filled from records, a text may outgrow the field: cut, never refused (the event has happened).
        title: input.title.slice(0, MAX_TEXT),
        message: input.message.slice(0, MAX_NOTIFICATION_MESSAGE),
        type: input.type,
        isRead: false,
        category: typeof category === 'string' && category ? category : null,
        metadata: Object.keys(rest).length ? JSON.stringify(rest) : null,
        ...(input.toRole ? { toRole: input.toRole } : {}),
      },
    );
    stored.push(toWire(row));
  }
  return stored;
}

/**
 * Tells `app.notifications` of stored (committed) notifications at once, then each user's unread count
 * as it is now (an unread change), and drops the cached reads of the table. Waits for the listeners (see
 * NotificationHub). The notification does not wait for the count: the count's read was a round trip to
 * the database between the commit and the socket (issue 54, live delivery).
 */
export async function deliver(app: FastifyInstance, db: Db, stored: readonly NotificationWire[]): Promise<void> {
  if (!stored.length) return;
  app.readCache?.invalidate(NOTIFICATIONS_TABLE);
  await Promise.all(stored.map((notification) => app.notifications.emitCreated(notification)));
  for (const userId of new Set(stored.map((n) => n.userId))) await app.notifications.emitUnreadChanged(userId, await unreadCount(db, userId));
}

/**
 * Sends notifications: stores them and, after the commit, tells the hub. Given a transaction
 * (`target.db.isTransaction`), they are stored in it and the hub is NOT told here: the caller calls
 * `deliver(app, db, answer)` after its commit. Answers the notifications as they travel.
 */
export async function notify(app: FastifyInstance, input: NotifyInput | readonly NotifyInput[], target: NotifyTarget): Promise<NotificationWire[]> {
  const inputs = Array.isArray(input) ? (input as readonly NotifyInput[]) : [input as NotifyInput];
  if (target.db.isTransaction) return storeNotifications(target, inputs);
  const stored = await target.db.transaction().execute((trx) => storeNotifications({ ...target, db: trx }, inputs));
  await deliver(app, target.db, stored);
  return stored;
}

/** Tells the hub that `userId`'s unread count changed (a notification read, all read), and drops cached reads. */
export async function unreadChanged(app: FastifyInstance, db: Db, userId: string): Promise<number> {
  app.readCache?.invalidate(NOTIFICATIONS_TABLE);
  const count = await unreadCount(db, userId);
  await app.notifications.emitUnreadChanged(userId, count);
  return count;
}

/** A notification to everyone of a role (audience.ts): what it says, and who caused it (not told). */
export interface BroadcastInput {
  toRole: string;
  title: string;
  message: string;
  type: NotificationWire['type'];
  metadata?: NotificationWire['metadata'];
  /** The one whose act it tells of. */
  exceptUserId?: string | null;
}

/**
 * Stores a notification to everyone of a role: one row, audited as the actor's, in `target.db` (the
 * caller's transaction, when it is one: then it commits or rolls back with the caller's write). Tell the
 * role with `deliverToRole` once committed. Answers it as it travels (`userId` the role's audience).
 */
export async function storeBroadcast(input: BroadcastInput, target: NotifyTarget): Promise<NotificationWire> {
  const r = target.registry.resource(NOTIFICATIONS_TABLE);
  const { category, ...rest } = input.metadata ?? {};
  const now = new Date().toISOString();
  const row: Row = {
    id: newId(),
    userId: roleAudience(input.toRole),
    title: input.title.slice(0, MAX_TEXT),
    message: input.message.slice(0, MAX_NOTIFICATION_MESSAGE),
    type: input.type,
    isRead: 0,
    category: typeof category === 'string' && category ? category : null,
    metadata: Object.keys(rest).length ? JSON.stringify(rest) : null,
    exceptUserId: input.exceptUserId ?? null,
    toRole: input.toRole,
    createdAt: now,
    updatedAt: now,
    [VERSION]: 1,
  };
  // Not the records service's create: `userId` names a role's audience, no account its reference check finds.
  const service = new RecordsService({ db: target.db, registry: target.registry, actor: target.actor });
  await service.operation([NOTIFICATIONS_TABLE], async (trx, audit) => {
    // Sent with the transaction's next statement on PostgreSQL (its commit, for a create's notification).
    await writeBehind(trx, insertQuery(trx, NOTIFICATIONS_TABLE, row));
    await audit({ resource: r, recordId: String(row.id), action: 'create', after: row });
  });
  return toWire(row);
}

/** Tells a role's sockets of a stored (committed) notification to it, after this turn: the answer waits for none of them. */
export function deliverToRole(app: FastifyInstance, wire: NotificationWire, input: Pick<BroadcastInput, 'toRole' | 'exceptUserId'>): void {
  app.readCache?.invalidate(NOTIFICATIONS_TABLE);
  // The role's room may hold a thousand sockets, each written to (the hub's listeners guard their own failures).
  setImmediate(() => void app.notifications.emitToRole(wire, input.toRole, input.exceptUserId ?? undefined));
}

/**
 * Sends a notification to everyone of a role: one row (audited as the actor's), then, once committed, one
 * emit to the role's room (the hub's `emitToRole`). Its cost is the same for one admin or a thousand.
 * Answers it as it travels (`userId` the role's audience).
 */
export async function broadcast(app: FastifyInstance, input: BroadcastInput, target: NotifyTarget): Promise<NotificationWire> {
  if (target.db.isTransaction) throw new Error('broadcast commits its own write: in a transaction, storeBroadcast, then deliverToRole after the commit');
  const wire = await storeBroadcast(input, target);
  deliverToRole(app, wire, input);
  return wire;
}
