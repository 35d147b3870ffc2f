/**
 * The buyer's checkout (issue 52 point 3; src/features/checkout/server.ts) through the real HTTP API on
 * every engine: one order per seller under one orderId in one transaction, prices frozen from the
 * products in cents with a commission line per item, the ledger's balanced transaction; the
 * Idempotency-Key (the same key answers the same result, never a second order, even at once); the stock
 * race (50 concurrent checkouts of a stock of 5: exactly 5 orders, the rest 409 'Out of stock', nothing
 * written for them); a failure between two sellers' orders commits nothing; an empty cart 400; amounts
 * a client tampers with are never read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CART_ITEMS } from '../../resources/cart.ts';
import { CHECKOUT_MESSAGES } from '../../resources/orders.ts';
import { COMMISSION_FIELDS, commissionCents, parsePrice } from '../../src/domain/commission.ts';
import { checkoutFaults } from '../../src/features/checkout/server.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch } from './fixtures/catalogue.ts';
import { accounts, approvedProduct, checkout, newKey, paymentMethod, putInCart, type Shop } from './fixtures/shop.ts';

describe.each(engines)('checkout API (%s)', (engine) => {
  let server: TestServer;
  let shop: Shop;
  let sellerA: { id: string; cookie: string };
  let sellerB: { id: string; cookie: string };

  beforeAll(async () => {
    server = await startTestServer({ engine });
    const admin = await server.login('admin');
    const branch = await makeBranch(server, admin);
    shop = { server, admin, branch, paymentMethod: await paymentMethod(server, admin) };
    [sellerA, sellerB] = await Promise.all([account(server, 'seller'), account(server, 'seller')]);
  }, 120_000);
  afterAll(() => server?.close());

  const count = async (table: string, field?: string, value?: string) => {
    let q = server.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
    if (field) q = q.where(field, '=', value!);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  const stockOf = async (id: string) => Number((await server.db.selectFrom('products').select('stock').where('id', '=', id).executeTakeFirstOrThrow()).stock);
  const ledgerOf = (orderIds: string[]) => server.db.selectFrom('ledgerEntries').selectAll().where('order', 'in', orderIds).execute();

  it('splits the cart into one order per seller under one orderId, prices frozen in cents, the ledger balanced', async () => {
    const buyer = await account(server, 'user');
    const a = await approvedProduct(shop, sellerA.cookie, 10.01, 10, 2.5);
    const b = await approvedProduct(shop, sellerB.cookie, 20, 10, 2);
    await putInCart(server, buyer.cookie, a.id, 3);
    await putInCart(server, buyer.cookie, b.id, 1);
    const res = await checkout(server, buyer.cookie, shop.paymentMethod);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { orderId, orders } = res.body;
    expect(orders).toHaveLength(2);
    expect(new Set(orders.map((o: any) => o.orderId))).toEqual(new Set([orderId]));
    const ofA = orders.find((o: any) => o.sellerId === sellerA.id);
    // 10.01 at 2.5 % each: 25.025 cents rounds to 25 per commission, 5 of them: 10.01 + 1.25 = 11.26 a unit.
    const unit = 1001 + 5 * commissionCents(1001, 250);
    expect(ofA.products).toEqual([expect.objectContaining({ product: a.id, quantity: 3, priceCents: unit, sellerPriceCents: 1001, price: unit / 100 })]);
    expect(ofA.totalCents).toBe(unit * 3);
    expect(ofA.sellerCents).toBe(1001 * 3);
    expect(ofA.totalamount).toBe((unit * 3) / 100);
    expect(ofA.commissions).toHaveLength(1);
    for (const f of COMMISSION_FIELDS) {
      expect(ofA.commissions[0][`${f}Bp`]).toBe(250);
      expect(ofA.commissions[0][`${f}Cents`]).toBe(commissionCents(1001, 250) * 3);
    }
    expect(ofA).toMatchObject({ user: buyer.id, paidstatus: 'UNPAID', status: 'PENDING', city: 'Dhaka', fulladdress: 'House 1, Road 2', paymentmethod: shop.paymentMethod });
    expect(res.body.totalCents).toBe(unit * 3 + (parsePrice(b.price) as { value: number }).value);
    // Stock taken; the cart emptied.
    expect(await stockOf(a.id)).toBe(7);
    expect(await stockOf(b.id)).toBe(9);
    expect(await count(CART_ITEMS, 'userId', buyer.id)).toBe(0);
    // The ledger: one checkout transaction per order, each summing to zero, the buyer's payment its total.
    const entries = await ledgerOf(orders.map((o: any) => o.id));
    const byTx = new Map<string, number>();
    for (const e of entries) byTx.set(String(e.transactionId), (byTx.get(String(e.transactionId)) ?? 0) + Number(e.amountCents));
    expect(byTx.size).toBe(2);
    for (const sum of byTx.values()) expect(sum).toBe(0);
    const paid = entries.filter((e: any) => e.account === 'buyer').reduce((s: number, e: any) => s - Number(e.amountCents), 0);
    expect(paid).toBe(res.body.totalCents);
    expect(entries.find((e: any) => e.account === 'sellerPayable' && e.party === sellerA.id)?.amountCents).toBe(3003);
  });

  it('answers the same key with the same result, never a second order, even when sent at once', async () => {
    const buyer = await account(server, 'user');
    const p = await approvedProduct(shop, sellerA.cookie, 5, 10);
    await putInCart(server, buyer.cookie, p.id, 2);
    const key = newKey();
    const [first, second] = await Promise.all([checkout(server, buyer.cookie, shop.paymentMethod, key), checkout(server, buyer.cookie, shop.paymentMethod, key)]);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body).toEqual(first.body);
    const again = await checkout(server, buyer.cookie, shop.paymentMethod, key);
    expect(again.body).toEqual(first.body);
    expect(await count('orders', 'user', buyer.id)).toBe(1);
    expect(await stockOf(p.id)).toBe(8);
    // Another key is another checkout: the cart is empty now.
    const next = await checkout(server, buyer.cookie, shop.paymentMethod);
    expect(next.status).toBe(400);
    expect(next.body.message).toBe(CHECKOUT_MESSAGES.empty);
    // No key: refused.
    await putInCart(server, buyer.cookie, p.id, 1);
    const keyless = await checkout(server, buyer.cookie, shop.paymentMethod, null);
    expect(keyless.status).toBe(400);
    expect(keyless.body.message).toBe(CHECKOUT_MESSAGES.idempotencyKey);
  });

  it('sells a stock of 5 to exactly 5 of 50 concurrent buyers; the others 409 with nothing written', async () => {
    const p = await approvedProduct(shop, sellerA.cookie, 3, 5);
    const buyers = await accounts(server, 'user', 50);
    await Promise.all(buyers.map((b) => putInCart(server, b.cookie, p.id, 1)));
    const before = await count('ledgerEntries');
    const results = await Promise.all(buyers.map((b) => checkout(server, b.cookie, shop.paymentMethod)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(45);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.message).toBe(CHECKOUT_MESSAGES.outOfStock);
    expect(await stockOf(p.id)).toBe(0);
    const orders = await server.db.selectFrom('orders_products').select('parentId').where('product', '=', p.id).execute();
    expect(orders).toHaveLength(5);
    // The refused kept their carts, and no ledger entry but the five checkouts' was written.
    const refused = buyers.filter((_, i) => statuses[i] === 409);
    for (const b of refused.slice(0, 5)) expect(await count(CART_ITEMS, 'userId', b.id)).toBe(1);
    const ledger = await count('ledgerEntries');
    expect((ledger - before) % 5).toBe(0);
    expect(ledger - before).toBe(5 * (await ledgerOf([orders[0].parentId as string])).length);
  }, 120_000);

  it('commits nothing when a failure comes between two sellers’ orders (injected, or the second out of stock)', async () => {
    const buyer = await account(server, 'user');
    const a = await approvedProduct(shop, sellerA.cookie, 7, 4);
    const b = await approvedProduct(shop, sellerB.cookie, 9, 4);
    await putInCart(server, buyer.cookie, a.id, 2);
    await putInCart(server, buyer.cookie, b.id, 2);
    const orders = await count('orders');
    const ledger = await count('ledgerEntries');
    checkoutFaults.afterOrder = (index) => {
      if (index === 0) throw new Error('injected between two sellers');
    };
    try {
      const res = await checkout(server, buyer.cookie, shop.paymentMethod);
      expect(res.status).toBe(500);
    } finally {
      checkoutFaults.afterOrder = undefined;
    }
    const unchanged = async () => {
      expect(await count('orders')).toBe(orders);
      expect(await count('ledgerEntries')).toBe(ledger);
      expect(await stockOf(a.id)).toBe(4);
      expect(await stockOf(b.id)).toBe(4);
      expect(await count(CART_ITEMS, 'userId', buyer.id)).toBe(2);
    };
    await unchanged();
    // The second seller's product runs out after the first's order was written: the same.
    await server.db.updateTable('products').set({ stock: 1 }).where('id', '=', b.id).execute();
    const short = await checkout(server, buyer.cookie, shop.paymentMethod);
    expect(short.status).toBe(409);
    expect(short.body.message).toBe('Out of stock');
    await server.db.updateTable('products').set({ stock: 4 }).where('id', '=', b.id).execute();
    await unchanged();
    // With the fault gone, the same cart goes through.
    expect((await checkout(server, buyer.cookie, shop.paymentMethod)).status).toBe(201);
    expect(await count('orders')).toBe(orders + 2);
  });

  it('answers an empty cart and bad input 400, and a guest 401 and other roles 403', async () => {
    const buyer = await account(server, 'user');
    const empty = await checkout(server, buyer.cookie, shop.paymentMethod);
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ message: CHECKOUT_MESSAGES.empty, errors: { cart: [CHECKOUT_MESSAGES.empty] } });
    const p = await approvedProduct(shop, sellerA.cookie, 5, 10);
    await putInCart(server, buyer.cookie, p.id, 1);
    const bad = await checkout(server, buyer.cookie, shop.paymentMethod, newKey(), { address: { city: '', district: 'x', country: 'BD', fulladdress: 'y' }, senderinfo: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.senderinfo).toEqual([CHECKOUT_MESSAGES.senderinfo]);
    expect(JSON.stringify(bad.body.errors)).toContain(CHECKOUT_MESSAGES.city);
    const noMethod = await checkout(server, buyer.cookie, 'ffffffffffffffffffffffff');
    expect(noMethod.status).toBe(400);
    expect(noMethod.body.errors).toEqual({ paymentmethod: [CHECKOUT_MESSAGES.unknownPaymentMethod] });
    expect((await server.api('POST', '/api/cart/checkout', { body: {}, headers: { 'idempotency-key': 'k' } })).status).toBe(401);
    expect((await checkout(server, sellerA.cookie, shop.paymentMethod)).status).toBe(403);
    expect(await count('orders', 'user', buyer.id)).toBe(0);
  });

  it('reads every amount from the products: a tampered cart price or a sent total is never used', async () => {
    const buyer = await account(server, 'user');
    const p = await approvedProduct(shop, sellerA.cookie, 50, 10);
    // A guest cart merged with a price of one cent; the kept price tampered in storage as well.
    const merged = await server.api('POST', '/api/cart/merge', { cookie: buyer.cookie, body: { items: [{ id: p.id, quantity: 2, price: 0.01 }] } });
    expect(merged.status).toBe(200);
    await server.db.updateTable(CART_ITEMS).set({ price: 0.01, sellerPrice: 0.01 }).where('userId', '=', buyer.id).execute();
    // An amount in the body is refused outright (unknown field), with nothing written.
    const sent = await checkout(server, buyer.cookie, shop.paymentMethod, newKey(), { totalamount: 0.01 });
    expect(sent.status).toBe(400);
    expect(await count('orders', 'user', buyer.id)).toBe(0);
    const res = await checkout(server, buyer.cookie, shop.paymentMethod);
    expect(res.status).toBe(201);
    const unit = (parsePrice(p.price) as { value: number }).value;
    expect(res.body.orders[0].products[0].priceCents).toBe(unit);
    expect(res.body.totalCents).toBe(unit * 2);
  });
});
