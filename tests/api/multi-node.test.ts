/**
 * Several nodes behind one address (issue 11): two real server processes on two ports, sharing one
 * PostgreSQL schema and one Redis. What one node does, the other knows at once: a notification created
 * through A reaches a socket held by B; a category created on A is listed by B (no stale read cache); a
 * session made on A works on B, and ending it (signing out, disabling the account) on A ends it on B,
 * sockets included. Runs when DATABASE_URL and REDIS_URL are set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { urlOf } from '../../src/manifest/index.ts';
import { SOCKET_EVENTS, type NotificationWire } from '../../src/features/notifications/contract.ts';
import { clusterUnavailable, signInAt, startCluster, type Cluster } from '../support/nodes.ts';
import { connected, disconnected, nextEvent, openSocket, within } from '../support/realtime.ts';

const unavailable = clusterUnavailable();
if (unavailable) console.warn(`Multi-node tests skipped: ${unavailable} (CI sets both; see .ci/run).`);

describe.skipIf(!!unavailable)('two server nodes on one PostgreSQL and one Redis', () => {
  let cluster: Cluster;
  let a: string;
  let b: string;
  let adminOnA: string;
  const ids: Record<string, string> = {};
  const sockets: Socket[] = [];

  async function api(node: string, method: string, path: string, cookie: string, body?: unknown) {
    const res = await fetch(`${node}${urlOf(path)}`, {
      method,
      headers: { cookie, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  const socketAt = async (node: string, cookie: string) => {
    const socket = openSocket(node, { cookie, origin: node });
    sockets.push(socket);
    return connected(socket);
  };

  beforeAll(async () => {
    cluster = await startCluster(2);
    [a, b] = cluster.nodes.map((node) => node.url);
    adminOnA = await signInAt(a, 'admin').catch((error: Error) => {
      throw new Error(`${error.message}\n${cluster.nodes.map((node) => node.log()).join('\n')}`);
    });
    const users = await api(a, 'GET', '/users?range=[0,99]', adminOnA);
    expect(users.status).toBe(200);
    for (const user of users.body as { id: string; email: string }[]) ids[user.email.split('@')[0]] = user.id;
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await cluster?.close();
  }, 30_000);

  it('a session made on A works on B', async () => {
    const cookie = await signInAt(a, 'seller');
    const me = await api(b, 'GET', '/getcurrentuser', cookie);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: ids.seller });
  });

  it('a notification created through A reaches the user’s socket on B, and no one else’s', async () => {
    const seller = await socketAt(b, await signInAt(a, 'seller'));
    const agent = await socketAt(b, await signInAt(b, 'agent'));
    const agentGot: string[] = [];
    agent.on(SOCKET_EVENTS.notification, (n: NotificationWire) => agentGot.push(n.id));
    const arriving = nextEvent<NotificationWire>(seller, SOCKET_EVENTS.notification);
    const unread = nextEvent<{ unreadCount: number }>(seller, SOCKET_EVENTS.unread);
    const sent = await api(a, 'POST', '/api/notifications/enhanced', adminOnA, {
      title: 'Across nodes',
      message: 'Created on A, shown on B.',
      type: 'success',
      userId: ids.seller,
      metadata: { category: 'account' },
    });
    expect(sent.status).toBe(201);
    expect(await within(1000, arriving, 'the notification on B')).toMatchObject({ id: sent.body.id, title: 'Across nodes', userId: ids.seller });
    expect((await within(1000, unread, 'the unread count on B')).unreadCount).toBeGreaterThanOrEqual(1);
    // Emits to one socket keep their order: the agent's own comes after anything misdelivered.
    const own = nextEvent<NotificationWire>(agent, SOCKET_EVENTS.notification);
    const forAgent = await api(a, 'POST', '/api/notifications/enhanced', adminOnA, { title: 'Agent', message: 'Yours.', type: 'info', userId: ids.agent });
    expect((await within(1000, own, 'the agent’s notification on B')).id).toBe(forAgent.body.id);
    expect(agentGot).toEqual([forAgent.body.id]);
  });

  it('a category created on A is listed on B at once (B had the list cached)', async () => {
    const adminOnB = await signInAt(b, 'admin');
    const list = () => api(b, 'GET', '/categories?range=[0,999]', adminOnB);
    const before = await list();
    expect(before.status).toBe(200);
    await list(); // now certainly in B's read cache
    const name = `Across nodes ${Date.now()}`;
    const made = await api(a, 'POST', '/categories', adminOnA, { name });
    expect(made.status).toBe(201);
    const after = await list();
    expect(after.body.map((c: { name: string }) => c.name)).toContain(name);
    const renamed = `${name} (renamed)`;
    expect((await api(a, 'PATCH', `/categories/${made.body.id}`, adminOnA, { name: renamed, order: '4' })).status).toBe(200);
    expect((await list()).body.map((c: { name: string }) => c.name)).toContain(renamed);
  });

  it('signing out on A ends the session on B at once, and its socket on B closes', async () => {
    const cookie = await signInAt(a, 'support');
    expect((await api(b, 'GET', '/getcurrentuser', cookie)).status).toBe(200); // cached on B now
    const socket = await socketAt(b, cookie);
    const dropped = disconnected(socket);
    expect((await api(a, 'POST', '/api/auth/logout', cookie)).status).toBe(204);
    expect((await api(b, 'GET', '/getcurrentuser', cookie)).status).toBe(401);
    expect(await within(1000, dropped, 'the socket on B closing')).toBe('io server disconnect');
  });

  it('disabling a user on A drops its socket on B and its session there at once', async () => {
    const cookie = await signInAt(b, 'dealer');
    // Not `/getcurrentuser` (it reads the account afresh): a call that trusts B's session cache.
    const stats = () => api(b, 'GET', '/api/notifications/enhanced/stats', cookie);
    expect((await stats()).status).toBe(200);
    const socket = await socketAt(b, cookie);
    const dropped = disconnected(socket);
    const res = await api(a, 'PATCH', `/users/${ids.dealer}`, adminOnA, { role: 'dealer', status: 'DISABLED' });
    expect(res.status).toBe(200);
    expect((await stats()).status).toBe(401);
    expect(await within(1000, dropped, 'the socket on B closing')).toBe('io server disconnect');
  });
});
