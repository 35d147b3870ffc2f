/**
 * The realtime socket (spec §7): socket.io 4 on the app's own port at SOCKET_PATH. Every signed-in
 * socket is put in its user's room and its session's room; this app's notifications (`app.notifications`)
 * go to the user's room. With REDIS_URL, socket.io's sharded Redis adapter carries emits and
 * disconnections to the sockets held by the other nodes.
 */
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { roleRoom, SOCKET_EVENTS, SOCKET_MAX_MESSAGE_BYTES, SOCKET_PATH, userRoom, type UnreadAnswer } from '../../features/notifications/contract.ts';
import type { TrustProxy } from '../config.ts';
import type { RedisClient } from '../cluster/redis.ts';
import type { Db } from '../db/types.ts';
import { onSessionsEnded } from '../auth/sessions.ts';
import { authenticate, originCheck, type SocketData } from './handshake.ts';
import { listen } from './events.ts';

/**
 * The adapter's subscribing client, its (un)subscriptions' failures caught: the adapter does not await
 * them, so a subscription still queued when the node closes without Redis would be an unhandled rejection.
 */
function quietSubscriber(client: RedisClient, log: (error: unknown) => void) {
  return {
    sSubscribe: (...args: Parameters<RedisClient['sSubscribe']>) => client.sSubscribe(...args).catch(log),
    sUnsubscribe: (...args: Parameters<RedisClient['sUnsubscribe']>) => client.sUnsubscribe(...args).catch(log),
  };
}

/** The room of one session's sockets (named by the session's stored id, never by its token). */
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

export interface Realtime {
  io: Server;
  /** Whether any socket of the user, on any node, said its page is visible (`user:online`). */
  isOnline(userId: string): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The realtime socket's server (src/server/realtime). */
    realtime: Realtime;
  }
}

export interface RealtimeOptions {
  db: Db;
  allowedOrigins: readonly string[];
  trustProxy: TrustProxy;
}

/** socket.io's Redis adapter, loaded only when there are other nodes (REDIS_URL): a single node never loads it. */
const redisAdapter = () => createRequire(import.meta.url)('@socket.io/redis-adapter') as typeof import('@socket.io/redis-adapter');

export function registerRealtime(app: FastifyInstance, { db, allowedOrigins, trustProxy }: RealtimeOptions) {
  const cluster = app.cluster;
  const io = new Server(app.server, {
    path: SOCKET_PATH,
    serveClient: false,
    // Spec §7: a bigger message closes its socket (engine.io drops the connection; the server goes on).
    maxHttpBufferSize: SOCKET_MAX_MESSAGE_BYTES,
    allowRequest: originCheck(allowedOrigins, trustProxy),
    ...(cluster
      ? {
          // "static": every node hears every room's emits on two channels (no per-room subscription that a
          // fresh socket's first notification could overtake).
          adapter: redisAdapter().createShardedAdapter(cluster.redis.pub, quietSubscriber(cluster.redis.adapterSub, (error) => app.log.error(error)), {
            channelPrefix: `${cluster.prefix}:socket.io`,
            subscriptionMode: 'static',
          }),
        }
      : {}),
  });
  io.use(authenticate(app, db));
  io.on('connection', (socket) => {
    const data = socket.data as SocketData;
    void socket.join([userRoom(data.userId), sessionRoom(data.sessionId), roleRoom(data.role)]);
    listen(socket);
  });

  const toUser = (userId: string) => io.to(userRoom(userId));
  const unread = (userId: string, unreadCount: number) => {
    toUser(userId).emit(SOCKET_EVENTS.unread, { unreadCount } satisfies UnreadAnswer);
  };
  const stops = [
    // A notification, then its person's unread count when it has been read (notify.ts `deliver`).
    app.notifications.onCreated((notification) => {
      toUser(notification.userId).emit(SOCKET_EVENTS.notification, notification);
    }),
    app.notifications.onUnreadChanged(unread),
    // To everyone of a role: one emit to its room (each client counts it as one more unread), never to
    // the one who caused it.
    app.notifications.onRoleCreated((notification, role, exceptUserId) => {
      const room = io.to(roleRoom(role));
      (exceptUserId ? room.except(userRoom(exceptUserId)) : room).emit(SOCKET_EVENTS.notification, notification);
    }),
    // Signing out, disabling or replacing an account: its sockets close, on every node (the adapter).
    onSessionsEnded((ended) => {
      io.in('sessionId' in ended ? sessionRoom(ended.sessionId) : userRoom(ended.userId)).disconnectSockets(true);
    }),
  ];

  app.decorate('realtime', {
    io,
    async isOnline(userId: string) {
      // The other nodes' sockets are asked through Redis; while it is away, this node's alone.
      const sockets = await io.in(userRoom(userId)).fetchSockets().catch(() => io.local.in(userRoom(userId)).fetchSockets());
      return sockets.some((socket) => (socket.data as SocketData).online);
    },
  } satisfies Realtime);

  // Before the HTTP server closes: its sockets (websockets, long polls) would otherwise hold the
  // shutdown until it is cut off (src/server/lifecycle.ts). `io.close()` is not used: it closes the HTTP
  // server itself, which is Fastify's to close.
  app.addHook('preClose', async () => {
    for (const stop of stops) stop();
    io.local.disconnectSockets(true);
    io.engine.close();
    await io.of('/').adapter.close();
  });
}
