/**
 * Live selling through the real HTTP API, on every engine (resources/live-sell.ts; issue 52 point 7):
 * a seller's live sells, a buyer's orders during one, the admin settling them through the declared
 * states (PENDING → CONFIRMED with a nonzero amount → DELIVERED, or CANCELLED before delivery) with
 * spec §5's messages, the buyer told of each change, and who sees what.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account } from './fixtures/catalogue.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

describe.each(engines)('live-sell API (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let seller: { id: string; cookie: string };
  let seller2: { id: string; cookie: string };
  let buyer: { id: string; cookie: string };
  let buyer2: { id: string; cookie: string };
  let live: string;

  const call = (method: string, path: string, cookie: string, body?: unknown, query?: Record<string, unknown>) =>
    server.api(method, path, { cookie, body, query });
  const order = async (who = buyer, orders = '<p>2 × <b>Blue scarf</b></p>') => {
    const res = await call('POST', '/live-sell/orders', who.cookie, { liveSell: live, orders });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Record<string, any>;
  };
  const settle = (id: string, body: unknown) => call('PATCH', `/live-sell/orders/${id}`, admin, body);

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    seller = await account(server, 'seller');
    seller2 = await account(server, 'seller');
    buyer = await account(server, 'user');
    buyer2 = await account(server, 'user');
    const made = await call('POST', '/live-sell', seller.cookie, { title: 'Friday scarves', link: 'https://video.example/live/1', description: '<p>Scarves</p>' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    live = made.body.id;
  }, 60_000);
  afterAll(() => server?.close(), 30_000);

  it('lets a seller post and change its own live sells, read by every signed-in role', async () => {
    const mine = await call('GET', `/live-sell/${live}`, buyer.cookie);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ title: 'Friday scarves', sellerId: seller.id });
    expect((await call('GET', '/live-sell', buyer.cookie, undefined, { range: [0, 99] })).body.map((x: any) => x.id)).toContain(live);
    expect((await call('PATCH', `/live-sell/${live}`, seller2.cookie, { title: 'Mine', link: 'https://video.example/x', description: '' })).status).toBe(404);
    expect((await call('POST', '/live-sell', buyer.cookie, { title: 'x', link: 'https://video.example/x' })).status).toBe(403);
    const bad = await call('POST', '/live-sell', seller.cookie, { title: '', link: 'https://video.example/x' });
    expect(bad.body.errors).toEqual({ title: ['Title is required!'] });
  });

  it('moves an order through its declared states with spec §5’s messages', async () => {
    const o = await order();
    expect(o).toMatchObject({ status: 'PENDING', userId: buyer.id });
    const none = await settle(o.id, {});
    expect(none.status).toBe(400);
    expect(none.body.errors).toEqual({ status: ['Please select status'] });
    expect((await settle(o.id, { status: 'LOST' })).body.errors).toEqual({ status: ['Please select status'] });
    // CONFIRMED needs a nonzero amount.
    for (const body of [{ status: 'CONFIRMED' }, { status: 'CONFIRMED', amount: 0 }, { status: 'CONFIRMED', amount: -4 }]) {
      const res = await settle(o.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors).toEqual({ amount: ['Please enter order amount'] });
    }
    expect((await call('GET', `/live-sell/orders/${o.id}`, admin)).body.status).toBe('PENDING');
    // Only along the declared moves: not delivered before it is confirmed.
    expect((await settle(o.id, { status: 'DELIVERED' })).status).toBe(409);
    const confirmed = await settle(o.id, { status: 'CONFIRMED', amount: 45.5 });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toMatchObject({ status: 'CONFIRMED', amount: 45.5 });
    expect((await settle(o.id, { status: 'PENDING' })).status).toBe(409);
    const delivered = await settle(o.id, { status: 'DELIVERED' });
    expect(delivered.body.status).toBe('DELIVERED');
    expect((await settle(o.id, { status: 'CANCELLED' })).status).toBe(409);
    const other = await order();
    expect((await settle(other.id, { status: 'CANCELLED' })).body.status).toBe('CANCELLED');
    // The buyer is told of each change, the amount as money.
    const told = await server.db.selectFrom('notifications').select(['title', 'message']).where('userId', '=', buyer.id).execute();
    expect(told.map((n) => n.title)).toEqual(expect.arrayContaining(['Live-sell order confirmed', 'Live-sell order delivered', 'Live-sell order cancelled']));
    expect(told.find((n) => n.title === 'Live-sell order confirmed')!.message).toContain('$45.50');
  });

  it('shows the admin every order and a buyer only its own, which it cannot settle', async () => {
    const o = await order(buyer);
    const o2 = await order(buyer2, '<p>1 × hat</p><img src=x onerror="alert(1)">');
    const ids = (res: { body: { id: string }[] }) => res.body.map((x) => x.id);
    const all = await call('GET', '/live-sell/orders', admin, undefined, { range: [0, 999] });
    expect(ids(all)).toEqual(expect.arrayContaining([o.id, o2.id]));
    const mine = await call('GET', '/live-sell/orders', buyer.cookie, undefined, { range: [0, 999], isUser: 'true' });
    expect(mine.status).toBe(200);
    expect(ids(mine)).toContain(o.id);
    expect(ids(mine)).not.toContain(o2.id);
    expect((await call('GET', `/live-sell/orders/${o2.id}`, buyer.cookie)).status).toBe(404);
    expect((await call('PATCH', `/live-sell/orders/${o.id}`, buyer.cookie, { status: 'CANCELLED' })).status).toBe(403);
    expect((await call('GET', '/live-sell/orders', seller.cookie, undefined, { range: [0, 999] })).status).toBe(403);
    // A buyer sends neither the status nor the amount nor another buyer.
    expect((await call('POST', '/live-sell/orders', buyer.cookie, { liveSell: live, orders: 'x', status: 'CONFIRMED' })).status).toBe(400);
    expect((await call('POST', '/live-sell/orders', buyer.cookie, { liveSell: live, orders: 'x', amount: 1 })).status).toBe(400);
    expect((await call('POST', '/live-sell/orders', buyer.cookie, { liveSell: live, orders: '' })).body.errors).toEqual({ orders: ['Please write your order.'] });
  });
});
