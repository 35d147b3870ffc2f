/**
 * Redis unreachable (REDIS_URL pointing where nothing answers): the node still starts, answers, writes,
 * reads fresh data (its read cache trusts nothing it cannot vouch for), and its own sockets still get
 * their notifications. Runs always: it needs no Redis.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { connected, nextEvent, openSocket } from '../support/realtime.ts';
import { SOCKET_EVENTS, type NotificationWire } from '../../src/features/notifications/contract.ts';

/** A loopback port nobody listens on (taken, then released). */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('a node whose Redis is unreachable', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine: 'sqlite', app: { redisUrl: `redis://127.0.0.1:${await deadPort()}` } });
  }, 30_000);
  afterAll(() => server?.close());

  it('starts, writes and reads fresh answers', async () => {
    expect(server.app.cluster).toBeDefined();
    expect(server.app.cluster!.bus.listening()).toBe(false);
    const admin = await server.login('admin');
    const list = () => server.api('GET', '/categories', { cookie: admin, query: { range: [0, 999] } });
    expect((await list()).status).toBe(200);
    const made = await server.api('POST', '/categories', { cookie: admin, body: { name: 'While Redis was away' } });
    expect(made.status).toBe(201);
    expect((await list()).body.map((c: { name: string }) => c.name)).toContain('While Redis was away');
    expect(server.app.readCache.size).toBe(0);
  });

  it('delivers a notification to its user’s socket on this node', async () => {
    const admin = await server.login('admin');
    const seller = await server.login('seller');
    const me = await server.api('GET', '/getcurrentuser', { cookie: seller });
    const socket = await connected(openSocket(server.url, { cookie: seller }));
    try {
      const arriving = nextEvent<NotificationWire>(socket, SOCKET_EVENTS.notification);
      const sent = await server.api('POST', '/api/notifications/enhanced', {
        cookie: admin,
        body: { title: 'Still live', message: 'Redis is away.', type: 'warning', userId: me.body.id },
      });
      expect(sent.status).toBe(201);
      expect((await arriving).id).toBe(sent.body.id);
    } finally {
      socket.disconnect();
    }
  });
});
