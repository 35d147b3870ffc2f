/**
 * `npm run bench -- --money [--pg] [--duration S] [--connections N]`: money moving under load (issue 52),
 * through the real routes of one server node (SQLite, or PostgreSQL with `--pg` and DATABASE_URL):
 *
 * 1. checkouts: N buyers at once, each filling its cart with two products of two sellers
 *    (`PUT /api/cart/items/{id}`) and checking out (`POST /api/cart/checkout`, a fresh Idempotency-Key
 *    each), for S seconds: checkouts a second and the checkout's latency (the cart's puts are not timed);
 *    then every product's stock taken is checked against the quantities its orders hold;
 * 2. the stock race: the same N buyers all buying one product of HOT_STOCK units, one at a time, until
 *    every one of them is told 'Out of stock' (409): exactly HOT_STOCK orders, its stock 0;
 * 3. bids on one hot auction: N buyers bidding for S seconds, each the highest it knows of plus the step
 *    (refused when another's came first: it reads the auction's bids again and goes on): accepted bids a
 *    second, answers a second and their latency; then the stored bids are checked: each accepted above
 *    the one before, the auction's highest and count those of its bids.
 *
 * Accounts and sessions are written straight into the node's database, and the stocks set there before
 * a phase (signing 50 people in through the rate-limited sign-in would measure the limiter). Written into
 * results.json under "money" (the file's other keys are kept). A check that fails exits 1.
 */
import { keepEngineResult, load, machine } from './engine-results.ts';
import { randomBytes } from 'node:crypto';
import { registry } from '../../resources/index.ts';
import { fillPath, itemsTableOf, parseCall, urlOf, type Call } from '../../src/manifest/index.ts';
import { connect, type Database } from '../../src/server/db/connect.ts';
import { benchAccounts } from './accounts.ts';
import { signInAt, startCluster, type Cluster } from '../../tests/support/nodes.ts';

/** The hot product's stock in the race (phase 2). */
export const HOT_STOCK = 100;
/** The products the checkouts buy (phase 1), of as many sellers as the demo has, two a cart. */
const PRODUCTS = 20;
/** Each product's stock for phase 1: more than any run buys. */
const AMPLE_STOCK = 1_000_000;

export interface MoneyOptions {
  pg: boolean;
  durationS: number;
  connections: number;
  out: string;
  log?: (line: string) => void;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null);
const round = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);
const latency = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1) ?? null) };
};

interface Answer {
  status: number;
  body: any;
  ms: number;
}

async function call(url: string, cookie: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Kept as text: the failure line shows it.
  }
  return { status: res.status, body: parsed, ms };
}

/** The URL path of a declared call, its parameters filled: the bench asks what the manifests declare. */
const pathOf = (call: Call, values: Record<string, unknown> = {}) => fillPath(urlOf(parseCall(call).path), values);
const CALLS = {
  setItem: registry.resource('cartItems').operations.setItem.call,
  emptyCart: registry.resource('cartItems').operations.empty.call,
  checkout: registry.resource('orders').operations.checkout.call,
  createAuction: (registry.resource('auctions').dialogs.createAuction as { call: Call }).call,
  bid: registry.resource('auctionBids').operations.place.call,
  publicBids: registry.resource('auctionBids').operations.public.call,
};

const ADDRESS = { city: 'Dhaka', district: 'Gulshan', country: 'BD', fulladdress: 'House 1, Road 2' };

