/**
 * One app's notification events: the store (notify.ts) says what happened, the deliverers listen —
 * the realtime socket (src/server/realtime) and Web Push (src/features/push). One hub per app, not per
 * process, so two apps in one process (tests, the two-node bench) never deliver each other's
 * notifications. A listener's failure is logged and never fails the write that caused it.
 */
import type { NotificationWire } from '../contract.ts';

export type CreatedListener = (notification: NotificationWire) => void | Promise<void>;
export type UnreadListener = (userId: string, unreadCount: number) => void | Promise<void>;
/** A notification to everyone of `role` but `exceptUserId` (stored once: audience.ts). */
export type RoleListener = (notification: NotificationWire, role: string, exceptUserId: string | undefined) => void | Promise<void>;

export class NotificationHub {
  private readonly created = new Set<CreatedListener>();
  private readonly unread = new Set<UnreadListener>();
  private readonly toRole = new Set<RoleListener>();

  constructor(private readonly log: (error: unknown) => void = (error) => console.error(error)) {}

  /** Called after a notification is stored (its transaction committed). Answers the unsubscribe. */
  onCreated(listener: CreatedListener): () => void {
    this.created.add(listener);
    return () => this.created.delete(listener);
  }

  /** Called after a notification to everyone of a role is stored (committed). Answers the unsubscribe. */
  onRoleCreated(listener: RoleListener): () => void {
    this.toRole.add(listener);
    return () => this.toRole.delete(listener);
  }

  /** Tells every `onRoleCreated` listener: once, whatever the role's size. */
  async emitToRole(notification: NotificationWire, role: string, exceptUserId?: string): Promise<void> {
    await Promise.all([...this.toRole].map((listener) => this.guard(() => listener(notification, role, exceptUserId))));
  }

  /** Called when a user's unread count changed without a new notification (read, all read). */
  onUnreadChanged(listener: UnreadListener): () => void {
    this.unread.add(listener);
    return () => this.unread.delete(listener);
  }

  /**
   * Tells every `onCreated` listener; waits for them, so a caller can answer after delivery began. The
   * person's new unread count follows as an unread change (notify.ts `deliver`): the notification does
   * not wait for the count's read.
   */
  async emitCreated(notification: NotificationWire): Promise<void> {
    await Promise.all([...this.created].map((listener) => this.guard(() => listener(notification))));
  }

  async emitUnreadChanged(userId: string, unreadCount: number): Promise<void> {
    await Promise.all([...this.unread].map((listener) => this.guard(() => listener(userId, unreadCount))));
  }

  private async guard(run: () => void | Promise<void>) {
    try {
      await run();
    } catch (error) {
      this.log(error);
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's notification events (src/features/notifications/server/hub.ts). */
    notifications: NotificationHub;
  }
}
