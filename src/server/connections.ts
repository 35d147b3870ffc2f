/**
 * What a slow or greedy client may hold of the server: how long it may take to send a request's headers
 * and the whole request, how long an idle keep-alive connection stays open, and how many connections one
 * client address may hold at once. Without these, connections that trickle their headers stay open
 * (Node's own headers timeout is 60 s, checked every 30 s) and a few hundred of them exhaust the server.
 */
import { BlockList, isIPv6, type Socket } from 'node:net';
import type { Server } from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import { addressKey } from './auth/limiter.ts';
import type { TrustProxy } from './config.ts';

export interface ConnectionLimits {
  /** Most ms from a request's first byte to the end of its headers (`HEADERS_TIMEOUT`). */
  headersTimeoutMs: number;
  /** Most ms to receive a whole request, body included (`REQUEST_TIMEOUT`); an upload on a slow link needs a while. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept, in ms (`KEEP_ALIVE_TIMEOUT`): longer than a proxy's own idle timeout, so the proxy closes first. */
  keepAliveTimeoutMs: number;
  /** Most connections open at once from one client address (`MAX_CONNECTIONS_PER_ADDRESS`; 0: no cap). Trusted proxies are not capped. */
  maxConnectionsPerAddress: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 300_000,
  keepAliveTimeoutMs: 72_000,
  maxConnectionsPerAddress: 100,
};

/**
 * Fastify's server options for `limits`. Node checks the two timeouts only every
 * `connectionsCheckingInterval` (30 s by default, so a 10 s timeout would close at up to 40 s): it is
 * checked at a quarter of the shorter timeout instead.
 */
export function serverOptions(limits: ConnectionLimits): Pick<FastifyServerOptions, 'requestTimeout' | 'keepAliveTimeout'> & { http: { headersTimeout: number; connectionsCheckingInterval: number } } {
  const shorter = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(shorter / 4))) },
  };
}

/** The address ranges `TRUST_PROXY` names by word, as Fastify's proxy-addr knows them. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** Whether a peer is a proxy `trust` believes (every connection then carries many clients). */
export function trustedPeer(trust: TrustProxy): (address: string) => boolean {
  if (trust === false) return () => false;
  if (trust === true) return () => true;
  const list = new BlockList();
  for (const item of trust.split(',').map((s) => s.trim()).filter(Boolean))
    for (const range of NAMED_RANGES[item] ?? [item]) {
      const [address, bits] = range.split('/');
      const type = isIPv6(address) ? 'ipv6' : 'ipv4';
      if (bits === undefined) list.addAddress(address, type);
      else list.addSubnet(address, Number(bits), type);
    }
  return (address) => {
    const plain = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
    return list.check(plain, isIPv6(plain) ? 'ipv6' : 'ipv4');
  };
}

/**
 * Closes a new connection at once when its address (an IPv6 client by its /64) already holds `max`.
 * A proxy `trust` believes is let through: behind it, the proxy's own limits apply (docs/security.md).
 */
export function capConnectionsPerAddress(server: Server, max: number, trust: TrustProxy) {
  if (max <= 0) return;
  const trusted = trustedPeer(trust);
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? '';
    if (trusted(peer)) return;
    const key = addressKey(peer);
    const held = open.get(key) ?? 0;
    if (held >= max) {
      socket.destroy();
      return;
    }
    open.set(key, held + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}
