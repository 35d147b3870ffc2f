/**
 * A signed-in buyer's cart on the server (issue 52 point 2; resources/cart.ts, src/features/cart/server.ts)
 * through the real HTTP API on every engine: only buyers, each its own cart; only approved products;
 * quantities above 0 (§5) and whole; prices read from the product now (cents and formatted) with a
 * price changed since it was added marked; the line limit under a burst; the guest cart merge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CART_ITEMS, CART_MESSAGES, MAX_CART_LINES } from '../../resources/cart.ts';
import { COMMISSION_FIELDS, formatCentsMoney, parsePercent, parsePrice, quoteCommission, quoteToWire, type CommissionField } from '../../src/domain/commission.ts';
import { newId } from '../../src/server/db/id.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch, productBody, type Branch } from './fixtures/catalogue.ts';

const CART = '/api/cart';
const item = (productId: string) => `/api/cart/items/${productId}`;

/** The approval body of a seller price and one percentage for all five (prices as the server computes them). */
function approval(sellerprice: number, percent: number) {
  const bp = Object.fromEntries(COMMISSION_FIELDS.map((f) => [f, (parsePercent(percent) as { value: number }).value])) as Record<CommissionField, number>;
  return quoteToWire(quoteCommission((parsePrice(sellerprice) as { value: number }).value, bp));
}

