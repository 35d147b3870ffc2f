/**
 * The double-entry ledger (issue 52 point 6; src/domain/ledger.ts) as a property, on every engine: random
 * sequences of checkouts, payments, deliveries, cancellations, refunds and payouts, made through the real
 * HTTP API, each answered as a model of the declared states predicts; after each sequence every
 * transaction's entries sum to zero, no entry was changed or removed, and every balance is what the
 * orders and payouts give (the buyers' payments, each seller's payable and paid out, the commission
 * shares), with the stock what the uncancelled orders left. Plus the reads: a seller its own entries,
 * a dealer its team's, the admin per seller.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanced, sellerSummary } from '../../src/domain/ledger.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch } from './fixtures/catalogue.ts';
import { approvedProduct, checkout, paymentMethod, putInCart, type Shop } from './fixtures/shop.ts';

type Who = { id: string; cookie: string };
type Command =
  | { kind: 'checkout'; buyer: number; product: number; quantity: number }
  | { kind: 'pay' | 'advance' | 'cancel' | 'refund' | 'payout'; order: number };

const STOCK = 6;
const NEXT: Record<string, string | undefined> = { PENDING: 'process', PROCESSING: 'ship', SHIPPED: 'deliver' };
const AFTER: Record<string, string> = { process: 'PROCESSING', ship: 'SHIPPED', deliver: 'DELIVERED' };

interface ModelOrder {
  id: string;
  seller: string;
  buyer: string;
  product: number;
  quantity: number;
  totalCents: number;
  sellerCents: number;
  paid: string;
  status: string;
  payout?: { id: string; paid: boolean; cents: number };
}

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('checkout' as const), buyer: fc.nat(1), product: fc.nat(1), quantity: fc.integer({ min: 1, max: 3 }) }) },
  ...(['pay', 'advance', 'cancel', 'refund', 'payout'] as const).map((kind) => ({ weight: 2, arbitrary: fc.record({ kind: fc.constant(kind), order: fc.nat(7) }) })),
);

describe.each(engines)('ledger (%s)', (engine) => {
  let server: TestServer;
  let shop: Shop;
  let admin: string;
  let dealer: Who;
  let sellers: Who[];
  let buyers: Who[];

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    const branch = await makeBranch(server, admin);
    shop = { server, admin, branch, paymentMethod: await paymentMethod(server, admin) };
    dealer = await account(server, 'dealer');
    sellers = await Promise.all([account(server, 'seller', dealer.id), account(server, 'seller')]);
    buyers = await Promise.all([account(server, 'user'), account(server, 'user')]);
  }, 120_000);
  afterAll(() => server?.close());

  const entriesOf = (orders: string[]) =>
    orders.length ? server.db.selectFrom('ledgerEntries').selectAll().where('order', 'in', orders).execute() : Promise.resolve([]);
  const move = (cookie: string, id: string, name: string) => server.api('POST', `/orders/${id}/transitions/${name}`, { cookie, body: {} });

  async function run(commands: Command[]) {
    const products = [await approvedProduct(shop, sellers[0].cookie, 10.01, STOCK, 2.5), await approvedProduct(shop, sellers[1].cookie, 7, STOCK, 1)];
    const stock = [STOCK, STOCK];
    const orders: ModelOrder[] = [];
    let seen: any[] = [];
    for (const c of commands) {
      if (c.kind === 'checkout') {
        const buyer = buyers[c.buyer];
        await putInCart(server, buyer.cookie, products[c.product].id, c.quantity);
        const res = await checkout(server, buyer.cookie, shop.paymentMethod);
        if (stock[c.product] < c.quantity) {
          expect(res.status).toBe(409);
          await server.api('DELETE', '/api/cart', { cookie: buyer.cookie });
          continue;
        }
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        stock[c.product] -= c.quantity;
        const o = res.body.orders[0];
        orders.push({ id: o.id, seller: o.sellerId, buyer: buyer.id, product: c.product, quantity: c.quantity, totalCents: o.totalCents, sellerCents: o.sellerCents, paid: 'UNPAID', status: 'PENDING' });
      } else {
        const o = orders[c.order];
        if (!o) continue;
        const seller = sellers.find((s) => s.id === o.seller)!;
        if (c.kind === 'pay') {
          const res = await move(admin, o.id, 'markPaid');
          const ok = o.paid === 'UNPAID' && o.status !== 'CANCELLED';
          expect(res.status).toBe(ok ? 200 : 409);
          if (ok) o.paid = 'PAID';
        } else if (c.kind === 'advance') {
          const step = NEXT[o.status] ?? 'process';
          const res = await move(seller.cookie, o.id, step);
          expect(res.status).toBe(NEXT[o.status] ? 200 : 409);
          if (NEXT[o.status]) o.status = AFTER[step];
        } else if (c.kind === 'cancel') {
          const res = await move(admin, o.id, 'cancel');
          const ok = o.status === 'PENDING' || o.status === 'PROCESSING';
          expect(res.status).toBe(ok ? 200 : 409);
          if (ok) {
            o.status = 'CANCELLED';
            stock[o.product] += o.quantity;
          }
        } else if (c.kind === 'refund') {
          const res = await move(admin, o.id, 'refund');
          const ok = o.paid !== 'REFUNDED';
          expect(res.status).toBe(ok ? 200 : 409);
          if (ok) o.paid = 'REFUNDED';
        } else {
          const res = await server.api('POST', '/payouts', { cookie: seller.cookie, body: { name: 'bKash', details: 'Account 0170', order: o.id } });
          const expected = o.payout ? 409 : o.paid === 'PAID' && o.status === 'DELIVERED' ? 201 : 400;
          expect(res.status, JSON.stringify(res.body)).toBe(expected);
          if (expected === 201) o.payout = { id: res.body.id, paid: false, cents: o.sellerCents };
          if (o.payout && !o.payout.paid) {
            const paid = await server.api('PATCH', `/payouts/${o.payout.id}/update`, { cookie: admin, body: { invoiceFile: '/invoice.pdf', invoiceDetails: 'Paid by bank', status: true } });
            expect(paid.status, JSON.stringify(paid.body)).toBe(200);
            o.payout.paid = true;
          }
        }
      }
      // Append-only: every entry seen so far is still there, unchanged.
      const now = await entriesOf(orders.map((x) => x.id));
      const byId = new Map(now.map((e: any) => [e.id, e]));
      for (const e of seen) expect(byId.get(e.id)).toEqual(e);
      seen = now;
    }

    // Every transaction sums to zero.
    const entries = await entriesOf(orders.map((x) => x.id));
    const byTx = new Map<string, any[]>();
    for (const e of entries) byTx.set(e.transactionId, [...(byTx.get(e.transactionId) ?? []), e]);
    for (const tx of byTx.values()) expect(balanced(tx.map((e) => ({ account: e.account, party: e.party, amountCents: Number(e.amountCents) })))).toBe(true);
    // Every balance is what the orders and payouts give.
    const sum = (pred: (e: any) => boolean) => entries.filter(pred).reduce((s: number, e: any) => s + Number(e.amountCents), 0);
    const live = orders.filter((o) => o.status !== 'CANCELLED' && o.paid !== 'REFUNDED');
    for (const b of buyers) expect(sum((e) => e.account === 'buyer' && e.party === b.id)).toBe(0 - live.filter((o) => o.buyer === b.id).reduce((s, o) => s + o.totalCents, 0) || 0);
    for (const s of sellers) {
      const earned = live.filter((o) => o.seller === s.id).reduce((t, o) => t + o.sellerCents, 0);
      const paidOut = orders.filter((o) => o.seller === s.id && o.payout?.paid).reduce((t, o) => t + o.payout!.cents, 0);
      expect(sum((e) => e.account === 'sellerPaidOut' && e.party === s.id)).toBe(paidOut);
      expect(sum((e) => e.account === 'sellerPayable' && e.party === s.id)).toBe(earned - paidOut);
      expect(sellerSummary(entries.filter((e: any) => e.party === s.id).map((e: any) => ({ account: e.account, amountCents: Number(e.amountCents) })), 0)).toMatchObject({ earnedCents: earned, paidCents: paidOut, dueCents: earned - paidOut });
    }
    const commissions = sum((e) => e.account.endsWith('Commission'));
    expect(commissions).toBe(live.reduce((t, o) => t + o.totalCents - o.sellerCents, 0));
    // The dealer's share goes to the first seller's dealer.
    expect(sum((e) => e.account === 'dealerCommission' && e.party !== null && e.party !== dealer.id)).toBe(0);
    // And the stock is what the uncancelled orders left.
    for (const [i, p] of products.entries()) {
      const row = await server.db.selectFrom('products').select('stock').where('id', '=', p.id).executeTakeFirstOrThrow();
      expect(Number(row.stock)).toBe(stock[i]);
    }
  }

  it('keeps every transaction at zero and every balance right over random sequences', async () => {
    await fc.assert(fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 12 }), run), { numRuns: 8 });
  }, 300_000);

  it('lets a seller read its own entries, a dealer its team’s, the admin any seller’s, and nobody write one', async () => {
    await run([{ kind: 'checkout', buyer: 0, product: 0, quantity: 1 }, { kind: 'checkout', buyer: 1, product: 1, quantity: 1 }]);
    const list = (cookie: string, filter: Record<string, unknown> = {}) => server.api('GET', '/ledger-entries', { cookie, query: { range: [0, 999], filter } });
    const own = await list(sellers[0].cookie);
    expect(own.status).toBe(200);
    expect(own.body.length).toBeGreaterThan(0);
    expect(new Set(own.body.map((e: any) => e.party))).toEqual(new Set([sellers[0].id]));
    const team = await list(dealer.cookie);
    expect(new Set(team.body.map((e: any) => e.party))).toEqual(new Set([sellers[0].id, dealer.id]));
    const perSeller = await list(admin, { party: sellers[1].id });
    expect(perSeller.body.length).toBeGreaterThan(0);
    expect(new Set(perSeller.body.map((e: any) => e.party))).toEqual(new Set([sellers[1].id]));
    expect((await list(buyers[0].cookie)).status).toBe(403);
    // The summary: its own for a seller; a dealer its team's, not another's; the admin any seller's.
    const mine = await server.api('GET', '/ledger-entries/summary', { cookie: sellers[0].cookie });
    expect(mine.status).toBe(200);
    expect(mine.body.earnedCents).toBeGreaterThan(0);
    expect((await server.api('GET', '/ledger-entries/summary', { cookie: dealer.cookie, query: { sellerId: sellers[0].id } })).body.earnedCents).toBe(mine.body.earnedCents);
    expect((await server.api('GET', '/ledger-entries/summary', { cookie: dealer.cookie, query: { sellerId: sellers[1].id } })).status).toBe(404);
    expect((await server.api('GET', '/ledger-entries/summary', { cookie: sellers[0].cookie, query: { sellerId: sellers[1].id } })).status).toBe(404);
    expect((await server.api('GET', '/ledger-entries/summary', { cookie: admin, query: { sellerId: sellers[0].id } })).body.earnedCents).toBe(mine.body.earnedCents);
    // The figures are the ledger's own sums.
    const entries = await server.db.selectFrom('ledgerEntries').select(['party', 'account', 'amountCents']).execute();
    const total = (account: string, party?: string) =>
      entries.filter((e) => e.account === account && (party === undefined || e.party === party)).reduce((n, e) => n + Number(e.amountCents), 0);
    expect(mine.body.dueCents).toBe(total('sellerPayable', sellers[0].id));
    expect(mine.body.paidCents).toBe(total('sellerPaidOut', sellers[0].id));
    expect(mine.body.earnedCents).toBe(total('sellerPayable', sellers[0].id) + total('sellerPaidOut', sellers[0].id));
    // A dealer's own summary lists each of its sellers' figures.
    const teamSummary = await server.api('GET', '/ledger-entries/summary', { cookie: dealer.cookie });
    expect(teamSummary.body.team.find((t: { sellerId: string }) => t.sellerId === sellers[0].id)).toMatchObject({ earnedCents: mine.body.earnedCents, dueCents: mine.body.dueCents });
    expect(teamSummary.body.team.some((t: { sellerId: string }) => t.sellerId === sellers[1].id)).toBe(false);
    // The admin's: the whole marketplace, and the sellers owed the most, most first.
    const whole = await server.api('GET', '/ledger-entries/summary', { cookie: admin });
    expect(whole.body.dueCents).toBe(total('sellerPayable'));
    expect(whole.body.paidCents).toBe(total('sellerPaidOut'));
    const dues = whole.body.team.map((t: { dueCents: number }) => t.dueCents);
    expect(dues).toEqual([...dues].sort((a: number, b: number) => b - a));
    expect(whole.body.team[0].dueCents).toBe(Math.max(...sellers.map((s) => total('sellerPayable', s.id))));
    // No write call exists for entries.
    const id = own.body[0].id;
    expect((await server.api('PATCH', `/ledger-entries/${id}`, { cookie: admin, body: { amountCents: 1 } })).status).toBe(404);
    expect((await server.api('DELETE', `/ledger-entries/${id}`, { cookie: admin })).status).toBe(404);
    expect((await server.api('POST', '/ledger-entries', { cookie: admin, body: { amountCents: 1 } })).status).toBe(404);
  });
});
