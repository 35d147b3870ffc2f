/**
 * A product's commission through the real HTTP API on every engine: the admin approves it
 * (`PATCH /products/{id}/commission`, the server recomputing both prices and refusing one a cent off)
 * or rejects it with a reason (`POST /site-commissions/reject/{id}`), every rule and message of the
 * five percentages, who may decide, stale decisions, and the approved lines an order freezes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMISSION_FIELDS, freezeCommissionLines } from '../../src/domain/commission.ts';
import { DEFAULT_SITE_COMMISSION } from '../../src/features/commission/defaults.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch, productBody, type Branch } from './fixtures/catalogue.ts';

/** Percentages an admin might set, and the prices they give on a seller price of 1,234.56. */
const percents = { siteCommission: 4.5, dealerSiteCommission: 2.25, agentSiteCommission: 1.5, ageentFormDealerCommission: 1, dealerCommissionFromSeller: 3.33 };
// 55.5552 → 55.56; 27.7776 → 27.78; 18.5184 → 18.52; 12.3456 → 12.35; 41.110848 → 41.11; sum 155.32.
const PRICE = 1389.88;

describe.each(engines)('product commission API (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let branch: Branch;
  let seller: { id: string; cookie: string };

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    branch = await makeBranch(server, admin);
    seller = await account(server, 'seller');
  });
  afterAll(() => server?.close());

  const newProduct = async (sellerprice = 1234.56) =>
    (await server.api('POST', '/products', { cookie: seller.cookie, body: productBody(branch, { sellerprice }) })).body as Record<string, any>;
  const approve = (id: string, body: Record<string, unknown>, cookie = admin, headers?: Record<string, string>) =>
    server.api('PATCH', `/products/${id}/commission`, { cookie, body, headers });
  const reject = (id: string, body: unknown, cookie = admin, headers?: Record<string, string>) =>
    server.api('POST', `/site-commissions/reject/${id}`, { cookie, body, headers });
  const stored = (id: string) => server.db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('approves: the percentages and the prices they give are stored, and the status is APPROVED', async () => {
    const product = await newProduct();
    const res = await approve(product.id, { sellerprice: 1234.56, ...percents, price: PRICE });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: product.id, sellerprice: 1234.56, ...percents, price: PRICE, comissionStatus: 'APPROVED', commissionRejectReason: null });
    const row = await stored(product.id);
    expect(Number(row.price)).toBe(PRICE);
    expect(row.comissionStatus).toBe('APPROVED');
    // The same request as text amounts: the server reads decimals digit by digit.
    expect((await approve(product.id, { sellerprice: 1234.56, ...percents, price: 1389.88 })).status).toBe(200);
  });

  it('refuses a price one cent off, saying under the field what it must be, and changes nothing', async () => {
    const product = await newProduct();
    for (const price of [1389.89, 1389.87, 1389, 1389.875]) {
      const res = await approve(product.id, { sellerprice: 1234.56, ...percents, price });
      expect(res.status, String(price)).toBe(400);
      if (price === 1389.875) expect(res.body.errors.price).toEqual(['price must have at most 2 decimals']);
      else {
        expect(res.body.message).toBe('price does not match the commission percentages: expected 1389.88');
        expect(res.body.errors.price).toEqual(['price must be 1389.88 (sellerprice plus the five commissions)']);
      }
    }
    // A client adding binary floats: 0.1 + 0.2 is not 0.30.
    const tiny = await newProduct(0.1);
    const floaty = await approve(tiny.id, { sellerprice: 0.1, ...DEFAULT_SITE_COMMISSION, price: 0.1 + 0.005 + 0.002 + 0.002 + 0.001 + 0.001 });
    expect(floaty.status).toBe(400);
    const row = await stored(product.id);
    expect(row.comissionStatus).toBe('PENDING');
    expect(Number(row.siteCommission)).toBe(DEFAULT_SITE_COMMISSION.siteCommission);
  });

  it("refuses a seller price other than the product's: an approval is of the price the seller set", async () => {
    const product = await newProduct(50);
    const res = await approve(product.id, { sellerprice: 60, ...DEFAULT_SITE_COMMISSION, price: 66.6 });
    expect(res.status).toBe(400);
    expect(res.body.errors.sellerprice).toEqual(["sellerprice must be 50.00, the seller's price as the product holds it now."]);
    expect((await stored(product.id)).comissionStatus).toBe('PENDING');
  });

  it.each<[Record<string, unknown>, string, string]>([
    ...COMMISSION_FIELDS.map((f): [Record<string, unknown>, string, string] => [{ [f]: 0 }, f, 'amount is required!']),
    ...COMMISSION_FIELDS.map((f): [Record<string, unknown>, string, string] => [{ [f]: undefined }, f, 'amount is required!']),
    [{ siteCommission: 0.99 }, 'siteCommission', 'amount is required!'],
    [{ siteCommission: -3 }, 'siteCommission', 'amount is required!'],
    [{ dealerSiteCommission: 100.01 }, 'dealerSiteCommission', 'amount must be at most 100.'],
    [{ agentSiteCommission: 1.001 }, 'agentSiteCommission', 'amount must have at most 2 decimals.'],
    [{ ageentFormDealerCommission: '' }, 'ageentFormDealerCommission', 'Agent from dealer commission must be a number.'],
    [{ dealerCommissionFromSeller: null }, 'dealerCommissionFromSeller', 'Dealer commission from seller must be a number.'],
    [{ price: undefined }, 'price', 'Price is required!'],
    [{ sellerprice: undefined }, 'sellerprice', 'Seller price is required!'],
    [{ comissionStatus: 'APPROVED' }, 'comissionStatus', "Field 'comissionStatus' is not allowed."],
    [{ agentFormDealerCommission: 1 }, 'agentFormDealerCommission', "Field 'agentFormDealerCommission' is not allowed."],
  ])('refuses %j: %s → %s', async (change, field, message) => {
    const product = await newProduct(100);
    const res = await approve(product.id, { sellerprice: 100, ...DEFAULT_SITE_COMMISSION, price: 111, ...change });
    expect(res.status).toBe(400);
    expect(res.body.errors[field]).toContain(message);
  });

  it('rejects with the typed reason, and a later approval clears it', async () => {
    const product = await newProduct(100);
    const res = await reject(product.id, { message: '  Dealer commission too high for this category.  ' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: product.id, comissionStatus: 'REJECTED', commissionRejectReason: 'Dealer commission too high for this category.' });
    // The seller reads the status and the reason.
    const seen = await server.api('GET', `/products/${product.id}`, { cookie: seller.cookie });
    expect(seen.body).toMatchObject({ comissionStatus: 'REJECTED', commissionRejectReason: 'Dealer commission too high for this category.' });
    const approved = await approve(product.id, { sellerprice: 100, ...DEFAULT_SITE_COMMISSION, price: 111 });
    expect(approved.body).toMatchObject({ comissionStatus: 'APPROVED', commissionRejectReason: null });
  });

  it.each([
    [{}, 'Please write why the commission is rejected.'],
    [{ message: '' }, 'Please write why the commission is rejected.'],
    [{ message: '   ' }, 'Please write why the commission is rejected.'],
    [{ message: 'x'.repeat(1001) }, 'Reject reason must be at most 1,000 characters.'],
  ])('refuses a reject reason %j', async (body, message) => {
    const product = await newProduct();
    const res = await reject(product.id, body);
    expect(res.status).toBe(400);
    expect(res.body.errors.message).toEqual([message]);
    expect((await stored(product.id)).comissionStatus).toBe('PENDING');
  });

  it('refuses unknown fields and junk bodies with a 400, never a 5xx', async () => {
    const product = await newProduct();
    expect((await reject(product.id, { message: 'No', comissionStatus: 'APPROVED' })).body.errors.comissionStatus).toEqual([
      "Field 'comissionStatus' is not allowed.",
    ]);
    for (const body of [null, [], 'text', 7, { message: ['a'] }]) expect((await reject(product.id, body)).status, JSON.stringify(body)).toBe(400);
    for (const body of [null, [], 'text', { ...percents, sellerprice: 'Infinity', price: 'NaN' }])
      expect((await approve(product.id, body as never)).status, JSON.stringify(body)).toBe(400);
  });

  it('lets only the admin decide; an unknown product is a 404', async () => {
    const product = await newProduct(100);
    const body = { sellerprice: 100, ...DEFAULT_SITE_COMMISSION, price: 111 };
    for (const cookie of [seller.cookie, await server.login('dealer'), await server.login('agent')]) {
      expect((await approve(product.id, body, cookie)).status).toBe(403);
      expect((await reject(product.id, { message: 'No' }, cookie)).status).toBe(403);
    }
    expect((await approve('ffffffffffffffffffffffff', body)).status).toBe(404);
    expect((await reject('ffffffffffffffffffffffff', { message: 'No' })).status).toBe(404);
    expect((await stored(product.id)).comissionStatus).toBe('PENDING');
  });

  it('refuses a decision made on a version of the product that has changed since (412)', async () => {
    const product = await newProduct(100);
    const seenVersion = `"${product.version}"`;
    await server.api('PATCH', `/products/${product.id}/edit`, { cookie: seller.cookie, body: productBody(branch, { sellerprice: 100, name: 'Changed' }) });
    const late = await approve(product.id, { sellerprice: 100, ...DEFAULT_SITE_COMMISSION, price: 111 }, admin, { 'If-Match': seenVersion });
    expect(late.status).toBe(412);
    expect(late.body.current).toMatchObject({ id: product.id, name: 'Changed' });
    const lateReject = await reject(product.id, { message: 'No' }, admin, { 'If-Match': seenVersion });
    expect(lateReject.status).toBe(412);
    expect((await stored(product.id)).comissionStatus).toBe('PENDING');
  });

  it('freezes an approved product’s lines onto an order, and never a pending one’s', async () => {
    const product = await newProduct();
    const pending = (await server.api('GET', `/products/${product.id}`, { cookie: admin })).body;
    expect(freezeCommissionLines(pending, 1)).toMatchObject({ ok: false, errors: { comissionStatus: ['comissionStatus must be APPROVED'] } });
    const approved = (await approve(product.id, { sellerprice: 1234.56, ...percents, price: PRICE })).body;
    const frozen = freezeCommissionLines(approved, 3);
    if (!frozen.ok) throw new Error(frozen.message);
    expect(frozen.line.unit).toMatchObject({ sellerPriceCents: 123456, priceCents: 138988 });
    expect(frozen.line.unit.commissionCents).toEqual({
      siteCommission: 5556,
      dealerSiteCommission: 2778,
      agentSiteCommission: 1852,
      ageentFormDealerCommission: 1235,
      dealerCommissionFromSeller: 4111,
    });
    expect(frozen.line.total.priceCents).toBe(138988 * 3);
    // Later changes to the product do not reach the frozen line.
    await approve(product.id, { sellerprice: 1234.56, ...DEFAULT_SITE_COMMISSION, price: 1370.37 });
    expect(frozen.line.unit.priceCents).toBe(138988);
  });
});
