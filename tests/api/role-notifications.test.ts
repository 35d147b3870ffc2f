/**
 * A notification to everyone of a role (issue 54: a write's cost must not grow with its audience):
 * stored once (`userId` `role:admin`), each admin's read state apart, emitted once to the role's room.
 * Through the real HTTP API and real socket.io clients, on every engine: with 300 admins a product
 * create writes one notification row and one audit entry for it; each admin sees it unread in their list
 * and count; one admin's read leaves the others' unread; mark-all-read takes the caller's alone; an admin
 * made after it, or the one who caused it, does not see it; the admin's generic isRead cannot mark it
 * for everyone; every admin's socket hears it once, the seller's none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch, productBody, type Branch } from './fixtures/catalogue.ts';
import { collect, connected, openSocket } from '../support/realtime.ts';
import { broadcast } from '../../src/features/notifications/server/notify.ts';
import { SOCKET_EVENTS, type NotificationWire } from '../../src/features/notifications/contract.ts';
import { registry } from '../../resources/index.ts';

const ENHANCED = '/api/notifications/enhanced';
const MANY = 300;

describe.each(engines)('notifications to a role (%s)', (engine) => {
  let server: TestServer;
  let branch: Branch;
  let admins: { id: string; cookie: string }[];
  let seller: { id: string; cookie: string };
  const sockets: Socket[] = [];

  const list = async (cookie: string) => (await server.api('GET', ENHANCED, { cookie, query: { limit: '100' } })).body as { data: NotificationWire[]; unreadCount: number };
  const titled = async (cookie: string, title: string) => (await list(cookie)).data.filter((n) => n.title === title);
  const unread = async (cookie: string) => (await server.api('GET', `${ENHANCED}/stats`, { cookie })).body.unreadCount as number;

  beforeAll(async () => {
    server = await startTestServer({ engine });
    const admin = await server.login('admin');
    branch = await makeBranch(server, admin);
    seller = await account(server, 'seller');
    admins = [];
    for (let i = 0; i < 3; i++) admins.push(await account(server, 'admin'));
    // The rest of the audience, straight into the accounts (signing 300 in would measure the limiter).
    const now = new Date().toISOString();
    const rows = Array.from({ length: MANY - 3 }, (_, i) => ({ id: `${(0xa0000000 + i).toString(16)}0000000000000000`, name: `Admin ${i}`, email: `many-admin-${i}@test.example`, role: 'admin', status: 'ACTIVE', createdAt: now, updatedAt: now }));
    for (let i = 0; i < rows.length; i += 100) await server.db.insertInto('users').values(rows.slice(i, i + 100)).execute();
  }, 120_000);
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await server?.close();
  });

  it('stores one row for every admin, emits it once to the role, and shows it to each admin unread, never to the seller who caused it', async () => {
    const adminSockets = await Promise.all(admins.slice(0, 2).map(async (a) => connected(openSocket(server.url, { cookie: a.cookie }))));
    const sellerSocket = await connected(openSocket(server.url, { cookie: seller.cookie }));
    sockets.push(...adminSockets, sellerSocket);
    const heard = adminSockets.map((s) => collect<NotificationWire>(s, SOCKET_EVENTS.notification));
    const sellerHeard = collect<NotificationWire>(sellerSocket, SOCKET_EVENTS.notification);
    const auditBefore = Number((await server.db.selectFrom('auditLog').select((eb) => eb.fn.countAll().as('n')).where('resource', '=', 'notifications').executeTakeFirstOrThrow()).n);

    const made = await server.api('POST', '/products', { cookie: seller.cookie, body: productBody(branch, { name: 'Role Lamp' }) });
    expect(made.status).toBe(201);
    const stored = await server.db.selectFrom('notifications').selectAll().where('title', '=', 'Commission to review').execute();
    expect(stored.map((n) => n.userId)).toEqual(['role:admin']);
    const auditAfter = Number((await server.db.selectFrom('auditLog').select((eb) => eb.fn.countAll().as('n')).where('resource', '=', 'notifications').executeTakeFirstOrThrow()).n);
    expect(auditAfter - auditBefore).toBe(1);

    await expect.poll(() => heard.map((h) => h.length), { timeout: 5_000 }).toEqual([1, 1]);
    expect(heard[0][0]).toMatchObject({ id: stored[0].id, userId: 'role:admin', title: 'Commission to review' });
    expect(sellerHeard).toEqual([]);

    for (const a of admins) {
      const [mine] = await titled(a.cookie, 'Commission to review');
      expect(mine).toMatchObject({ id: stored[0].id, userId: a.id, isRead: false, metadata: { category: 'commission', resource: 'products' } });
      expect(await unread(a.cookie)).toBe(1);
    }
    expect(await titled(seller.cookie, 'Commission to review')).toEqual([]);
  });

  it('keeps each admin’s read apart: one reads it, the others still have it unread; a second read changes nothing', async () => {
    const [first, second] = admins;
    const [n] = await titled(first.cookie, 'Commission to review');
    const read = await server.api('POST', `${ENHANCED}/${n.id}/read`, { cookie: first.cookie });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: n.id, userId: first.id, isRead: true });
    expect(read.body.unreadCount).toBe(0);
    expect((await server.api('POST', `${ENHANCED}/${n.id}/read`, { cookie: first.cookie })).status).toBe(200);
    expect(await server.db.selectFrom('notificationReads').selectAll().where('notificationId', '=', n.id).execute()).toHaveLength(1);
    expect((await titled(first.cookie, 'Commission to review'))[0].isRead).toBe(true);
    expect((await titled(second.cookie, 'Commission to review'))[0].isRead).toBe(false);
    expect(await unread(second.cookie)).toBe(1);
    // The filters read each one's state.
    const unreadOnly = await server.api('GET', ENHANCED, { cookie: first.cookie, query: { isRead: 'false' } });
    expect(unreadOnly.body.data.map((x: NotificationWire) => x.id)).not.toContain(n.id);
    const readOnly = await server.api('GET', ENHANCED, { cookie: first.cookie, query: { isRead: 'true' } });
    expect(readOnly.body.data.map((x: NotificationWire) => x.id)).toContain(n.id);
    // Nobody else may mark it: a seller's mark of it is a 404, as one that does not exist.
    expect((await server.api('POST', `${ENHANCED}/${n.id}/read`, { cookie: seller.cookie })).status).toBe(404);
    // Nor the admin's generic isRead, which would mark it for everyone.
    const generic = await server.api('PATCH', `/notifications/${n.id}`, { cookie: first.cookie, body: { isRead: true } });
    expect(generic.status).toBe(400);
  });

  it('marks all of one admin’s read, theirs alone; a later admin and the one who caused it do not see it', async () => {
    const [, second, third] = admins;
    const all = await server.api('POST', `${ENHANCED}/mark-all-read`, { cookie: second.cookie });
    expect(all.status).toBe(200);
    expect(all.body.count).toBeGreaterThanOrEqual(1);
    expect(all.body.unreadCount).toBe(0);
    expect(await unread(third.cookie)).toBe(1);

    // Sent by an admin, about its own act: the others see it, it does not.
    const wire = await broadcast(server.app, { toRole: 'admin', title: 'Own act', message: 'Done by the third.', type: 'info', metadata: { category: 'test' }, exceptUserId: third.id }, { db: server.db, registry });
    expect(wire.userId).toBe('role:admin');
    expect(await titled(third.cookie, 'Own act')).toEqual([]);
    expect(await titled(second.cookie, 'Own act')).toHaveLength(1);

    // An admin whose account is newer than a notification does not inherit it.
    await new Promise((r) => setTimeout(r, 5));
    const later = await account(server, 'admin');
    expect(await titled(later.cookie, 'Own act')).toEqual([]);
    expect(await unread(later.cookie)).toBe(0);
  });
});