describe.each(engines)('cart API (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let branch: Branch;
  let seller: { id: string; cookie: string };
  let buyerA: { id: string; cookie: string };
  let buyerB: { id: string; cookie: string };

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    branch = await makeBranch(server, admin);
    [seller, buyerA, buyerB] = await Promise.all([account(server, 'seller'), account(server, 'user'), account(server, 'user')]);
  }, 120_000);
  afterAll(() => server?.close());

  /** A product of the seller; approved at `sellerprice` and 2 % each unless `approve` is false. */
  async function product(sellerprice = 100, approve = true): Promise<{ id: string; price: number }> {
    const made = await server.api('POST', '/products', { cookie: seller.cookie, body: productBody(branch, { sellerprice, name: `Mug ${newId()}` }) });
    expect(made.status).toBe(201);
    if (!approve) return { id: made.body.id, price: made.body.price };
    const res = await server.api('PATCH', `/products/${made.body.id}/commission`, { cookie: admin, body: approval(sellerprice, 2) });
    expect(res.status).toBe(200);
    return { id: made.body.id, price: res.body.price };
  }
  const put = (cookie: string, productId: string, body: unknown) => server.api('PUT', item(productId), { cookie, body });
  const rows = (userId: string) => server.db.selectFrom(CART_ITEMS).selectAll().where('userId', '=', userId).execute();
  const empty = async (cookie: string) => expect((await server.api('DELETE', CART, { cookie })).status).toBe(200);

  it('answers a guest 401 and roles other than buyers 403, on every call', async () => {
    const p = await product();
    const calls: [string, string, unknown?][] = [
      ['GET', CART],
      ['PUT', item(p.id), { quantity: 1 }],
      ['DELETE', item(p.id)],
      ['DELETE', CART],
      ['POST', '/api/cart/merge', { items: [] }],
    ];
    for (const [method, path, body] of calls) {
      expect((await server.api(method, path, { body })).status, `${method} ${path}`).toBe(401);
      expect((await server.api(method, path, { body, cookie: seller.cookie })).status, `${method} ${path}`).toBe(403);
      expect((await server.api(method, path, { body, cookie: admin })).status, `${method} ${path}`).toBe(403);
    }
  });

  it('sets a quantity (adding the product), answering prices read from the product in cents and formatted', async () => {
    await empty(buyerA.cookie);
    const p = await product(100);
    expect(p.price).toBe(110); // 100 + five commissions of 2 %
    const first = await put(buyerA.cookie, p.id, { quantity: 2 });
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(1);
    expect(first.body.items[0]).toMatchObject({
      id: p.id, quantity: 2, price: 110, sellerPrice: 100, siteCommissin: 2, agentFormDealerCommission: 2, discount: 0,
      available: true, priceCents: 11000, priceFormatted: '$110.00', lineCents: 22000, lineFormatted: '$220.00', priceChanged: false,
    });
    expect(first.body.totals).toEqual({ lines: 1, quantity: 2, totalCents: 22000, total: formatCentsMoney(22000) });
    // Setting again sets (no second row), and a GET answers the same cart.
    const again = await put(buyerA.cookie, p.id, { quantity: 5 });
    expect(again.body.items.map((x: any) => x.quantity)).toEqual([5]);
    expect((await server.api('GET', CART, { cookie: buyerA.cookie })).body).toEqual(again.body);
    expect(await rows(buyerA.id)).toHaveLength(1);
  });

  it("keeps each buyer's cart its own: B neither sees nor removes A's items", async () => {
    await Promise.all([empty(buyerA.cookie), empty(buyerB.cookie)]);
    const p = await product();
    await put(buyerA.cookie, p.id, { quantity: 3 });
    expect((await server.api('GET', CART, { cookie: buyerB.cookie })).body.items).toEqual([]);
    const removed = await server.api('DELETE', item(p.id), { cookie: buyerB.cookie });
    expect(removed.status).toBe(404);
    expect(removed.body.message).toBe(CART_MESSAGES.notInCart);
    expect((await server.api('DELETE', CART, { cookie: buyerB.cookie })).status).toBe(200);
    expect((await server.api('GET', CART, { cookie: buyerA.cookie })).body.items.map((x: any) => [x.id, x.quantity])).toEqual([[p.id, 3]]);
  });

  it('refuses an unknown, malformed or unapproved product with 400 and a clear message, writing nothing', async () => {
    await empty(buyerA.cookie);
    const pending = await product(50, false);
    const cases: [string, string][] = [
      [newId(), CART_MESSAGES.unknownProduct],
      ['not-an-id', CART_MESSAGES.unknownProduct],
      ['x'.repeat(90), CART_MESSAGES.unknownProduct],
      [pending.id, CART_MESSAGES.notForSale],
    ];
    for (const [id, message] of cases) {
      const res = await put(buyerA.cookie, id, { quantity: 1 });
      expect(res.status, id.slice(0, 30)).toBe(400);
      expect(res.body).toEqual({ message, errors: { productId: [message] } });
    }
    expect(await rows(buyerA.id)).toHaveLength(0);
  });

  it('refuses quantities of 0 or less, fractions, text, too large, missing, and unknown fields (400), writing nothing', async () => {
    await empty(buyerA.cookie);
    const p = await product();
    const cases: [unknown, string, string][] = [
      [{ quantity: 0 }, 'quantity', CART_MESSAGES.quantityAboveZero],
      [{ quantity: -2 }, 'quantity', CART_MESSAGES.quantityAboveZero],
      [{ quantity: 1.5 }, 'quantity', CART_MESSAGES.quantityWhole],
      [{ quantity: '2' }, 'quantity', CART_MESSAGES.quantityRequired],
      [{ quantity: 10_001 }, 'quantity', CART_MESSAGES.quantityTooLarge],
      [{}, 'quantity', CART_MESSAGES.quantityRequired],
    ];
    for (const [body, field, message] of cases) {
      const res = await put(buyerA.cookie, p.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[field]).toContain(message);
    }
    const extra = await put(buyerA.cookie, p.id, { quantity: 1, price: 0.01 });
    expect(extra.status).toBe(400);
    expect(Object.keys(extra.body.errors)).toContain('price');
    for (const body of [null, [], 'text', { quantity: null }, { quantity: { $gt: 0 } }]) expect((await put(buyerA.cookie, p.id, body)).status).toBe(400);
    expect(await rows(buyerA.id)).toHaveLength(0);
  });

  it('shows a price changed since the item was added, and a product no longer for sale apart from the totals', async () => {
    await empty(buyerA.cookie);
    const [p, q] = await Promise.all([product(100), product(200)]);
    await put(buyerA.cookie, p.id, { quantity: 2 });
    await put(buyerA.cookie, q.id, { quantity: 1 });
    // The admin changes p's commission (10 % each: 100 + 50 = 150) and rejects q's.
    expect((await server.api('PATCH', `/products/${p.id}/commission`, { cookie: admin, body: approval(100, 10) })).status).toBe(200);
    expect((await server.api('POST', `/site-commissions/reject/${q.id}`, { cookie: admin, body: { message: 'Not this one.' } })).status).toBe(200);
    const cart = (await server.api('GET', CART, { cookie: buyerA.cookie })).body;
    const [a, b] = cart.items;
    expect(a).toMatchObject({ id: p.id, price: 150, priceCents: 15000, addedPrice: 110, addedPriceFormatted: '$110.00', priceChanged: true, lineFormatted: '$300.00' });
    expect(b).toMatchObject({ id: q.id, available: false, priceChanged: false, quantity: 1 });
    expect(cart.priceChanged).toBe(true);
    expect(cart.totals).toEqual({ lines: 1, quantity: 2, totalCents: 30000, total: '$300.00' });
    // Its quantity cannot be set while it is not for sale; it can be removed.
    expect((await put(buyerA.cookie, q.id, { quantity: 2 })).body.message).toBe(CART_MESSAGES.notForSale);
    const after = await server.api('DELETE', item(q.id), { cookie: buyerA.cookie });
    expect(after.status).toBe(200);
    expect(after.body.items.map((x: any) => x.id)).toEqual([p.id]);
    expect((await server.api('DELETE', item(q.id), { cookie: buyerA.cookie })).status).toBe(404);
    const emptied = await server.api('DELETE', CART, { cookie: buyerA.cookie });
    expect(emptied.body).toMatchObject({ items: [], totals: { lines: 0, quantity: 0, totalCents: 0, total: '$0.00' } });
    expect(await rows(buyerA.id)).toHaveLength(0);
  });

  it('holds one row per product and the line limit under a burst of parallel writes', async () => {
    await empty(buyerB.cookie);
    const p = await product();
    const same = await Promise.all(Array.from({ length: 20 }, (_, i) => put(buyerB.cookie, p.id, { quantity: i + 1 })));
    expect(same.every((r) => r.status === 200)).toBe(true);
    expect(await rows(buyerB.id)).toHaveLength(1);
    // Fill the cart to one line below the limit (rows of products since deleted), then race five new products.
    await empty(buyerB.cookie);
    const now = new Date().toISOString();
    const filler = Array.from({ length: MAX_CART_LINES - 1 }, () => {
      const productId = newId();
      return { id: newId(), userId: buyerB.id, productId, cartKey: `${buyerB.id}:${productId}`, quantity: 1, name: 'Gone', price: 1, createdAt: now, updatedAt: now, version: 1 };
    });
    await server.db.insertInto(CART_ITEMS).values(filler).execute();
    const fresh = await Promise.all(Array.from({ length: 5 }, () => product()));
    const raced = await Promise.all(fresh.map((x) => put(buyerB.cookie, x.id, { quantity: 1 })));
    expect(raced.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of raced.filter((x) => x.status !== 200)) expect(r.body).toMatchObject({ message: CART_MESSAGES.full });
    expect(await rows(buyerB.id)).toHaveLength(MAX_CART_LINES);
    // Items gone from the catalogue are shown, not counted.
    const cart = (await server.api('GET', CART, { cookie: buyerB.cookie })).body;
    expect(cart.items.filter((x: any) => !x.available)).toHaveLength(MAX_CART_LINES - 1);
    expect(cart.totals.lines).toBe(1);
    await empty(buyerB.cookie);
  });

  it("merges a guest's cart by the add rule, skipping what cannot be bought", async () => {
    await empty(buyerA.cookie);
    const [held, fresh, pending] = await Promise.all([product(100), product(10), product(10, false)]);
    await put(buyerA.cookie, held.id, { quantity: 2 });
    const unknown = newId();
    const res = await server.api('POST', '/api/cart/merge', {
      cookie: buyerA.cookie,
      body: {
        items: [
          { id: held.id, quantity: 3 },
          { id: fresh.id, quantity: 1, price: 9.5 },
          { id: fresh.id, quantity: 2 },
          { id: unknown, quantity: 1 },
          { id: pending.id, quantity: 1 },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.items.map((x: any) => [x.id, x.quantity])).toEqual([[held.id, 5], [fresh.id, 3]]);
    // The price the guest added it at is kept: 11.00 now against 9.50 then.
    expect(res.body.items[1]).toMatchObject({ price: 11, addedPrice: 9.5, priceChanged: true });
    expect(res.body.skipped).toEqual([
      { id: unknown, message: CART_MESSAGES.unknownProduct },
      { id: pending.id, message: CART_MESSAGES.notForSale },
    ]);
    const bad = await server.api('POST', '/api/cart/merge', { cookie: buyerA.cookie, body: { items: [{ id: held.id, quantity: 0 }] } });
    expect(bad.status).toBe(400);
    expect((await server.api('POST', '/api/cart/merge', { cookie: buyerA.cookie, body: { items: [{ id: held.id, quantity: 1, name: 'x' }] } })).status).toBe(400);
    expect((await server.api('POST', '/api/cart/merge', { cookie: buyerA.cookie, body: { items: Array.from({ length: MAX_CART_LINES + 1 }, () => ({ id: held.id, quantity: 1 })) } })).body.message).toBeTruthy();
    expect((await server.api('GET', CART, { cookie: buyerA.cookie })).body.items.map((x: any) => x.quantity)).toEqual([5, 3]);
  });
});
