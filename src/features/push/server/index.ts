/**
 * Web Push on the server: the three calls of spec §7 (declared in resources/push.ts, carried out by the
 * handlers below) and the sender, which listens to the app's notification hub and pushes each new
 * notification to its user's browsers. `registerPush` runs once per app (buildApp).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { PUSH_SERVER_MESSAGES, PUSH_SUBSCRIPTIONS } from '../../../../resources/push.ts';
import { badRequest, HttpError, notFound, VALIDATION_FAILED } from '../../../server/errors.ts';
import type { HandlerContext, Handlers } from '../../../server/routes/handlers.ts';
import { onSessionsEnded, SESSION_COOKIE, sessionIdOf } from '../../../server/auth/sessions.ts';
import { newId, type Db } from '../../../server/records/index.ts';
import { checkEndpoint, EndpointRefused, type AllowEndpoint, type Resolve } from './endpoint.ts';
import { loadVapidKeys, vapidSubject, type VapidKeys } from './vapid.ts';
import { pushToRole, pushToUser, roleHasSubscription } from './send.ts';
import { isP256Point, sameKeys } from './keys.ts';

/**
 * buildApp's `push` option. FOR TESTS ONLY: it lets a test point subscriptions at a stand-in push
 * service on this machine. No environment variable sets it, and it is refused when
 * `NODE_ENV=production`.
 */
export interface PushOptions {
  /** Endpoints it accepts skip the port and public-host rules (still https, still resolved and pinned). */
  allowEndpoint?: AllowEndpoint;
  /** A certificate authority to trust besides the system's (the stand-in's self-signed certificate). */
  ca?: string | Buffer;
  /** The name resolver (default: `dns.lookup` of every address): a test's stand-in DNS answers. */
  resolve?: Resolve;
}

interface PushState {
  vapid: VapidKeys;
  allowEndpoint?: AllowEndpoint;
  resolve?: Resolve;
  /** Resolves when every push (and every forgetting of ended sessions' subscriptions) under way now is done (tests; shutdown waits too). */
  settled(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's Web Push state (src/features/push/server). */
    push: PushState;
  }
}

/** The unique key of an endpoint (endpoints may be longer than an index takes). */
export const endpointKey = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex');

export async function registerPush(app: FastifyInstance, db: Db, options: PushOptions = {}): Promise<void> {
  if ((options.allowEndpoint || options.ca || options.resolve) && process.env.NODE_ENV === 'production')
    throw new Error('buildApp push options are for tests only and refused in production');
  const vapid = await loadVapidKeys(db);
  const context = {
    db,
    vapid,
    subject: vapidSubject(),
    allowEndpoint: options.allowEndpoint,
    resolve: options.resolve,
    ca: options.ca,
    log: (message: string, detail?: unknown) => app.log.error({ detail }, message),
    // Kept in the read cache until a subscription or a user is written (here or, told, on another node): a
    // role's notification (one a product created) read the role's subscriptions each time, though mostly
    // there are none. A subscription is only ever added through the records service, which invalidates.
    anySubscribed: (role: string) => app.readCache.get(`push subscribed ${role}`, [PUSH_SUBSCRIPTIONS, 'users'], () => roleHasSubscription(db, role)),
  };
  // Sends run beside the request that created the notification (a slow push service must not hold
  // its answer back); closing the app waits for the ones under way.
  const underWay = new Set<Promise<void>>();
  const settled = async () => {
    await Promise.all(underWay);
  };
  app.decorate('push', { vapid, allowEndpoint: options.allowEndpoint, resolve: options.resolve, settled });
  const stop = app.notifications.onCreated((notification) => {
    const sending = pushToUser(context, notification)
      .catch((error) => app.log.error(error))
      .finally(() => underWay.delete(sending));
    underWay.add(sending);
  });
  const stopRole = app.notifications.onRoleCreated((notification, role, exceptUserId) => {
    const sending = pushToRole(context, notification, role, exceptUserId)
      .catch((error) => app.log.error(error))
      .finally(() => underWay.delete(sending));
    underWay.add(sending);
  });
  // A session that ends takes the subscriptions saved in it; all of a user's (disabled, replaced, new
  // password) take all of the user's. Not awaited: the sessions may end inside a transaction that holds
  // SQLite's one connection, and the delete must wait for its commit.
  const unlisten = onSessionsEnded((ended) => {
    const query = db.deleteFrom(PUSH_SUBSCRIPTIONS);
    const forgetting = ('sessionId' in ended ? query.where('sessionId', '=', ended.sessionId) : query.where('userId', '=', ended.userId))
      .execute()
      .then(() => undefined, (error) => app.log.error(error))
      .finally(() => underWay.delete(forgetting));
    underWay.add(forgetting);
  });
  app.addHook('onClose', async () => {
    stop();
    stopRole();
    unlisten();
    await settled();
  });
}

