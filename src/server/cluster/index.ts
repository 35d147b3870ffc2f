/**
 * Several server nodes behind one address (REDIS_URL set): they share one PostgreSQL, and Redis tells
 * each what the others did that it may hold stale — writes (the read cache's tables) and ended sessions
 * (the 5 s session cache). socket.io's own traffic between nodes goes through its Redis adapter
 * (src/server/realtime), over the same Redis.
 *
 * What makes "written on A, read on B at once" hold: a write on A bumps the table's generation here and
 * publishes it; the answer of the write waits (an `onSend` hook) until every subscribed node acknowledged
 * having dropped the table's answers (src/server/cluster/bus.ts). A node that cannot hear Redis serves
 * nothing from its cache until it hears again, then drops all it held.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { forgetAllSessions, forgetSessions, onSessionsEnded } from '../auth/sessions.ts';
import { ClusterBus } from './bus.ts';
import { openRedis, type RedisConnections } from './redis.ts';

export interface Cluster {
  redis: RedisConnections;
  bus: ClusterBus;
  /** Keeps this cluster's channels apart from other clusters' on the same Redis. */
  prefix: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The other nodes (REDIS_URL set), else undefined. */
    cluster: Cluster | undefined;
  }
}

/** `REDIS_PREFIX`: the default names this product's channels; clusters sharing one Redis need their own. */
export const DEFAULT_REDIS_PREFIX = 'marketplace';

const tableName = z.string().min(1).max(100);
const ended = z.union([z.strictObject({ sessionId: z.string().min(1).max(100) }), z.strictObject({ userId: z.string().min(1).max(100) })]);

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Connects `app` to the other nodes over Redis at `url`; `app.cluster` is undefined when `url` is. */
export async function registerCluster(app: FastifyInstance, url: string | undefined, prefix = DEFAULT_REDIS_PREFIX) {
  if (!url) {
    app.decorate('cluster', undefined);
    return;
  }
  const log = (message: string, error?: unknown) => app.log.error(error ? { err: error } : {}, message);
  const redis = await openRedis(url, log);
  const bus = new ClusterBus(redis, prefix, log);
  const cache = app.readCache;

  bus.handle('table', (payload) => cache.invalidateHere(tableName.parse(payload)));
  bus.handle('sessions', (payload) => forgetSessions(ended.parse(payload)));
  bus.onReconnect(() => {
    cache.invalidateAll();
    forgetAllSessions();
  });
  // Redis away at the start: the subscription waits in node-redis's queue until it connects (the start
  // does not); meanwhile `listening()` is false, so the cache serves nothing it could not vouch for.
  const subscribing = bus.start().catch((error: unknown) => log('Cluster bus: subscribing failed', error));
  if (redis.sub.isReady) await subscribing;
  cache.connectPeers({ publish: (table) => bus.publish('table', table), listening: () => bus.listening() });
  const unwatch = onSessionsEnded((what) => bus.publish('sessions', what));

  // A write answers once the other nodes have dropped what it made stale (see the module's comment).
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (SAFE_METHODS.has(request.method)) return done(null, payload);
    cache.published().then(() => done(null, payload), done);
  });
  app.decorate('cluster', { redis, bus, prefix });
  app.addHook('onClose', async () => {
    unwatch();
    cache.connectPeers(undefined);
    await redis.close();
  });
}
