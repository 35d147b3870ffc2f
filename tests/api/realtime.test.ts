/**
 * The realtime socket (spec §7, issue 11) on one node over SQLite, with real socket.io clients and a raw
 * websocket: who may connect (session cookie, account state, Origin), which rooms a client may join, that
 * oversized and malformed messages close only their socket, that a notification reaches its user's
 * sockets alone, and that ending a session (signing out, disabling the account) drops its sockets.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Socket } from 'socket.io-client';
import { startTestServer, type TestServer } from '../support/server.ts';
import { collect, connectError, connected, disconnected, nextEvent, openSocket } from '../support/realtime.ts';
import { DEMO_PASSWORD, demoEmail } from '../../src/server/seed/index.ts';
import { createSession, sessionIdOf } from '../../src/server/auth/sessions.ts';
import { roleRoom, SOCKET_EVENTS, SOCKET_MAX_MESSAGE_BYTES, SOCKET_PATH, userRoom, type JoinAnswer, type NotificationWire } from '../../src/features/notifications/contract.ts';
import { NOT_SIGNED_IN } from '../../src/server/realtime/handshake.ts';
import { JOIN_REFUSED } from '../../src/server/realtime/events.ts';
import { DISABLED_MESSAGE } from '../../src/server/auth/account-state.ts';

describe('realtime socket (one node, sqlite)', () => {
  let server: TestServer;
  let admin: string;
  const ids: Record<string, string> = {};
  const open: Socket[] = [];

  /** A fresh session of a demo account (each call its own), answered as its cookie. */
  async function signIn(role: string) {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: demoEmail(role), password: DEMO_PASSWORD }),
    });
    expect(res.status).toBe(200);
    return res.headers.get('set-cookie')!.split(';')[0];
  }

  const socketOf = (options: Parameters<typeof openSocket>[1]) => {
    const socket = openSocket(server.url, options);
    open.push(socket);
    return socket;
  };

  /** Sends a notification through the real route (admins). */
  async function send(userId: string, title: string) {
    const res = await server.api('POST', '/api/notifications/enhanced', {
      cookie: admin,
      body: { title, message: `${title}, in full`, type: 'info', userId, metadata: { category: 'account' } },
    });
    expect(res.status).toBe(201);
    return res.body as NotificationWire;
  }

  beforeAll(async () => {
    server = await startTestServer({ engine: 'sqlite' });
    admin = await server.login('admin');
    for (const row of await server.db.selectFrom('users').select(['id', 'email']).execute()) ids[String(row.email).split('@')[0]] = String(row.id);
  });
  afterEach(() => {
    for (const socket of open.splice(0)) socket.disconnect();
  });
  afterAll(() => server?.close());

  describe('the handshake', () => {
    it('refuses a socket without a session, with a forged one, and with an expired one', async () => {
      expect(await connectError(socketOf({}))).toBe(NOT_SIGNED_IN);
      expect(await connectError(socketOf({ cookie: 'sid=forged-token-of-nobody' }))).toBe(NOT_SIGNED_IN);
      const { token } = await createSession(server.db, ids.seller);
      await server.db.updateTable('sessions').set({ expiresAt: new Date(Date.now() - 60_000).toISOString() }).where('id', '=', sessionIdOf(token)).execute();
      expect(await connectError(socketOf({ cookie: `sid=${token}` }))).toBe(NOT_SIGNED_IN);
    });

    it('lets a signed-in user in, from the app’s own origin or no browser, over websocket and long polling', async () => {
      const cookie = await signIn('seller');
      await connected(socketOf({ cookie }));
      await connected(socketOf({ cookie, origin: server.url }));
      await connected(socketOf({ cookie, origin: server.url, transports: ['polling'] }));
    });

    it('refuses a page of another origin, even with a live session', async () => {
      const cookie = await signIn('seller');
      expect(await connectError(socketOf({ cookie, origin: 'https://evil.example' }))).toMatch(/websocket error/);
      expect(await connectError(socketOf({ cookie, origin: 'https://evil.example', transports: ['polling'] }))).toMatch(/xhr poll error/);
      expect(await connectError(socketOf({ cookie, origin: 'null' }))).toMatch(/websocket error/);
    });
  });

  describe('rooms and presence', () => {
    it('refuses to join another user’s room or an admin room, and joins nothing', async () => {
      const socket = await connected(socketOf({ cookie: await signIn('seller') }));
      const join = (payload: unknown) => socket.emitWithAck(SOCKET_EVENTS.join, payload) as Promise<JoinAnswer>;
      expect(await join(userRoom(ids.agent))).toEqual({ ok: false, message: JOIN_REFUSED });
      expect(await join({ userId: ids.admin })).toEqual({ ok: false, message: JOIN_REFUSED });
      expect(await join('admin')).toEqual({ ok: false, message: JOIN_REFUSED });
      expect(await join('admins')).toEqual({ ok: false, message: JOIN_REFUSED });
      expect((await join({ room: 'x'.repeat(5000) })).ok).toBe(false);
      expect(await join(userRoom(ids.seller))).toEqual({ ok: true });
      const rooms = [...(server.app.realtime.io.sockets.sockets.get(socket.id!)?.rooms ?? [])];
      // Its own user's room, its session's and its role's (a notification to every seller comes there).
      const joined = rooms.filter((room) => room !== socket.id);
      expect(joined).toHaveLength(3);
      expect(joined).toEqual(expect.arrayContaining([roleRoom('seller'), userRoom(ids.seller), expect.stringMatching(/^session:/)]));
      expect(await server.app.realtime.io.in(userRoom(ids.agent)).fetchSockets()).toEqual([]);
    });

    it('keeps whether the user’s page is visible (user:online / user:offline), validated', async () => {
      const socket = await connected(socketOf({ cookie: await signIn('seller') }));
      expect(await server.app.realtime.isOnline(ids.seller)).toBe(false);
      expect(await socket.emitWithAck(SOCKET_EVENTS.online, { userId: ids.seller })).toEqual({ ok: true });
      expect(await server.app.realtime.isOnline(ids.seller)).toBe(true);
      expect((await socket.emitWithAck(SOCKET_EVENTS.offline, { userId: ids.agent })).ok).toBe(false);
      expect((await socket.emitWithAck(SOCKET_EVENTS.offline, { status: 'away' })).ok).toBe(false);
      expect(await server.app.realtime.isOnline(ids.seller)).toBe(true);
      expect(await socket.emitWithAck(SOCKET_EVENTS.offline)).toEqual({ ok: true });
      expect(await server.app.realtime.isOnline(ids.seller)).toBe(false);
    });
  });

  describe('what closes a socket, and only it', () => {
    it('a message over 1 MB closes that socket; the server and other sockets go on', async () => {
      const cookie = await signIn('seller');
      const bystander = await connected(socketOf({ cookie }));
      const socket = await connected(socketOf({ cookie }));
      const closed = disconnected(socket);
      socket.emit(SOCKET_EVENTS.online, { userId: 'x'.repeat(SOCKET_MAX_MESSAGE_BYTES + 100) });
      expect(await closed).toBe('transport close');
      expect(bystander.connected).toBe(true);
      expect(await bystander.emitWithAck(SOCKET_EVENTS.join, userRoom(ids.seller))).toEqual({ ok: true });
      expect((await server.api('GET', '/getcurrentuser', { cookie })).status).toBe(200);
    });

    it('a malformed packet closes that socket; the server goes on', async () => {
      const cookie = await signIn('seller');
      for (const junk of ['42["unclosed', '4{not a packet', 'zz', Buffer.from([0xff, 0x00, 0x13])]) {
        const raw = new WebSocket(`${server.url.replace('http', 'ws')}${SOCKET_PATH}/?EIO=4&transport=websocket`, { headers: { cookie } });
        const messages: string[] = [];
        raw.on('message', (data) => messages.push(String(data)));
        const closed = new Promise<void>((resolve) => raw.once('close', () => resolve()));
        await new Promise<void>((resolve, reject) => {
          raw.once('error', reject);
          raw.once('open', () => resolve());
        });
        raw.send('40');
        // The namespace's connect answer ('40{"sid":…}') means the session was accepted before the junk.
        await new Promise<void>((resolve) => {
          const check = () => (messages.some((m) => m.startsWith('40{')) ? resolve() : raw.once('message', check));
          check();
        });
        raw.send(junk);
        await closed;
      }
      await connected(socketOf({ cookie }));
    });
  });

  describe('delivery', () => {
    it('a notification and the unread count reach every socket of its user, and no one else’s', async () => {
      const seller = [await connected(socketOf({ cookie: await signIn('seller') })), await connected(socketOf({ cookie: await signIn('seller') }))];
      const agent = await connected(socketOf({ cookie: await signIn('agent') }));
      const agentGot = collect<NotificationWire>(agent, SOCKET_EVENTS.notification);
      const arriving = seller.map((socket) => nextEvent<NotificationWire>(socket, SOCKET_EVENTS.notification));
      const counts = seller.map((socket) => nextEvent<{ unreadCount: number }>(socket, SOCKET_EVENTS.unread));
      const sent = await send(ids.seller, 'For the seller');
      for (const got of await Promise.all(arriving)) expect(got).toMatchObject({ id: sent.id, title: 'For the seller', userId: ids.seller, isRead: false });
      const stored = await server.api('GET', '/api/notifications/enhanced/stats', { cookie: await signIn('seller') });
      for (const count of await Promise.all(counts)) expect(count).toEqual({ unreadCount: stored.body.unreadCount ?? stored.body.stats?.unreadCount });
      // Emits to one socket arrive in order: had the agent's socket been sent the seller's, it would be first.
      const own = nextEvent<NotificationWire>(agent, SOCKET_EVENTS.notification);
      const forAgent = await send(ids.agent, 'For the agent');
      expect((await own).id).toBe(forAgent.id);
      expect(agentGot.map((n) => n.id)).toEqual([forAgent.id]);
    });
  });

  describe('ending sessions', () => {
    it('signing out drops that session’s sockets, not the user’s other sessions', async () => {
      const [first, second] = [await signIn('seller'), await signIn('seller')];
      const ending = await connected(socketOf({ cookie: first }));
      const staying = await connected(socketOf({ cookie: second }));
      const dropped = disconnected(ending);
      expect((await server.api('POST', '/api/auth/logout', { cookie: first })).status).toBe(204);
      expect(await dropped).toBe('io server disconnect');
      expect(staying.connected).toBe(true);
      expect(await connectError(socketOf({ cookie: first }))).toBe(NOT_SIGNED_IN);
      const arriving = nextEvent<NotificationWire>(staying, SOCKET_EVENTS.notification);
      const sent = await send(ids.seller, 'Still here');
      expect((await arriving).id).toBe(sent.id);
    });

    it('disabling an account drops all its sockets, and it cannot connect again', async () => {
      const cookie = await signIn('dealer');
      const sockets = [await connected(socketOf({ cookie })), await connected(socketOf({ cookie: await signIn('dealer') }))];
      const dropped = sockets.map(disconnected);
      const res = await server.api('PATCH', `/users/${ids.dealer}`, { cookie: admin, body: { role: 'dealer', status: 'DISABLED' } });
      expect(res.status).toBe(200);
      expect(await Promise.all(dropped)).toEqual(['io server disconnect', 'io server disconnect']);
      expect(await connectError(socketOf({ cookie }))).toBe(NOT_SIGNED_IN);
      // A session the disabling missed (made straight in the database) is still refused by the account's state.
      const { token } = await createSession(server.db, ids.dealer);
      expect(await connectError(socketOf({ cookie: `sid=${token}` }))).toBe(DISABLED_MESSAGE);
    });
  });
});