async function pushVapidPublicKey({ request }: HandlerContext) {
  return { publicKey: request.server.push.vapid.publicKey };
}

async function pushSubscribe({ records, request, body }: HandlerContext) {
  const { subscription, userAgent, endpoint } = body as {
    subscription: { endpoint: string; keys: { p256dh: string; auth: string }; expirationTime?: number | null };
    userAgent: string;
    endpoint: string;
  };
  try {
    await checkEndpoint(endpoint, request.server.push.allowEndpoint, request.server.push.resolve);
  } catch (error) {
    if (error instanceof EndpointRefused) throw badRequest(VALIDATION_FAILED, { endpoint: [error.message] });
    throw error;
  }
  if (!isP256Point(subscription.keys.p256dh)) throw badRequest(VALIDATION_FAILED, { subscription: [PUSH_SERVER_MESSAGES.badKeys] });
  const now = new Date().toISOString();
  const userId = String(request.user!.id);
  const token = request.cookies[SESSION_COOKIE];
  const sessionId = token ? sessionIdOf(token) : null;
  const stored = { subscription: JSON.stringify(subscription), userAgent, endpoint, userId, sessionId, updatedAt: now };
  const key = endpointKey(endpoint);
  // One row per endpoint, owned by the account that saved it. Saving again from the same account moves
  // it to this session (new keys allowed). Another account takes it over only by sending the stored
  // keys, that is from the browser that holds it (a shared computer: only the person signed in now gets
  // its pushes); anyone else who learned the URL is refused, and the owner keeps it. The write is made
  // conditional on the row read, so a save racing another is judged again on what it lost to.
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await records.operation([PUSH_SUBSCRIPTIONS], (db) => saveOnce(db, key, userId, subscription.keys, stored, now))) return { endpoint };
  }
  throw taken();
}

/**
 * One try at saving the endpoint (its key `key`) for `userId`: true when saved, false when it lost a
 * race and is to be judged again; refused (409) when another account holds it with other keys.
 */
async function saveOnce(db: Db, key: string, userId: string, keys: { p256dh: string; auth: string }, stored: Record<string, unknown>, now: string): Promise<boolean> {
  {
    const held = await db.selectFrom(PUSH_SUBSCRIPTIONS).select(['userId', 'subscription']).where('endpointKey', '=', key).executeTakeFirst();
    if (held && held.userId !== userId && !sameKeys(held.subscription, keys)) throw taken();
    const written = await db
      .insertInto(PUSH_SUBSCRIPTIONS)
      .values({ id: newId(), endpointKey: key, createdAt: now, version: 1, ...stored })
      .onConflict((oc) =>
        oc
          .column('endpointKey')
          .doUpdateSet(stored)
          .where((eb) =>
            held
              ? eb.and([eb(`${PUSH_SUBSCRIPTIONS}.userId`, '=', held.userId), eb(`${PUSH_SUBSCRIPTIONS}.subscription`, '=', held.subscription)])
              : eb(`${PUSH_SUBSCRIPTIONS}.userId`, '=', userId),
          ),
      )
      .executeTakeFirst();
    return Number(written.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}

const taken = () => new HttpError(409, PUSH_SERVER_MESSAGES.taken, { endpoint: [PUSH_SERVER_MESSAGES.taken] });

async function pushUnsubscribe({ records, request, body }: HandlerContext) {
  const { endpoint } = body as { endpoint: string };
  const removed = await records.operation([PUSH_SUBSCRIPTIONS], (db) =>
    db.deleteFrom(PUSH_SUBSCRIPTIONS).where('endpointKey', '=', endpointKey(endpoint)).where('userId', '=', String(request.user!.id)).executeTakeFirst(),
  );
  // Another user's endpoint answers as an unknown one does.
  if (!Number(removed.numDeletedRows)) throw notFound(PUSH_SERVER_MESSAGES.notFound);
  // Nothing to answer: 204.
}

export const pushHandlers = { pushVapidPublicKey, pushSubscribe, pushUnsubscribe } satisfies Handlers;
