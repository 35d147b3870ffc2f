/**
 * Whether the server may send to a push endpoint. A subscription's endpoint is a URL the browser (that is,
 * the user) chose, so the server would otherwise make requests wherever a user says: to its own loopback,
 * the private network, a cloud's metadata service (169.254.169.254). Only https on port 443 at a host
 * whose every address is public passes; the host is resolved when subscribing and again at every send,
 * and the send connects to the address checked then (`pinnedAgent`), so a DNS answer that changes in
 * between (rebinding) cannot lead it elsewhere.
 */
import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import { Agent, type AgentOptions } from 'node:https';
import type { LookupFunction } from 'node:net';
import { PUSH_SERVER_MESSAGES } from '../../../../resources/push.ts';

/** IPv4 ranges that are not the public internet (RFC 6890 and its successors). */
const NOT_PUBLIC_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

/**
 * IPv6 is judged by what is allowed, the global unicast block 2000::/3: loopback (::1), unspecified
 * (::), unique-local (fc00::/7), link-local (fe80::/10), multicast, IPv4-mapped (::ffff:0:0/96) and
 * NAT64 (64:ff9b::/96) all lie outside it. Inside it, the blocks that are not one host on the internet
 * or that carry an IPv4 address of any kind (6to4, Teredo) are refused too.
 */
const NOT_PUBLIC_V6_IN_GLOBAL: [string, number][] = [
  ['2001::', 23], // IETF protocol assignments, Teredo (2001::/32)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds any IPv4 address
  ['3fff::', 20], // documentation
];

const notPublicV4 = new BlockList();
for (const [net, prefix] of NOT_PUBLIC_V4) notPublicV4.addSubnet(net, prefix, 'ipv4');
const globalV6 = new BlockList();
globalV6.addSubnet('2000::', 3, 'ipv6');
const notPublicV6 = new BlockList();
for (const [net, prefix] of NOT_PUBLIC_V6_IN_GLOBAL) notPublicV6.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address (v4 or v6, as `dns.lookup` or a URL gives it) is one host on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !notPublicV4.check(address, 'ipv4');
  if (family === 6) return globalV6.check(address, 'ipv6') && !notPublicV6.check(address, 'ipv6');
  return false;
}

/** An endpoint that passed, with the address to connect to. */
export interface CheckedEndpoint {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Why an endpoint was refused: the message is the spec-free text the subscribe call answers under `endpoint`. */
export class EndpointRefused extends Error {}

/**
 * Test-only stand-in allowance (buildApp's `push.allowEndpoint`): an endpoint it accepts skips the
 * port and public-host rules (the stand-in push service listens on https://127.0.0.1:<port>).
 */
export type AllowEndpoint = (url: URL) => boolean;

/** Resolves every address of `host` (its A and AAAA records). */
export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;
const resolveAll: Resolve = (host) => lookup(host, { all: true, verbatim: true });

/**
 * Checks an endpoint and answers the address to connect to, or throws `EndpointRefused`. Every address
 * the name resolves to must be public, not just one: a resolver may hand out any of them.
 */
export async function checkEndpoint(raw: string, allow?: AllowEndpoint, resolve: Resolve = resolveAll): Promise<CheckedEndpoint> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new EndpointRefused(PUSH_SERVER_MESSAGES.notHttps);
  }
  // The URL parser already turned odd IPv4 spellings (0x7f.1, 2130706433, 0177.0.0.1) into dotted quads.
  if (url.protocol !== 'https:' || url.username || url.password) throw new EndpointRefused(PUSH_SERVER_MESSAGES.notHttps);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const literal = isIP(host);
  if (allow?.(url)) {
    const [first] = literal ? [{ address: host, family: literal }] : await resolveOrRefuse(host, resolve);
    return { url, address: first.address, family: first.family as 4 | 6 };
  }
  // `URL` leaves the port empty for https's default 443.
  if (url.port !== '') throw new EndpointRefused(PUSH_SERVER_MESSAGES.notHttps);
  if (literal) {
    if (!isPublicAddress(host)) throw new EndpointRefused(PUSH_SERVER_MESSAGES.notPublic);
    return { url, address: host, family: literal as 4 | 6 };
  }
  // A name the resolver may answer from /etc/hosts or a search domain without asking DNS.
  if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) throw new EndpointRefused(PUSH_SERVER_MESSAGES.notPublic);
  const addresses = await resolveOrRefuse(host, resolve);
  if (!addresses.every((a) => isPublicAddress(a.address))) throw new EndpointRefused(PUSH_SERVER_MESSAGES.notPublic);
  return { url, address: addresses[0].address, family: addresses[0].family as 4 | 6 };
}

async function resolveOrRefuse(host: string, resolve: Resolve) {
  try {
    const addresses = await resolve(host);
    if (addresses.length) return addresses;
  } catch {
    // ENOTFOUND and the like: the same refusal as an empty answer.
  }
  throw new EndpointRefused(PUSH_SERVER_MESSAGES.unresolved);
}

/**
 * An agent that connects only to the checked address, whatever a later lookup of the name would say.
 * TLS still verifies the certificate against the URL's host name (the agent keeps `servername`).
 */
export function pinnedAgent(endpoint: CheckedEndpoint, options: Pick<AgentOptions, 'ca'> = {}): Agent {
  const { address, family } = endpoint;
  const pinned = ((_host: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (opts?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
  return new Agent({ ...options, lookup: pinned, keepAlive: false, maxSockets: 1 });
}
