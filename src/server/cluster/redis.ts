/**
 * The Redis connections of one server node (node-redis v5): one to publish and run commands, one for
 * the cluster bus's subscriptions, one for socket.io's adapter (a connection that subscribes can do
 * nothing else). Redis being away never stops or crashes the server: errors are logged once per outage,
 * the clients keep reconnecting, and whoever depends on them asks `ready` before trusting them.
 */
import type { createClient } from 'redis';

export type RedisClient = ReturnType<typeof createClient>;

export interface RedisConnections {
  /** Commands and PUBLISH. */
  pub: RedisClient;
  /** The cluster bus's SUBSCRIBE. */
  sub: RedisClient;
  /** socket.io's sharded adapter's SSUBSCRIBE. */
  adapterSub: RedisClient;
  close(): Promise<void>;
}

/** How long the start waits for Redis before going on without it (the clients keep trying). */
export const REDIS_START_WAIT_MS = 3_000;
/** Between reconnection attempts, at most this long. */
const RECONNECT_MAX_MS = 2_000;

export async function openRedis(url: string, log: (message: string, error?: unknown) => void): Promise<RedisConnections> {
  // Loaded here, with REDIS_URL set: a single node never loads node-redis.
  const redis = await import('redis');
  // Commands fail at once while Redis is away rather than queue without bound (socket.io delivers to its
  // own sockets once its publish failed); subscriptions queue, so they happen when Redis is back.
  const make = (role: string, queueWhileAway = false) => {
    const client = redis.createClient({
      url,
      disableOfflineQueue: !queueWhileAway,
      socket: { reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, RECONNECT_MAX_MS) },
    });
    let down = false;
    // Without an 'error' listener a lost connection would throw out of the event loop and end the process.
    client.on('error', (error: unknown) => {
      if (!down) log(`Redis (${role}) unreachable; retrying`, error);
      down = true;
    });
    client.on('ready', () => {
      if (down) log(`Redis (${role}) reachable again`);
      down = false;
    });
    return client;
  };
  const pub = make('commands');
  const sub = make('bus', true);
  const adapterSub = make('socket.io', true);
  const clients = [pub, sub, adapterSub];
  const started = Promise.allSettled(clients.map((client) => client.connect()));
  const waited = await Promise.race([started.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), REDIS_START_WAIT_MS))]);
  if (!waited || clients.some((client) => !client.isReady)) log(`Redis at ${redacted(url)} is not ready; starting without it for now`);
  return {
    pub,
    sub,
    adapterSub,
    async close() {
      await Promise.allSettled(clients.map((client) => (client.isReady ? client.close() : client.destroy())));
    },
  };
}

/** The URL without its password, for logs. */
export function redacted(url: string) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'REDIS_URL';
  }
}
