/**
 * The records core's capabilities together, through the real HTTP API on every engine, on one fixture
 * resource declared here with the DSL as a manifest would (docs/architecture.md walks the same one):
 * buyers' orders whose lines (line items) name products, owned by the buyer and reached by each seller
 * through the lines that hold its products (ownership through a relation), a total the server computes
 * in cents in a hook (never the client's), declared states (pay, ship, expire) and a job that expires an
 * order left unpaid at its time through the records service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseSellPrice } from '../../src/domain/commission.ts';
import { createRegistry, defineResource, dialog, field, HookRefusal, read, rules, type BeforeChangeArgs, type StoredRow } from '../../src/manifest/index.ts';
import { registry as resources } from '../../resources/index.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch, productBody } from './fixtures/catalogue.ts';

const ORDERS = 'coreOrders';
const STATUSES = ['PLACED', 'PAID', 'SHIPPED', 'EXPIRED'] as const;

/** The order's total in cents, from the products' prices as stored now (the client never sends it). */
async function totalOf({ data, previous, find }: BeforeChangeArgs): Promise<StoredRow> {
  const lines = (data.lines ?? previous?.lines) as { product: string; quantity: number }[] | undefined;
  if (!lines) return data;
  let cents = 0;
  for (const [i, line] of lines.entries()) {
    const product = await find('products', 'id', line.product);
    const price = product && parseSellPrice(product.price);
    if (!price?.ok) throw new HookRefusal('Validation failed.', { [`lines.${i}.product`]: ['This product cannot be sold.'] });
    cents += price.value * line.quantity;
  }
  return { ...data, totalCents: cents };
}

const orders = defineResource({
  name: ORDERS,
  label: 'Order',
  plural: 'Orders',
  title: 'reference',
  access: {
    read: ['admin', 'seller', 'user'],
    write: ['admin', 'seller', 'user'],
    owner: {
      field: 'buyerId',
      roles: { admin: 'all', user: 'own', seller: { through: { items: 'lines', via: 'product', field: 'sellerId' } } },
    },
  },
  fields: [
    field.text('reference', { rule: rules.text(1, 'Reference is required.') }),
    field.reference('buyerId', 'users'),
    field.items('lines', {
      min: 1,
      max: 10,
      minMessage: 'An order needs at least one line!',
      maxMessage: 'An order has at most 10 lines.',
      fields: [
        field.reference('product', 'products', { rule: z.string({ error: 'Product is required!' }).min(1, 'Product is required!') }),
        field.number('quantity', { storage: 'integer', rule: z.number({ error: 'Quantity is required!' }).int().min(1, 'Quantity must be at least 1.') }),
      ],
    }),
    field.number('totalCents', { storage: 'integer' }),
    field.text('expiresAt', { rule: z.iso.datetime({ error: 'Expiry must be a date and time.' }) }),
    field.text('paidRef', { rule: rules.text(1, 'Payment reference is required.') }),
    field.select('status', STATUSES, {
      rule: z.enum(STATUSES),
      createdWith: 'PLACED',
      states: {
        transitions: [
          { name: 'pay', label: 'Mark paid', from: ['PLACED'], to: 'PAID', roles: ['admin'], requires: ['paidRef'] },
          { name: 'ship', label: 'Ship', from: ['PAID'], to: 'SHIPPED', roles: ['seller'] },
          // No role makes it: only the server's own work (the job below).
          { name: 'expire', label: 'Expire', from: ['PLACED'], to: 'EXPIRED', roles: [] },
        ],
      },
    }),
  ],
  reads: { list: read.list('GET /core-orders'), one: read.one('GET /core-orders/{id}') },
  dialogs: {
    createCoreOrder: dialog.create({ pick: ['reference', 'lines', 'expiresAt'], call: 'POST /core-orders', access: ['user'], success: 'Ordered.', failure: 'Unable to order!' }),
  },
  hooks: { beforeChange: totalOf },
  jobs: {
    expire: {
      at: 'expiresAt',
      retries: 2,
      backoff: 1,
      run: async ({ record, records }) => {
        if (record?.status === 'PLACED') await records.update(ORDERS, String(record.id), { status: 'EXPIRED' });
      },
    },
  },
});
const registry = createRegistry([...resources.resources, orders]);

