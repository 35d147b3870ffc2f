/**
 * Slow and greedy clients (issue 50): connections that trickle their headers or body are closed at the
 * headers and request timeouts, idle keep-alive connections at theirs, and one address cannot hold more
 * than its share of connections, while other clients' requests are answered meanwhile. Raw sockets, so
 * the test decides exactly what is sent and when; the timeouts are configured short for the test.
 */
import { connect, type Socket } from 'node:net';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/server/config.ts';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from '../../src/server/connections.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { urlOf } from '../../src/manifest/index.ts';
import { SOCKET_PATH } from '../../src/features/notifications/contract.ts';
import { io } from 'socket.io-client';
import { connected } from '../support/realtime.ts';

/** An API path any client may call (answered 401 without a session). */
const ME = urlOf('/getcurrentuser');

const LIMITS: ConnectionLimits = { headersTimeoutMs: 1000, requestTimeoutMs: 2000, keepAliveTimeoutMs: 500, maxConnectionsPerAddress: 20 };

/** A raw connection from `localAddress` that sends `first`, then `drip` (if any) every 100 ms until the server closes it. */
function trickle(server: TestServer, first: string, drip: string, localAddress = '127.0.0.1') {
  const { hostname, port } = new URL(server.url);
  const socket: Socket = connect({ host: hostname, port: Number(port), localAddress });
  let data = '';
  let timer: NodeJS.Timeout | undefined;
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => (data += chunk));
  // The server ends these connections; a write racing its close is expected, not a failure.
  socket.on('error', () => {});
  const connected = new Promise<void>((resolve) => socket.once('connect', () => {
    socket.write(first);
    if (drip) timer = setInterval(() => socket.writable && socket.write(drip), 100);
    resolve();
  }));
  const closed = new Promise<string>((resolve) => socket.once('close', () => {
    clearInterval(timer);
    resolve(data);
  }));
  return { connected, closed, socket };
}

/** A plain GET from `localAddress` (another client than the test's slow ones). */
function get(server: TestServer, path: string, localAddress: string) {
  const { hostname, port } = new URL(server.url);
  return new Promise<number>((resolve, reject) => {
    const req = request({ host: hostname, port: Number(port), path, localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('slow clients', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ app: { trustProxy: false, connections: LIMITS } });
  });
  afterAll(() => server?.close());

  it('closes connections that trickle their headers, caps one address, and answers other clients meanwhile', async () => {
    const slow = Array.from({ length: 50 }, (_, i) => trickle(server, `GET ${ME} HTTP/1.1\r\nHost: 127.0.0.1\r\n`, `X-Slow-${i}: still sending\r\n`));
    await Promise.all(slow.map((s) => s.connected));
    // Another client is answered while the slow ones are held.
    const others = await Promise.all(Array.from({ length: 5 }, () => get(server, ME, '127.0.0.2')));
    expect(others).toEqual([401, 401, 401, 401, 401]);
    const ends = await Promise.all(slow.map((s) => s.closed));
    // Past the cap, closed at once without an answer; the ones held, told 408 at the headers timeout.
    expect(ends.filter((d) => d === '')).toHaveLength(50 - LIMITS.maxConnectionsPerAddress);
    const timedOut = ends.filter((d) => d !== '');
    expect(timedOut).toHaveLength(LIMITS.maxConnectionsPerAddress);
    for (const d of timedOut) expect(d).toMatch(/^HTTP\/1\.1 408 /);
    // Their slots are free again.
    expect(await get(server, ME, '127.0.0.1')).toBe(401);
  });

  it('closes a connection that trickles its body at the request timeout, not a realtime socket open as long', async () => {
    // A websocket outlives its upgrade request: no request or keep-alive timeout may cut it.
    const cookie = await server.login('user');
    const socket = io(server.url, { path: SOCKET_PATH, transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: { cookie }, localAddress: '127.0.0.2' } as Parameters<typeof io>[1]);
    await connected(socket);
    let dropped = '';
    socket.on('disconnect', (reason) => (dropped = reason));
    const body = trickle(server, `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`, ' ');
    await body.connected;
    expect(await get(server, ME, '127.0.0.2')).toBe(401);
    expect(await body.closed).toMatch(/^HTTP\/1\.1 408 /);
    expect(dropped).toBe('');
    expect(socket.connected).toBe(true);
    socket.close();
  });

  it('closes an idle keep-alive connection at its timeout', async () => {
    const idle = trickle(server, `GET ${ME} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`, '');
    await idle.connected;
    const answer = await idle.closed;
    // One answer, then the server closed the connection the client left open.
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });

  it('reads the settings in seconds, with sane defaults, and refuses nonsense', () => {
    expect(readConfig({}).connections).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 300_000, keepAliveTimeoutMs: 72_000, maxConnectionsPerAddress: 100 });
    expect(readConfig({}).connections).toEqual(DEFAULT_CONNECTION_LIMITS);
    expect(readConfig({ HEADERS_TIMEOUT: '2.5', REQUEST_TIMEOUT: '60', KEEP_ALIVE_TIMEOUT: '5', MAX_CONNECTIONS_PER_ADDRESS: '0' }).connections).toEqual({
      headersTimeoutMs: 2500,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 5000,
      maxConnectionsPerAddress: 0,
    });
    expect(() => readConfig({ HEADERS_TIMEOUT: 'soon' })).toThrow(/HEADERS_TIMEOUT/);
    expect(() => readConfig({ HEADERS_TIMEOUT: '0' })).toThrow(/HEADERS_TIMEOUT/);
    expect(() => readConfig({ MAX_CONNECTIONS_PER_ADDRESS: '2.5' })).toThrow(/MAX_CONNECTIONS_PER_ADDRESS/);
    expect(() => readConfig({ HEADERS_TIMEOUT: '120', REQUEST_TIMEOUT: '60' })).toThrow(/HEADERS_TIMEOUT .* REQUEST_TIMEOUT/);
  });
});
