/**
 * Orders (issue 52 point 4; resources/orders.ts) through the real HTTP API on every engine: the reads of
 * each role (the admin's `GET /orders`, by a dealer's sellers with `dealerId`; a dealer's own, the orders
 * naming it; a seller's
 * `/orders/seller`; a buyer's `/orders/user` and `/user/stack`; one order; one purchase's orders), the
 * declared states (paid status and delivery status, who may make each move, any other refused 409), the
 * stock given back and the ledger reversed on a cancellation, and each transition notifying the buyer
 * and the seller (never the one who made it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch } from './fixtures/catalogue.ts';
import { approvedProduct, checkout, paymentMethod, putInCart, type Shop } from './fixtures/shop.ts';

type Who = { id: string; cookie: string };
const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

describe.each(engines)('orders API (%s)', (engine) => {
  let server: TestServer;
  let shop: Shop;
  let admin: string;
  let dealer: Who;
  let sellerA: Who;
  let sellerB: Who;
  let buyerX: Who;
  let buyerY: Who;
  let productA: { id: string };
  let productB: { id: string };
  let xA: any; // buyer X's order of seller A
  let xB: any; // buyer X's order of seller B
  let yA: any; // buyer Y's order of seller A
  let purchaseX: string;

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    const branch = await makeBranch(server, admin);
    shop = { server, admin, branch, paymentMethod: await paymentMethod(server, admin) };
    dealer = await account(server, 'dealer');
    [sellerA, sellerB, buyerX, buyerY] = await Promise.all([account(server, 'seller', dealer.id), account(server, 'seller'), account(server, 'user'), account(server, 'user')]);
    productA = await approvedProduct(shop, sellerA.cookie, 10, 10);
    productB = await approvedProduct(shop, sellerB.cookie, 20, 10);
    await putInCart(server, buyerX.cookie, productA.id, 2);
    await putInCart(server, buyerX.cookie, productB.id, 3);
    const x = await checkout(server, buyerX.cookie, shop.paymentMethod);
    expect(x.status, JSON.stringify(x.body)).toBe(201);
    purchaseX = x.body.orderId;
    xA = x.body.orders.find((o: any) => o.sellerId === sellerA.id);
    xB = x.body.orders.find((o: any) => o.sellerId === sellerB.id);
    await putInCart(server, buyerY.cookie, productA.id, 1);
    const y = await checkout(server, buyerY.cookie, shop.paymentMethod);
    expect(y.status).toBe(201);
    yA = y.body.orders[0];
  }, 120_000);
  afterAll(() => server?.close());

  const get = (cookie: string, path: string, query: Record<string, unknown> = { range: [0, 999] }) => server.api('GET', path, { cookie, query });
  const move = (cookie: string, id: string, name: string) => server.api('POST', `/orders/${id}/transitions/${name}`, { cookie, body: {} });
  const notes = async (userId: string, title: string) =>
    (await server.db.selectFrom('notifications').selectAll().where('userId', '=', userId).where('title', '=', title).execute()).length;
  const stockOf = async (id: string) => Number((await server.db.selectFrom('products').select('stock').where('id', '=', id).executeTakeFirstOrThrow()).stock);

  it('answers each role its reads: the admin all (by dealer), a seller its own, a buyer its own', async () => {
    const all = await get(admin, '/orders');
    expect(all.status).toBe(200);
    expect(ids(all.body)).toEqual(expect.arrayContaining([xA.id, xB.id, yA.id].sort()));
    const byDealer = await get(admin, '/orders', { range: [0, 999], dealerId: dealer.id });
    expect(byDealer.status).toBe(200);
    expect(ids(byDealer.body)).toEqual([xA.id, yA.id].sort());
    // The same list, within each one's reach: a seller the orders of its products, a buyer its own.
    expect(ids((await get(sellerA.cookie, '/orders')).body)).toEqual([xA.id, yA.id].sort());
    expect(ids((await get(sellerB.cookie, '/orders')).body)).toEqual([xB.id]);
    expect(ids((await get(buyerX.cookie, '/orders')).body)).toEqual([xA.id, xB.id].sort());
    expect(ids((await get(buyerY.cookie, '/orders')).body)).toEqual([yA.id]);

    const ofSeller = await get(sellerA.cookie, '/orders/seller');
    expect(ofSeller.status).toBe(200);
    expect(ids(ofSeller.body)).toEqual([xA.id, yA.id].sort());
    expect((await get(buyerX.cookie, '/orders/seller')).status).toBe(403);

    const ofBuyer = await get(buyerX.cookie, '/orders/user');
    expect(ids(ofBuyer.body)).toEqual([xA.id, xB.id].sort());
    const stack = await get(buyerX.cookie, '/user/stack', {});
    expect(stack.status).toBe(200);
    expect(Object.keys(stack.body)).toEqual([purchaseX]);
    expect(ids(stack.body[purchaseX])).toEqual([xA.id, xB.id].sort());

    // One order: its reader only; anyone else 404.
    const one = await get(buyerX.cookie, `/orders/${xA.id}`, {});
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: xA.id, orderId: purchaseX, senderfile: '/logo.jpg', senderinfo: expect.any(String), paymentmethod: shop.paymentMethod });
    expect(one.body.products[0]).toMatchObject({ product: productA.id, quantity: 2 });
    expect((await get(buyerY.cookie, `/orders/${xA.id}`, {})).status).toBe(404);
    expect((await get(sellerB.cookie, `/orders/${xA.id}`, {})).status).toBe(404);
    expect((await get(sellerA.cookie, `/orders/${xA.id}`, {})).status).toBe(200);

    // One purchase: the buyer both its orders, a seller only its own of them.
    expect(ids((await get(buyerX.cookie, `/orders/${purchaseX}/orderid`)).body)).toEqual([xA.id, xB.id].sort());
    expect(ids((await get(sellerA.cookie, `/orders/${purchaseX}/orderid`)).body)).toEqual([xA.id]);
    expect(ids((await get(admin, `/orders/${purchaseX}/orderid`)).body)).toEqual([xA.id, xB.id].sort());
    expect((await get(buyerY.cookie, `/orders/${purchaseX}/orderid`)).body).toEqual([]);
  });

  it('answers a dealer the orders of its sellers (those naming it), read only', async () => {
    const other = await account(server, 'dealer');
    const mine = await get(dealer.cookie, '/orders');
    expect(mine.status).toBe(200);
    expect(ids(mine.body)).toEqual([xA.id, yA.id].sort());
    expect(mine.headers.get('content-range')).toMatch(/\/2$/);
    expect((await get(other.cookie, '/orders')).body).toEqual([]);
    // One order: within reach, or as if it did not exist.
    expect((await get(dealer.cookie, `/orders/${xA.id}`, {})).status).toBe(200);
    expect((await get(dealer.cookie, `/orders/${xB.id}`, {})).status).toBe(404);
    expect((await get(other.cookie, `/orders/${xA.id}`, {})).status).toBe(404);
    // One purchase: only the part of it that is its sellers'.
    expect(ids((await get(dealer.cookie, `/orders/${purchaseX}/orderid`)).body)).toEqual([xA.id]);
    // It moves nothing, and reads no seller's or buyer's own list.
    expect((await move(dealer.cookie, yA.id, 'process')).status).toBe(403);
    expect((await get(dealer.cookie, '/orders/seller')).status).toBe(403);
    expect((await get(dealer.cookie, '/orders/user')).status).toBe(403);
  });

  it('moves the delivery and paid statuses only as declared, each move telling the buyer and the seller', async () => {
    // Out of order, or by a role that may not: refused, nothing moved.
    expect((await move(sellerA.cookie, xA.id, 'ship')).status).toBe(409);
    expect((await move(buyerX.cookie, xA.id, 'process')).status).toBe(403);
    expect((await move(sellerB.cookie, xA.id, 'process')).status).toBe(404);
    expect((await move(sellerA.cookie, xA.id, 'markPaid')).status).toBe(403);

    const processed = await move(sellerA.cookie, xA.id, 'process');
    expect(processed.status, JSON.stringify(processed.body)).toBe(200);
    expect(processed.body.status).toBe('PROCESSING');
    expect(await notes(buyerX.id, 'Order processing')).toBe(1);
    expect(await notes(sellerA.id, 'Order processing')).toBe(0); // it made the move itself
    expect((await move(sellerA.cookie, xA.id, 'ship')).body.status).toBe('SHIPPED');
    expect((await move(sellerA.cookie, xA.id, 'deliver')).body.status).toBe('DELIVERED');
    expect(await notes(buyerX.id, 'Order delivered')).toBe(1);

    const paid = await move(admin, xA.id, 'markPaid');
    expect(paid.status).toBe(200);
    expect(paid.body.paidstatus).toBe('PAID');
    expect(await notes(buyerX.id, 'Order paid')).toBe(1);
    expect(await notes(sellerA.id, 'Order paid')).toBe(1);
    expect((await move(admin, xA.id, 'markPaid')).status).toBe(409);
    // Shipped and delivered: too late to cancel.
    expect((await move(admin, xA.id, 'cancel')).status).toBe(409);
  });

  it('gives the stock back and reverses the ledger on a cancellation, once, before it is shipped', async () => {
    const before = await stockOf(productB.id);
    const cancelled = await move(admin, xB.id, 'cancel');
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.status).toBe('CANCELLED');
    expect(await stockOf(productB.id)).toBe(before + 3);
    expect(await notes(buyerX.id, 'Order cancelled')).toBe(1);
    expect(await notes(sellerB.id, 'Order cancelled')).toBe(1);
    // A seller may not cancel.
    expect((await move(sellerA.cookie, yA.id, 'cancel')).status).toBe(403);

    const entries = await server.db.selectFrom('ledgerEntries').selectAll().where('order', '=', xB.id).execute();
    const kinds = entries.map((e: any) => e.kind);
    expect(kinds.filter((k: string) => k === 'reversal').length).toBe(kinds.filter((k: string) => k === 'checkout').length);
    expect(entries.reduce((s: number, e: any) => s + Number(e.amountCents), 0)).toBe(0);
    // Refunded after: no second reversal, no second stock.
    expect((await move(admin, xB.id, 'refund')).status).toBe(200);
    expect((await server.db.selectFrom('ledgerEntries').selectAll().where('order', '=', xB.id).execute()).length).toBe(entries.length);
    expect(await stockOf(productB.id)).toBe(before + 3);
    expect((await move(admin, xB.id, 'process')).status).toBe(409);
  });
});