describe.each(engines)('the records core, all at once (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let sellerA: { id: string; cookie: string };
  let sellerB: { id: string; cookie: string };
  let sellerC: { id: string; cookie: string };
  let buyer: { id: string; cookie: string };
  let stranger: { id: string; cookie: string };
  let productA: { id: string; price: number };
  let productB: { id: string; price: number };

  beforeAll(async () => {
    server = await startTestServer({ engine, registry });
    admin = await server.login('admin');
    [sellerA, sellerB, sellerC, buyer, stranger] = await Promise.all([
      account(server, 'seller'),
      account(server, 'seller'),
      account(server, 'seller'),
      account(server, 'user'),
      account(server, 'user'),
    ]);
    const branch = await makeBranch(server, admin);
    const make = async (cookie: string, sellerprice: number) => {
      const res = await server.api('POST', '/products', { cookie, body: productBody(branch, { sellerprice }) });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as { id: string; price: number };
    };
    productA = await make(sellerA.cookie, 100);
    productB = await make(sellerB.cookie, 12.5);
  });
  afterAll(() => server?.close());

  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
  const order = (lines: unknown, expiresAt = inAnHour(), extra: Record<string, unknown> = {}) =>
    server.api('POST', '/core-orders', { cookie: buyer.cookie, body: { reference: 'Order', lines, expiresAt, ...extra } });
  const one = (id: string, cookie: string) => server.api('GET', `/core-orders/${id}`, { cookie });
  const ids = async (cookie: string) => ((await server.api('GET', '/core-orders', { cookie })).body as { id: string }[]).map((x) => x.id);
  const move = (id: string, name: string, cookie: string, body: unknown = {}) =>
    server.api('POST', `/core-orders/${id}/transitions/${name}`, { cookie, body });

  it('writes an order with its lines and a total the server computes in cents', async () => {
    const res = await order([
      { product: productA.id, quantity: 2 },
      { product: productB.id, quantity: 1 },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ buyerId: buyer.id, status: 'PLACED' });
    const cents = (p: { price: number }) => Math.round(p.price * 100);
    const read = await one(res.body.id, buyer.cookie);
    expect(read.body.lines).toEqual([
      { product: productA.id, quantity: 2 },
      { product: productB.id, quantity: 1 },
    ]);
    expect(read.body.totalCents).toBe(cents(productA) * 2 + cents(productB));
    // The total is the server's: a client's is refused, as is a buyer naming another buyer.
    expect((await order([{ product: productA.id, quantity: 1 }], inAnHour(), { totalCents: 1 })).status).toBe(400);
    expect((await order([{ product: productA.id, quantity: 1 }], inAnHour(), { buyerId: stranger.id })).status).toBe(400);
    // A line's own rule, under the line's field; nothing written.
    const bad = await order([{ product: productA.id, quantity: 0 }]);
    expect(bad.status).toBe(400);
    expect(bad.body.errors['lines.0.quantity']).toEqual(['Quantity must be at least 1.']);
  });

  it('lets each seller reach the orders holding its products, and no other', async () => {
    const both = (await order([{ product: productA.id, quantity: 1 }, { product: productB.id, quantity: 3 }])).body.id as string;
    const onlyB = (await order([{ product: productB.id, quantity: 1 }])).body.id as string;
    expect(await ids(sellerA.cookie)).toContain(both);
    expect(await ids(sellerA.cookie)).not.toContain(onlyB);
    expect(await ids(sellerB.cookie)).toEqual(expect.arrayContaining([both, onlyB]));
    expect(await ids(sellerC.cookie)).toEqual([]);
    expect((await one(onlyB, sellerA.cookie)).status).toBe(404);
    expect((await one(onlyB, sellerB.cookie)).status).toBe(200);
    // The buyer reaches its own; another buyer nothing of it.
    expect((await one(both, buyer.cookie)).status).toBe(200);
    expect((await one(both, stranger.cookie)).status).toBe(404);
    expect(await ids(stranger.cookie)).toEqual([]);
    // A seller reaching an order so does not make one.
    expect((await server.api('POST', '/core-orders', { cookie: sellerA.cookie, body: { reference: 'X', lines: [{ product: productA.id, quantity: 1 }], expiresAt: inAnHour() } })).status).toBe(403);
  });

  it('moves an order only along its declared states, each move audited', async () => {
    const id = (await order([{ product: productA.id, quantity: 1 }])).body.id as string;
    // Shipping before payment: no transition leaves PLACED for SHIPPED.
    expect((await move(id, 'ship', sellerA.cookie)).body.message).toBe('Cannot change Status from PLACED to SHIPPED.');
    expect((await move(id, 'pay', sellerA.cookie)).status).toBe(403);
    const unpaid = await move(id, 'pay', admin);
    expect(unpaid.status).toBe(400);
    expect(unpaid.body.errors.paidRef).toEqual(['Payment reference is required.']);
    const paid = await move(id, 'pay', admin, { paidRef: 'BANK-42' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ status: 'PAID', paidRef: 'BANK-42' });
    // A seller ships only the orders it reaches through its products.
    expect((await move(id, 'ship', sellerB.cookie)).status).toBe(404);
    expect((await move(id, 'ship', sellerA.cookie)).body).toMatchObject({ status: 'SHIPPED' });
    const actions = await server.db.selectFrom('auditLog').select('action').where('recordId', '=', id).orderBy('at').orderBy('id').execute();
    expect(actions.map((a) => a.action)).toEqual(['create', 'transition:pay', 'transition:ship']);
    // Expiring is the server's own work: nobody may ask for it.
    expect((await move(id, 'expire', admin)).status).toBe(403);
  });

  it('expires an unpaid order at its time through a job, and leaves a paid one', async () => {
    const soon = new Date(Date.now() + 1_000).toISOString();
    const unpaid = (await order([{ product: productB.id, quantity: 1 }], soon)).body.id as string;
    const paid = (await order([{ product: productB.id, quantity: 1 }], soon)).body.id as string;
    expect((await move(paid, 'pay', admin, { paidRef: 'CASH' })).status).toBe(200);
    await expect.poll(async () => (await one(unpaid, admin)).body.status, { timeout: 30_000, interval: 250 }).toBe('EXPIRED');
    const entry = await server.db.selectFrom('auditLog').select(['action', 'userId']).where('recordId', '=', unpaid).where('action', '=', 'transition:expire').executeTakeFirst();
    expect(entry).toMatchObject({ action: 'transition:expire', userId: null });
    // The paid order's run found it paid and changed nothing; its job is done.
    await expect.poll(async () => (await server.db.selectFrom('jobRuns').select('state').where('recordId', '=', paid).executeTakeFirst())?.state, { timeout: 30_000, interval: 250 }).toBe('done');
    expect((await one(paid, admin)).body.status).toBe('PAID');
  });
});
