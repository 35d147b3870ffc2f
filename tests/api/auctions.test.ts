/**
 * Auctions and bids through the real HTTP API, on every engine (resources/auctions.ts,
 * src/features/auctions/; issue 52 point 8): the rules and messages, a seller's auctions of its own
 * products only, the bid step, the race of 50 bids on one auction, anti-sniping's extension and its cap
 * (refused bids never extend), the close job running once and recording the winner, the outbid bidder told.
 */
import { roleAudience } from '../../src/features/notifications/contract.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_LOG, JOB_RUNS } from '../../resources/system.ts';
import { AUCTION_SETTINGS, MAX_EXTENSION_MINUTES } from '../../src/features/auctions/rules.ts';
import { setSetting } from '../../src/server/settings/index.ts';
import { account, makeBranch, productBody, type Branch } from './fixtures/catalogue.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { approval } from './fixtures/shop.ts';

const MINUTE = 60_000;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();

async function until<T>(what: string, check: () => Promise<T | undefined | false>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Still waiting for ${what}`);
    await sleep(100);
  }
}

describe.each(engines)('auctions API (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let dealer: { id: string; cookie: string };
  let seller: { id: string; cookie: string };
  let seller2: { id: string; cookie: string };
  let buyers: { id: string; cookie: string }[];
  let branch: Branch;
  let product: string;
  let product2: string;

  const call = (method: string, path: string, cookie: string, body?: unknown, query?: Record<string, unknown>) =>
    server.api(method, path, { cookie, body, query });
  const makeProduct = async (cookie: string) => {
    const res = await call('POST', '/products', cookie, productBody(branch, { name: `Lot ${Math.random().toString(36).slice(2, 8)}` }));
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return String(res.body.id);
  };
  /** A running auction of `product` by `cookie`, ending `endsIn` ms from now. */
  const running = async (overrides: Record<string, unknown> = {}, cookie = admin) => {
    const res = await call('POST', '/auctions/', cookie, { product, price: 10, qty: 1, startdate: at(-MINUTE), enddate: at(60 * MINUTE), ...overrides });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Record<string, any>;
  };
  const bid = (who: { cookie: string }, auction: string, amount: number) => call('POST', '/auctions/bits', who.cookie, { auction, amount });
  const auctionOf = async (id: string) => (await call('GET', `/auctions/${id}`, admin)).body as Record<string, any>;
  const setting = (s: { key: string }, value: number | null) => setSetting(server.db, s.key, value === null ? null : String(value));

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    dealer = await account(server, 'dealer');
    seller = await account(server, 'seller', dealer.id);
    seller2 = await account(server, 'seller');
    buyers = await Promise.all([1, 2, 3, 4, 5].map(() => account(server, 'user')));
    branch = await makeBranch(server, admin);
    product = await makeProduct(seller.cookie);
    product2 = await makeProduct(seller2.cookie);
  }, 60_000);
  afterAll(() => server?.close(), 30_000);

  it('answers spec §5’s rules with their messages, storing nothing', async () => {
    const empty = await call('POST', '/auctions/', admin, {});
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toMatchObject({
      product: ['Product is required!'],
      price: ['Price is required!'],
      startdate: ['Start date is required!'],
      enddate: ['End date is required!'],
      qty: ['Qty must be at least 1.'],
    });
    const body = { product, price: 10, qty: 1, startdate: at(MINUTE), enddate: at(2 * MINUTE) };
    expect((await call('POST', '/auctions/', admin, { ...body, qty: 0 })).body.errors).toEqual({ qty: ['Qty must be at least 1.'] });
    expect((await call('POST', '/auctions/', admin, { ...body, qty: -3 })).body.errors).toEqual({ qty: ['Qty must be at least 1.'] });
    expect((await call('POST', '/auctions/', admin, { ...body, qty: 1.5 })).body.errors).toEqual({ qty: ['Qty must be a whole number.'] });
    expect((await call('POST', '/auctions/', admin, { ...body, price: 0 })).body.errors).toEqual({ price: ['Price must be more than 0.'] });
    expect((await call('POST', '/auctions/', admin, { ...body, price: 1.234 })).body.errors).toEqual({ price: ['Price must have at most 2 decimals.'] });
    const backwards = await call('POST', '/auctions/', admin, { ...body, enddate: body.startdate });
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors).toEqual({ enddate: ['End date must be after the start date.'] });
    expect((await call('POST', '/auctions/', admin, { ...body, startdate: 'tomorrow' })).body.errors).toEqual({ startdate: ['Must be a date and time.'] });
    expect((await call('POST', '/auctions/', admin, { ...body, sellerId: seller2.id })).status).toBe(400);
    const list = await call('GET', '/auctions/', admin, undefined, { range: [0, 999] });
    expect(list.body).toEqual([]);
  });

  it('lets a seller auction its own products only, and keeps an auction its product’s seller’s', async () => {
    const start = at(MINUTE);
    const end = at(30 * MINUTE);
    const own = await call('POST', '/auctions/', seller.cookie, { product, price: 25.5, qty: 2, startdate: start, enddate: end });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body).toMatchObject({ product, productId: product, sellerId: seller.id, status: 'OPEN', bidCount: 0, price: 25.5, qty: 2 });
    expect(Date.parse(own.body.hardEnd) - Date.parse(own.body.enddate)).toBe(MAX_EXTENSION_MINUTES * MINUTE);
    const foreign = await call('POST', '/auctions/', seller.cookie, { product: product2, price: 5, qty: 1, startdate: start, enddate: end });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual({ product: ['The product must be your own.'] });

    // The admin auctions any seller's product: the auction is that seller's.
    const byAdmin = await call('POST', '/auctions/', admin, { product: product2, price: 5, qty: 1, startdate: start, enddate: end });
    expect(byAdmin.body.sellerId).toBe(seller2.id);
    // A seller updates its own through its own call; another's is out of reach; the admin's call is not its.
    const body = { product, price: 30, qty: 1, startdate: start, enddate: end };
    const updated = await call('PATCH', `/auctions/sellers/${own.body.id}`, seller.cookie, body);
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.price).toBe(30);
    expect((await call('PATCH', `/auctions/sellers/${byAdmin.body.id}`, seller.cookie, { ...body, product: product2 })).status).toBe(404);
    expect((await call('PATCH', `/auctions/${own.body.id}`, seller.cookie, body)).status).toBe(403);
    const moved = await call('PATCH', `/auctions/${own.body.id}`, admin, { ...body, product: product2 });
    expect(moved.status).toBe(400);
    expect(moved.body.errors).toEqual({ product: ['The product must be your own.'] });
    // Reads: the seller its own, its dealer its sellers', a buyer all.
    const ids = (res: { body: { id: string }[] }) => res.body.map((x) => x.id);
    expect(ids(await call('GET', '/auctions/', seller.cookie, undefined, { range: [0, 999] }))).toEqual([own.body.id]);
    expect(ids(await call('GET', `/auctions/sellers/${dealer.id}`, dealer.cookie, undefined, { range: [0, 999] }))).toEqual([own.body.id]);
    expect(ids(await call('GET', '/auctions/users', buyers[0].cookie, undefined, { range: [0, 999] }))).toEqual(expect.arrayContaining([own.body.id, byAdmin.body.id]));
    expect((await call('GET', `/auctions/${byAdmin.body.id}`, seller.cookie)).status).toBe(404);
    expect((await call('POST', '/auctions/', buyers[0].cookie, body)).status).toBe(403);
    // Deleting: the admin any, a seller not another's.
    expect((await call('DELETE', `/auctions/${byAdmin.body.id}`, seller.cookie)).status).toBe(404);
    expect((await call('DELETE', `/auctions/${byAdmin.body.id}`, admin)).status).toBe(200);
    expect((await call('DELETE', `/auctions/${own.body.id}`, seller.cookie)).status).toBe(200);
  });

  it('takes a bid at least the starting price, then the highest plus the step, while it runs', async () => {
    await setting(AUCTION_SETTINGS.bidStepCents, 50);
    try {
      const auction = await running();
      const low = await bid(buyers[0], auction.id, 9.99);
      expect(low.status).toBe(400);
      expect(low.body.errors).toEqual({ amount: ['Your bid must be at least $10.00.'] });
      expect((await bid(buyers[0], auction.id, 10)).status).toBe(200);
      const close = await bid(buyers[1], auction.id, 10.49);
      expect(close.body.errors).toEqual({ amount: ['Your bid must be at least $10.50.'] });
      const ok = await bid(buyers[1], auction.id, 10.5);
      expect(ok.status).toBe(200);
      expect(ok.body.auction).toMatchObject({ highestBid: 10.5, bidCount: 2 });
      expect(await auctionOf(auction.id)).toMatchObject({ highestBid: 10.5, highestBidder: buyers[1].id, bidCount: 2 });
      expect((await bid(buyers[0], auction.id, 0)).body.errors).toEqual({ amount: ['Bid amount must be more than 0.'] });
      expect((await bid(buyers[0], auction.id, -5)).status).toBe(400);
      expect((await call('POST', '/auctions/bits', buyers[0].cookie, { auction: auction.id })).body.errors).toEqual({ amount: ['Bid amount is required.'] });
      expect((await call('POST', '/auctions/bits', buyers[0].cookie, { auction: auction.id, amount: 20, userId: buyers[1].id })).status).toBe(400);
      expect((await call('POST', '/auctions/bits', seller.cookie, { auction: auction.id, amount: 50 })).status).toBe(403);
      expect((await bid(buyers[0], 'ffffffffffffffffffffffff', 50)).status).toBe(404);
      const later = await running({ startdate: at(10 * MINUTE), enddate: at(20 * MINUTE) });
      const early = await bid(buyers[0], later.id, 50);
      expect(early.status).toBe(409);
      expect(early.body.message).toBe('This auction is not running.');
      // The bids as each reader sees them.
      const mine = await call('GET', '/auctions/bits/user', buyers[0].cookie, undefined, { range: [0, 999] });
      expect(mine.body.map((b: any) => [b.auction, b.amount, b.userId])).toEqual([[auction.id, 10, buyers[0].id]]);
      const pub = await call('GET', `/auctions/bits/public/${auction.id}`, buyers[2].cookie);
      expect(pub.body.bids.map((b: any) => b.amount).sort()).toEqual([10, 10.5]);
      expect(pub.body.bids[0]).not.toHaveProperty('userId');
      const sellers = await call('GET', '/auctions/sellers/bits', seller.cookie, undefined, { range: [0, 999] });
      expect(sellers.body.map((b: any) => b.amount).sort()).toEqual([10, 10.5]);
      expect((await call('GET', '/auctions/sellers/bits', seller2.cookie, undefined, { range: [0, 999] })).body).toEqual([]);
      expect((await call('GET', '/auctions/sellers/bits', dealer.cookie, undefined, { range: [0, 999] })).body).toHaveLength(2);
      expect((await call('GET', '/auctions/bits/', admin, undefined, { range: [0, 999], dealerId: dealer.id })).body).toHaveLength(2);
    } finally {
      await setting(AUCTION_SETTINGS.bidStepCents, null);
    }
  });

  it('tells the outbid bidder', async () => {
    const auction = await running();
    expect((await bid(buyers[2], auction.id, 10)).status).toBe(200);
    expect((await bid(buyers[3], auction.id, 20)).status).toBe(200);
    const told = await server.db.selectFrom('notifications').selectAll().where('userId', '=', buyers[2].id).execute();
    expect(told.map((n) => n.title)).toContain('You were outbid');
    expect(told.find((n) => n.title === 'You were outbid')!.message).toContain('$20.00');
    expect(await server.db.selectFrom('notifications').selectAll().where('userId', '=', buyers[3].id).where('title', '=', 'You were outbid').execute()).toEqual([]);
  });

  it('serialises 50 concurrent bids: one consistent highest, each accepted bid above the one before', async () => {
    const auction = await running();
    const amounts = Array.from({ length: 50 }, (_, i) => 10 + i);
    for (let i = amounts.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [amounts[i], amounts[j]] = [amounts[j], amounts[i]];
    }
    const answers = await Promise.all(amounts.map((amount, i) => bid(buyers[i % buyers.length], auction.id, amount)));
    for (const a of answers) expect([200, 400], JSON.stringify(a.body)).toContain(a.status);
    const accepted = answers.filter((a) => a.status === 200).map((a) => a.body);
    expect(accepted.length).toBeGreaterThan(0);
    // In the order they were accepted (their count), each strictly above the one before.
    const inOrder = accepted.sort((x, y) => x.auction.bidCount - y.auction.bidCount);
    expect(inOrder.map((a) => a.auction.bidCount)).toEqual(inOrder.map((_, i) => i + 1));
    for (let i = 1; i < inOrder.length; i++) expect(inOrder[i].bid.amount).toBeGreaterThan(inOrder[i - 1].bid.amount);
    const stored = await server.db.selectFrom('auctionBids').selectAll().where('auction', '=', auction.id).execute();
    expect(stored).toHaveLength(accepted.length);
    const now = await auctionOf(auction.id);
    expect(now.bidCount).toBe(accepted.length);
    expect(now.highestBid).toBe(Math.max(...stored.map((b) => Number(b.amount))));
    expect(now.highestBid).toBe(inOrder.at(-1)!.bid.amount);
  }, 60_000);

  it('extends the end of a bid in the last minutes, up to the hard end; refused bids never move it', async () => {
    const auction = await running({ enddate: at(2 * MINUTE) });
    const before = Date.parse(auction.enddate);
    // Refused (below the price): the end stays, as does its close job.
    expect((await bid(buyers[0], auction.id, 1)).status).toBe(400);
    expect((await auctionOf(auction.id)).enddate).toBe(auction.enddate);
    const t0 = Date.now();
    const ok = await bid(buyers[0], auction.id, 10);
    expect(ok.status).toBe(200);
    const moved = Date.parse(ok.body.auction.enddate);
    expect(moved).toBeGreaterThan(before);
    expect(moved).toBeGreaterThanOrEqual(t0 + 5 * MINUTE);
    expect(moved).toBeLessThanOrEqual(Date.now() + 5 * MINUTE);
    const run = await server.db.selectFrom(JOB_RUNS).selectAll().where('recordId', '=', auction.id).where('job', '=', 'close').executeTakeFirstOrThrow();
    expect(Date.parse(String(run.dueAt))).toBe(moved);
    // A bid far from the end leaves it.
    const far = await running();
    const farBid = await bid(buyers[0], far.id, 10);
    expect(farBid.body.auction.enddate).toBe(far.enddate);
    // The cap: an extension longer than the hard end allows stops at it.
    await setting(AUCTION_SETTINGS.extendMinutes, 3 * MAX_EXTENSION_MINUTES);
    try {
      const capped = await running({ enddate: at(2 * MINUTE) });
      const res = await bid(buyers[1], capped.id, 10);
      expect(res.body.auction.enddate).toBe(capped.hardEnd);
      const again = await bid(buyers[2], capped.id, 20);
      expect(again.body.auction.enddate).toBe(capped.hardEnd);
    } finally {
      await setting(AUCTION_SETTINGS.extendMinutes, null);
    }
  });

  it('closes an auction once at its end, recording the winner (none without bids)', async () => {
    const auction = await running({ enddate: at(4_000) });
    const empty = await running({ enddate: at(4_000) });
    expect((await bid(buyers[0], auction.id, 10)).status).toBe(200);
    expect((await bid(buyers[1], auction.id, 12)).status).toBe(200);
    // Bids in the last minutes extend it: put the end back to seconds away, as the admin may.
    const end = at(3_000);
    const reset = await call('PATCH', `/auctions/${auction.id}`, admin, { product, price: 10, qty: 1, startdate: auction.startdate, enddate: end });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    for (const id of [auction.id, empty.id]) await until(`auction ${id} to close`, async () => (await auctionOf(id)).status === 'CLOSED', 30_000);
    expect(await auctionOf(auction.id)).toMatchObject({ status: 'CLOSED', winnerId: buyers[1].id, winningBid: 12 });
    expect(await auctionOf(empty.id)).toMatchObject({ status: 'CLOSED', winnerId: null, winningBid: null });
    const closes = await server.db.selectFrom(AUDIT_LOG).select(['recordId']).where('action', '=', 'transition:close').where('recordId', 'in', [auction.id, empty.id]).execute();
    expect(closes.map((x) => x.recordId).sort()).toEqual([auction.id, empty.id].sort());
    const run = await server.db.selectFrom(JOB_RUNS).selectAll().where('recordId', '=', auction.id).where('job', '=', 'close').executeTakeFirstOrThrow();
    expect(run).toMatchObject({ state: 'done', attempts: 1 });
    const won = await server.db.selectFrom('notifications').selectAll().where('userId', '=', buyers[1].id).where('title', '=', 'You won an auction').execute();
    expect(won).toHaveLength(1);
    // Closed: no more bids, and the close does not happen again.
    expect((await bid(buyers[0], auction.id, 100)).status).toBe(409);
    await sleep(1_500);
    const again = await server.db.selectFrom(AUDIT_LOG).select(['recordId']).where('action', '=', 'transition:close').where('recordId', '=', auction.id).execute();
    expect(again).toHaveLength(1);
  }, 60_000);

  it('makes the winner’s order at the close: the lot at the bid each, stock taken, commissions split to the cent, the ledger balanced', async () => {
    const approved = await makeProduct(seller.cookie);
    const ok = await call('PATCH', `/products/${approved}/commission`, admin, approval(100, 2));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const short = await makeProduct(seller.cookie);
    expect((await call('PATCH', `/products/${short}/commission`, admin, approval(100, 2))).status).toBe(200);
    const stockOf = async (id: string) => Number((await server.db.selectFrom('products').select('stock').where('id', '=', id).executeTakeFirstOrThrow()).stock);
    const before = await stockOf(approved);
    const lot = await running({ product: approved, qty: 2, enddate: at(60 * MINUTE) });
    const tooMany = await running({ product: short, qty: before + 1, enddate: at(60 * MINUTE) });
    expect((await bid(buyers[2], lot.id, 133.37)).status).toBe(200);
    expect((await bid(buyers[3], tooMany.id, 50)).status).toBe(200);
    for (const a of [lot, tooMany]) {
      const reset = await call('PATCH', `/auctions/${a.id}`, admin, { product: a.product, price: 10, qty: a.qty, startdate: a.startdate, enddate: at(2_500) });
      expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    }
    for (const a of [lot, tooMany]) await until(`auction ${a.id} to close`, async () => (await auctionOf(a.id)).status === 'CLOSED', 30_000);

    const orders = await server.db.selectFrom('orders').selectAll().where('user', '=', buyers[2].id).execute();
    expect(orders).toHaveLength(1);
    const [order] = orders;
    expect(order).toMatchObject({ sellerId: seller.id, dealerId: dealer.id, paidstatus: 'UNPAID', status: 'PENDING', totalCents: 26674 });
    expect(Number(order.totalamount)).toBeCloseTo(266.74, 2);
    expect(await stockOf(approved)).toBe(before - 2);
    // The seller's price and the five commissions add up to what the winner bid, per unit and in all.
    const item = await server.db.selectFrom('orders_products').selectAll().where('parentId', '=', order.id).executeTakeFirstOrThrow();
    expect(item).toMatchObject({ product: approved, quantity: 2, priceCents: 13337 });
    const line = await server.db.selectFrom('orders_commissions').selectAll().where('parentId', '=', order.id).executeTakeFirstOrThrow();
    const commissions = ['siteCommission', 'dealerSiteCommission', 'agentSiteCommission', 'ageentFormDealerCommission', 'dealerCommissionFromSeller'].reduce((n, f) => n + Number(line[`${f}Cents`]), 0);
    expect(Number(order.sellerCents) + commissions).toBe(26674);
    // The ledger's checkout transaction of the order sums to zero and owes the seller its price.
    const entries = await server.db.selectFrom('ledgerEntries').selectAll().where('order', '=', order.id).execute();
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.reduce((n, e) => n + Number(e.amountCents), 0)).toBe(0);
    expect(entries.find((e) => e.account === 'sellerPayable')).toMatchObject({ party: seller.id, amountCents: Number(order.sellerCents) });
    const won = await server.db.selectFrom('notifications').select('message').where('userId', '=', buyers[2].id).where('title', '=', 'You won an auction').executeTakeFirstOrThrow();
    expect(won.message).toContain(String(order.orderId));

    // Short of stock: the auction closes with its winner, no order, the seller told.
    expect(await auctionOf(tooMany.id)).toMatchObject({ status: 'CLOSED', winnerId: buyers[3].id });
    expect(await server.db.selectFrom('orders').select('id').where('user', '=', buyers[3].id).execute()).toEqual([]);
    const told = await server.db.selectFrom('notifications').select('title').where('userId', '=', seller.id).where('title', '=', 'Auction won, no order made').execute();
    expect(told.length).toBeGreaterThan(0);
    // The admins: one notification for the role, however many admins there are (never one row each).
    const admins = await server.db.selectFrom('notifications').select(['userId', 'metadata']).where('title', '=', 'Auction won, no order made').where('userId', '!=', seller.id).execute();
    expect(admins).toHaveLength(1);
    expect(admins[0].userId).toBe(roleAudience('admin'));
    expect(JSON.parse(String(admins[0].metadata))).toMatchObject({ resource: 'auctions', recordId: tooMany.id });
  }, 60_000);
});
