/**
 * Payouts (issue 52 point 5; resources/payouts.ts, src/features/checkout/payout-hooks.ts) through the real
 * HTTP API on every engine: a seller asks for its own PAID and DELIVERED order only; the amount is the
 * server's (its items' seller price × quantity, as §3's string) and a tampered one is refused; one payout
 * per order (two at once: one 201, one 409); the admin pays it with an uploaded invoice (REQUESTED →
 * PAID, `status: true`), the ledger moves the amount from payable to paid out, and the seller is told.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_MESSAGES } from '../../resources/payouts.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch } from './fixtures/catalogue.ts';
import { approvedProduct, checkout, paymentMethod, putInCart, type Shop } from './fixtures/shop.ts';

type Who = { id: string; cookie: string };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

describe.each(engines)('payouts API (%s)', (engine) => {
  let server: TestServer;
  let shop: Shop;
  let admin: string;
  let seller: Who;
  let other: Who;
  let buyer: Who;

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    const branch = await makeBranch(server, admin);
    shop = { server, admin, branch, paymentMethod: await paymentMethod(server, admin) };
    [seller, other, buyer] = await Promise.all([account(server, 'seller'), account(server, 'seller'), account(server, 'user')]);
  }, 120_000);
  afterAll(() => server?.close());

  const move = async (cookie: string, id: string, name: string) => {
    const res = await server.api('POST', `/orders/${id}/transitions/${name}`, { cookie, body: {} });
    expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
  };
  /** An order of the seller's product (seller price 12.34 × 3), paid and delivered unless told. */
  async function order(done = true): Promise<any> {
    const p = await approvedProduct(shop, seller.cookie, 12.34, 10, 3);
    await putInCart(server, buyer.cookie, p.id, 3);
    const res = await checkout(server, buyer.cookie, shop.paymentMethod);
    expect(res.status).toBe(201);
    const o = res.body.orders[0];
    if (done) {
      for (const step of ['process', 'ship', 'deliver']) await move(seller.cookie, o.id, step);
      await move(admin, o.id, 'markPaid');
    }
    return o;
  }
  const request = (cookie: string, body: Record<string, unknown>) => server.api('POST', '/payouts', { cookie, body });
  const body = (o: string, extra: Record<string, unknown> = {}) => ({ name: 'bKash', details: 'Account 01700000000', order: o, ...extra });
  const payoutsOf = (o: string) => server.db.selectFrom('payouts').selectAll().where('order', '=', o).execute();

  it('takes a request for the seller’s own paid and delivered order only, the amount the server’s', async () => {
    const o = await order();
    const early = await order(false);
    const notDone = await request(seller.cookie, body(early.id));
    expect(notDone.status).toBe(400);
    expect(notDone.body.errors).toEqual({ order: [PAYOUT_MESSAGES.notPayable] });
    const notYours = await request(other.cookie, body(o.id));
    expect(notYours.status).toBe(400);
    expect(notYours.body.errors).toEqual({ order: [PAYOUT_MESSAGES.notYours] });
    expect((await request(buyer.cookie, body(o.id))).status).toBe(403);
    expect((await request(admin, body(o.id))).status).toBe(403);
    const badName = await request(seller.cookie, body(o.id, { name: 'b' }));
    expect(badName.status).toBe(400);
    expect(badName.body.errors).toEqual({ name: [PAYOUT_MESSAGES.name] });
    // A tampered amount: refused, with the server's in the message; nothing stored.
    const tampered = await request(seller.cookie, body(o.id, { amount: '99999.00' }));
    expect(tampered.status).toBe(400);
    expect(tampered.body.errors).toEqual({ amount: [PAYOUT_MESSAGES.amountMismatch('37.02')] });
    expect(await payoutsOf(o.id)).toEqual([]);

    const made = await request(seller.cookie, body(o.id, { amount: '37.02' }));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ amount: '37.02', amountCents: 3702, sellerId: seller.id, payoutStatus: 'REQUESTED', order: o.id });
    // The seller's own list; another seller sees none of it; the admin all.
    const own = await server.api('GET', '/payouts', { cookie: seller.cookie, query: { range: [0, 99] } });
    expect(own.body.map((x: any) => x.id)).toContain(made.body.id);
    expect((await server.api('GET', `/payouts/${made.body.id}`, { cookie: other.cookie })).status).toBe(404);
    expect((await server.api('GET', `/payouts/${made.body.id}`, { cookie: admin })).status).toBe(200);
  });

  it('makes one payout of two concurrent requests for one order: one 201, one 409', async () => {
    const o = await order();
    const [a, b] = await Promise.all([request(seller.cookie, body(o.id)), request(seller.cookie, body(o.id))]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    // The refusal names the field, in the 400s' shape (the dialog shows it under the order).
    const message = 'A payout with this order already exists.';
    expect([a, b].find((x) => x.status === 409)!.body).toMatchObject({ message, errors: { order: [message] } });
    expect(await payoutsOf(o.id)).toHaveLength(1);
  });

  it('is paid by the admin with an uploaded invoice: REQUESTED → PAID, the ledger moved, the seller told', async () => {
    const o = await order();
    const made = await request(seller.cookie, body(o.id));
    expect(made.status).toBe(201);
    const form = new FormData();
    form.append('endpoint', 'payoutInvoice');
    form.append('files', new Blob([new Uint8Array(PDF)], { type: 'application/pdf' }), 'invoice.pdf');
    const up = await fetch(`${server.url}/api/s3/upload`, { method: 'POST', headers: { cookie: admin }, body: form });
    expect(up.status).toBeLessThan(300);
    const uploaded = await up.json();
    const invoiceFile = (Array.isArray(uploaded) ? uploaded : uploaded.data)[0];
    expect(typeof invoiceFile).toBe('string');

    const update = (cookie: string, b: Record<string, unknown>) => server.api('PATCH', `/payouts/${made.body.id}/update`, { cookie, body: b });
    expect((await update(seller.cookie, { invoiceFile, invoiceDetails: 'Paid by bank', status: true })).status).toBe(403);
    const short = await update(admin, { invoiceFile, invoiceDetails: 'x', status: true });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual({ invoiceDetails: [PAYOUT_MESSAGES.invoiceDetails] });
    const paid = await update(admin, { invoiceFile, invoiceDetails: 'Paid by bank transfer', status: true });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ payoutStatus: 'PAID', status: true, invoiceFile });
    const told = await server.db.selectFrom('notifications').selectAll().where('userId', '=', seller.id).where('title', '=', 'Payout paid').execute();
    expect(told).toHaveLength(1);
    // The ledger: payable down and paid out up by the amount, in one balanced transaction.
    const moved = await server.db.selectFrom('ledgerEntries').selectAll().where('order', '=', o.id).where('kind', '=', 'payout').execute();
    expect(moved.map((e: any) => [e.account, e.party, Number(e.amountCents)]).sort()).toEqual([
      ['sellerPaidOut', seller.id, 3702],
      ['sellerPayable', seller.id, -3702],
    ]);
    const summary = await server.api('GET', '/ledger-entries/summary', { cookie: seller.cookie });
    expect(summary.status).toBe(200);
    expect(summary.body.paidCents).toBe(3702);
    // Paid once: paying again moves nothing.
    const again = await update(admin, { invoiceFile, invoiceDetails: 'Again', status: true });
    expect(again.status).toBeLessThan(500);
    expect(await server.db.selectFrom('ledgerEntries').selectAll().where('order', '=', o.id).where('kind', '=', 'payout').execute()).toHaveLength(2);
  });
});