export async function benchMoney({ pg, durationS, connections, out, log = console.log }: MoneyOptions): Promise<number> {
  const engine = pg ? 'postgres' : 'sqlite';
  if (pg && !process.env.DATABASE_URL?.startsWith('postgres')) throw new Error('--money --pg needs DATABASE_URL=postgres://…');
  // One node; on PostgreSQL with Redis when REDIS_URL is set (startCluster asks for it), as `npm start` would run.
  log(`money: one node on ${engine}, ${connections} buyers at once, ${durationS} s a timed phase; load ${load()}`);
  const loadAtStart = load();
  const failures: string[] = [];
  let cluster: Cluster | undefined;
  let database: Database | undefined;
  try {
    // BENCH_CPU_PROF=<folder>: the node writes a V8 CPU profile there when it stops (as servers.ts does).
    const nodeArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
    cluster = await startCluster(1, pg ? { nodeArgs } : { databaseUrl: 'sqlite', nodeArgs });
    const url = cluster.nodes[0].url;
    database = await connect(cluster.sqliteFile ? { file: cluster.sqliteFile } : { url: process.env.DATABASE_URL, schema: cluster.schema });
    const db = database.db;

    // The buyers and their sessions.
    const buyers = await benchAccounts(db, connections, 'user', 'Bench Buyer');
    const cookies = buyers.map((b) => b.cookie);

    // The demo's approved products, a few of each seller, and how the buyers pay.
    const approved = (await db
      .selectFrom('products')
      .select(['id', 'sellerId'])
      .where('comissionStatus', '=', 'APPROVED')
      .orderBy('id')
      .execute()) as { id: string; sellerId: string }[];
    const bySeller = new Map<string, string[]>();
    for (const p of approved) bySeller.set(p.sellerId, [...(bySeller.get(p.sellerId) ?? []), p.id]);
    const sellers = [...bySeller.keys()];
    if (sellers.length < 2) throw new Error(`the demo has approved products of ${sellers.length} seller(s); two are needed`);
    const products: { id: string; sellerId: string }[] = [];
    for (let k = 0; products.length < PRODUCTS && k < approved.length; k++)
      for (const s of sellers) {
        const id = bySeller.get(s)![k];
        if (id && products.length < PRODUCTS) products.push({ id, sellerId: s });
      }
    const paymentmethod = String((await db.selectFrom('paymentMethods').select('id').orderBy('id').executeTakeFirstOrThrow()).id);
    const orderItems = itemsTableOf(registry.resource('orders'), registry.resource('orders').fields.find((f) => f.name === 'products')!);
    const itemsOf = async (productId: string) =>
      Number(
        (await db.selectFrom(orderItems).select((eb) => eb.fn.sum<number>('quantity').as('n')).where('product', '=', productId).executeTakeFirst())?.n ?? 0,
      );
    const stockOf = async (productId: string) => Number((await db.selectFrom('products').select('stock').where('id', '=', productId).executeTakeFirstOrThrow()).stock);
    const checkoutOnce = (i: number) =>
      call(url, cookies[i], 'POST', pathOf(CALLS.checkout), { address: ADDRESS, paymentmethod, senderinfo: 'Bench payment, ref TX1', senderfile: '/logo.jpg' }, {
        'idempotency-key': randomBytes(12).toString('hex'),
      });
    const putInCart = async (i: number, productId: string) => {
      const res = await call(url, cookies[i], 'PUT', pathOf(CALLS.setItem, { productId }), { quantity: 1 });
      if (res.status !== 200) throw new Error(`cart: ${res.status} ${JSON.stringify(res.body)}`);
    };

    // 1. Checkouts, two sellers a cart.
    await db.updateTable('products').set({ stock: AMPLE_STOCK }).where('id', 'in', products.map((p) => p.id)).execute();
    const checkoutMs: number[] = [];
    const refused: string[] = [];
    let placed = 0;
    let ordersMade = 0;
    const deadline = performance.now() + durationS * 1000;
    const started = performance.now();
    await Promise.all(
      buyers.map(async (_, i) => {
        for (let k = 0; performance.now() < deadline; k++) {
          const first = products[(i + k) % products.length];
          // The next product of another seller.
          const second = products.find((p, j) => j > (i + k) % products.length && p.sellerId !== first.sellerId) ?? products.find((p) => p.sellerId !== first.sellerId)!;
          await putInCart(i, first.id);
          await putInCart(i, second.id);
          const res = await checkoutOnce(i);
          checkoutMs.push(res.ms);
          if (res.status === 201) {
            placed++;
            ordersMade += res.body.orders?.length ?? 0;
          } else refused.push(`${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        }
      }),
    );
    const checkoutSeconds = (performance.now() - started) / 1000;
    let oversold = 0;
    for (const p of products) {
      const taken = AMPLE_STOCK - (await stockOf(p.id));
      const ordered = await itemsOf(p.id);
      if (taken !== ordered) {
        oversold++;
        failures.push(`checkouts: product ${p.id} lost ${taken} of its stock but its orders hold ${ordered}`);
      }
    }
    if (refused.length) failures.push(`checkouts: ${refused.length} refused, e.g. ${refused[0]}`);
    if (ordersMade !== placed * 2) failures.push(`checkouts: ${placed} checkouts of two sellers made ${ordersMade} orders`);
    const checkouts = {
      placed,
      ordersMade,
      refused: refused.length,
      seconds: round(checkoutSeconds),
      perSecond: round(placed / checkoutSeconds),
      latencyMs: latency(checkoutMs),
      productsChecked: products.length,
      oversold,
    };
    log(
      `  checkouts: ${checkouts.perSecond}/s (${placed} in ${checkouts.seconds} s, ${ordersMade} orders), p50 ${checkouts.latencyMs.p50} ms, p99 ${checkouts.latencyMs.p99} ms; ` +
        `${refused.length} refused; stock taken = ordered for ${products.length - oversold} of ${products.length} products; load ${load()}`,
    );

    // 2. The stock race: everyone buys the one hot product until told it is out of stock.
    const hot = products[0].id;
    await db.updateTable('products').set({ stock: HOT_STOCK }).where('id', '=', hot).execute();
    const orderedBefore = await itemsOf(hot);
    let sold = 0;
    let outOfStock = 0;
    const strange: string[] = [];
    const raceMs: number[] = [];
    const raceStarted = performance.now();
    await Promise.all(
      buyers.map(async (_, i) => {
        for (;;) {
          await putInCart(i, hot);
          const res = await checkoutOnce(i);
          raceMs.push(res.ms);
          if (res.status === 201) sold++;
          else if (res.status === 409) {
            outOfStock++;
            // Its cart still holds the product: emptied for the next phase's buyer.
            await call(url, cookies[i], 'DELETE', pathOf(CALLS.emptyCart));
            return;
          } else return void strange.push(`${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        }
      }),
    );
    const raceSeconds = (performance.now() - raceStarted) / 1000;
    const hotStock = await stockOf(hot);
    const hotOrdered = (await itemsOf(hot)) - orderedBefore;
    if (sold !== HOT_STOCK || hotStock !== 0 || hotOrdered !== HOT_STOCK)
      failures.push(`stock race: ${sold} sold, ${hotOrdered} ordered of a stock of ${HOT_STOCK}, ${hotStock} left`);
    if (strange.length) failures.push(`stock race: ${strange.length} answers neither 201 nor 409, e.g. ${strange[0]}`);
    const race = { stock: HOT_STOCK, buyers: connections, sold, ordered: hotOrdered, outOfStock, left: hotStock, seconds: round(raceSeconds), latencyMs: latency(raceMs) };
    log(`  stock race: ${sold} sold of ${HOT_STOCK}, ${hotOrdered} ordered, ${hotStock} left, ${outOfStock} told 'Out of stock', p99 ${race.latencyMs.p99} ms`);

    // 3. Bids on one hot auction, running for an hour (no extension while measured).
    const admin = await signInAt(url, 'admin');
    const minute = 60_000;
    const made = await call(url, admin, 'POST', pathOf(CALLS.createAuction), {
      product: products[1].id,
      price: 10,
      qty: 1,
      startdate: new Date(Date.now() - minute).toISOString(),
      enddate: new Date(Date.now() + 60 * minute).toISOString(),
    });
    if (made.status !== 201) throw new Error(`auction: ${made.status} ${JSON.stringify(made.body)}`);
    const auction = String(made.body.id);
    const stepCents = 100;
    const bidMs: number[] = [];
    let accepted = 0;
    let tooLow = 0;
    const bidStrange: string[] = [];
    const highestOf = async (i: number) => {
      const res = await call(url, cookies[i], 'GET', pathOf(CALLS.publicBids, { auctionId: auction }));
      const top = Array.isArray(res.body) ? res.body[0] : res.body?.data?.[0];
      return top ? Math.round(Number(top.amount) * 100) : null;
    };
    const bidDeadline = performance.now() + durationS * 1000;
    const bidStarted = performance.now();
    await Promise.all(
      buyers.map(async (_, i) => {
        let known: number | null = null;
        while (performance.now() < bidDeadline) {
          const cents = known === null ? 1000 : known + stepCents;
          const res = await call(url, cookies[i], 'POST', pathOf(CALLS.bid), { auction, amount: cents / 100 });
          bidMs.push(res.ms);
          if (res.status === 200) {
            accepted++;
            known = Math.round(Number(res.body.auction.highestBid) * 100);
          } else if (res.status === 400) {
            tooLow++;
            known = await highestOf(i);
          } else return void bidStrange.push(`${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        }
      }),
    );
    const bidSeconds = (performance.now() - bidStarted) / 1000;
    const stored = (await db.selectFrom('auctionBids').select(['amount', 'createdAt', 'id']).where('auction', '=', auction).orderBy('createdAt').orderBy('id').execute()) as {
      amount: unknown;
    }[];
    const amounts = stored.map((b) => Math.round(Number(b.amount) * 100));
    const rising = amounts.every((a, k) => k === 0 || a >= amounts[k - 1] + stepCents);
    const after = await db.selectFrom('auctions').select(['highestBid', 'bidCount']).where('id', '=', auction).executeTakeFirstOrThrow();
    const highest = Math.round(Number(after.highestBid) * 100);
    if (stored.length !== accepted) failures.push(`bids: ${accepted} accepted, ${stored.length} stored`);
    if (!rising) failures.push('bids: a stored bid is not a step above the one before it');
    if (highest !== Math.max(...amounts) || Number(after.bidCount) !== stored.length)
      failures.push(`bids: the auction says highest ${highest} and ${after.bidCount} bids; its bids say ${Math.max(...amounts)} and ${stored.length}`);
    if (bidStrange.length) failures.push(`bids: ${bidStrange.length} answers neither 200 nor 400, e.g. ${bidStrange[0]}`);
    const bids = {
      bidders: connections,
      accepted,
      refusedTooLow: tooLow,
      seconds: round(bidSeconds),
      acceptedPerSecond: round(accepted / bidSeconds),
      answersPerSecond: round((accepted + tooLow) / bidSeconds),
      latencyMs: latency(bidMs),
      storedRising: rising,
    };
    log(
      `  bids on one auction: ${bids.acceptedPerSecond} accepted/s of ${bids.answersPerSecond} answered/s (${accepted} accepted, ${tooLow} refused as too low), ` +
        `p50 ${bids.latencyMs.p50} ms, p99 ${bids.latencyMs.p99} ms; stored bids each a step above the last: ${rising ? 'yes' : 'NO'}; load ${load()}`,
    );

    const result = {
      date: new Date().toISOString(),
      machine: machine(),
      engine,
      connections,
      durationS,
      checkouts,
      stockRace: race,
      bids,
      failures,
      loadAtStart,
      loadAtEnd: load(),
    };
    return keepEngineResult(out, 'money', engine, result, log);
  } finally {
    await database?.close();
    await cluster?.close();
  }
}
