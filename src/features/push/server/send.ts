/**
 * Sending one notification to one stored subscription: the endpoint is checked again (its host resolved
 * now), the request goes to the address checked (`pinnedAgent`), encrypted for the browser (aes128gcm)
 * and signed with our VAPID key by web-push. A 404 or 410 means the browser dropped the subscription:
 * it is deleted. Any other failure (a redirect included: web-push never follows one) is logged.
 */
import type { NotificationWire } from '../../notifications/contract.ts';
import { PUSH_SUBSCRIPTIONS } from '../../../../resources/push.ts';
import type { Db, Row } from '../../../server/records/index.ts';
import { checkEndpoint, pinnedAgent, type AllowEndpoint, type Resolve } from './endpoint.ts';
import type { VapidKeys } from './vapid.ts';
import type { PushPayload } from '../payload.ts';

export interface SendContext {
  db: Db;
  vapid: VapidKeys;
  subject: string;
  allowEndpoint?: AllowEndpoint;
  resolve?: Resolve;
  /** Extra trusted certificate authorities (tests: the stand-in push service's self-signed certificate). */
  ca?: string | Buffer;
  /**
   * Whether anyone of `role` has a subscription: when it answers false, a notification to the role reads
   * nothing more. Kept between writes of the subscriptions or the users (index.ts `anySubscribed`).
   */
  anySubscribed?(role: string): Promise<boolean>;
  log(message: string, detail?: unknown): void;
}

/** How long a push service may take to answer before the send is given up (and logged). */
const SEND_TIMEOUT_MS = 10_000;
/** How long the push service keeps a push for a browser that is offline. */
const TTL_SECONDS = 24 * 60 * 60;

/** What the service worker shows (public/sw.js reads these keys). */
export function payloadOf(n: NotificationWire): PushPayload {
  const url = typeof n.metadata?.url === 'string' && n.metadata.url.startsWith('/') && !n.metadata.url.startsWith('//') ? n.metadata.url : '/';
  return { id: n.id, title: n.title, body: n.message, url, type: n.type };
}

/** Sends to every subscription of the notification's user; resolves when all are done (never rejects). */
export async function pushToUser(context: SendContext, n: NotificationWire): Promise<void> {
  const rows = await context.db.selectFrom(PUSH_SUBSCRIPTIONS).selectAll().where('userId', '=', n.userId).execute();
  const payload = JSON.stringify(payloadOf(n));
  await Promise.all(rows.map((row) => sendOne(context, row, payload)));
}

/** How many of a role's subscriptions are read, and pushed to, at a time. */
const ROLE_PAGE = 200;

/** The subscriptions of everyone of `role`. */
const subscriptionsOfRole = (db: Db, role: string) =>
  db.selectFrom(PUSH_SUBSCRIPTIONS).where(`${PUSH_SUBSCRIPTIONS}.userId`, 'in', db.selectFrom('users').select('users.id').where('users.role', '=', role));

/** Whether anyone of `role` has a subscription, in one read. */
export async function roleHasSubscription(db: Db, role: string): Promise<boolean> {
  return (await subscriptionsOfRole(db, role).select(`${PUSH_SUBSCRIPTIONS}.id`).limit(1).executeTakeFirst()) !== undefined;
}

/**
 * A notification to everyone of `role` but `exceptUserId`, pushed to each of their subscriptions: after
 * the answer (the hub's listener does not wait for it), a page of subscriptions at a time by id, so a
 * role of thousands holds neither memory nor sockets for all of them at once.
 */
export async function pushToRole(context: SendContext, n: NotificationWire, role: string, exceptUserId?: string): Promise<void> {
  // Most roles have no browser subscribed (the admins told of every product created, issue 54): no read a notification.
  if (context.anySubscribed && !(await context.anySubscribed(role))) return;
  const payload = JSON.stringify(payloadOf(n));
  let after = '';
  for (;;) {
    let query = subscriptionsOfRole(context.db, role)
      .selectAll(PUSH_SUBSCRIPTIONS)
      .where(`${PUSH_SUBSCRIPTIONS}.id`, '>', after)
      .orderBy(`${PUSH_SUBSCRIPTIONS}.id`)
      .limit(ROLE_PAGE);
    if (exceptUserId) query = query.where(`${PUSH_SUBSCRIPTIONS}.userId`, '!=', exceptUserId);
    const rows = (await query.execute()) as Row[];
    if (!rows.length) return;
    await Promise.all(rows.map((row) => sendOne(context, row, payload)));
    after = String(rows[rows.length - 1].id);
  }
}

async function sendOne(context: SendContext, row: Row, payload: string): Promise<void> {
  // Loaded at the first push a node sends: a node that sends none never loads web-push.
  const { default: webpush } = await import('web-push');
  const endpoint = String(row.endpoint);
  let agent;
  try {
    agent = pinnedAgent(await checkEndpoint(endpoint, context.allowEndpoint, context.resolve), context.ca ? { ca: context.ca } : {});
  } catch (error) {
    context.log(`push: endpoint refused at send (${(error as Error).message})`, { subscription: row.id });
    return;
  }
  try {
    await webpush.sendNotification(JSON.parse(String(row.subscription)), payload, {
      vapidDetails: { subject: context.subject, publicKey: context.vapid.publicKey, privateKey: context.vapid.privateKey },
      contentEncoding: 'aes128gcm',
      TTL: TTL_SECONDS,
      timeout: SEND_TIMEOUT_MS,
      agent,
    });
  } catch (error) {
    const status = error instanceof webpush.WebPushError ? error.statusCode : undefined;
    if (status === 404 || status === 410) {
      await context.db.deleteFrom(PUSH_SUBSCRIPTIONS).where('id', '=', row.id as string).execute();
      return;
    }
    context.log(`push: sending failed${status ? ` (${status})` : ''}: ${(error as Error).message}`, { subscription: row.id });
  } finally {
    agent.destroy();
  }
}
