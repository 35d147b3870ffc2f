/**
 * The shop's public reads (src/features/cart/shop-server.ts) through the real HTTP API on every engine:
 * only approved products, never the seller's economics; the catalogue's name search and category
 * filter; the search modal's results by exact id and by a name containing the text; bad queries 400;
 * and the reads answered from indexes (SQLite's query plan).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { COMMISSION_FIELDS, formatCentsMoney, parsePercent, parsePrice, quoteCommission, quoteToWire, type CommissionField } from '../../src/domain/commission.ts';
import { SHOP_MESSAGES, SHOP_PRODUCTS_PATH, SHOP_SEARCH_PATH } from '../../src/features/cart/shop-query.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch, productBody, type Branch } from './fixtures/catalogue.ts';

function approval(sellerprice: number, percent: number) {
  const bp = Object.fromEntries(COMMISSION_FIELDS.map((f) => [f, (parsePercent(percent) as { value: number }).value])) as Record<CommissionField, number>;
  return quoteToWire(quoteCommission((parsePrice(sellerprice) as { value: number }).value, bp));
}

describe.each(engines)('shop API (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let branchA: Branch;
  let branchB: Branch;
  let seller: { id: string; cookie: string };
  /** A word only this run's products hold. */
  const tag = `zq${randomBytes(3).toString('hex')}`;
  const made: Record<string, { id: string; price: number }> = {};

  async function product(name: string, branch: Branch, status: 'APPROVED' | 'PENDING' | 'REJECTED') {
    const res = await server.api('POST', '/products', { cookie: seller.cookie, body: productBody(branch, { sellerprice: 100, name }) });
    expect(res.status).toBe(201);
    let price = res.body.price;
    if (status === 'APPROVED') {
      const ok = await server.api('PATCH', `/products/${res.body.id}/commission`, { cookie: admin, body: approval(100, 2) });
      expect(ok.status).toBe(200);
      price = ok.body.price;
    }
    if (status === 'REJECTED') {
      const no = await server.api('POST', `/site-commissions/reject/${res.body.id}`, { cookie: admin, body: { message: 'Too low.' } });
      expect(no.status).toBe(200);
    }
    made[name] = { id: res.body.id, price };
  }
  const get = (path: string, query: Record<string, string> = {}, cookie?: string) =>
    server.api('GET', `${path}?${new URLSearchParams(query)}`, cookie ? { cookie } : {});
  const names = (body: { data: { name: string }[] }) => body.data.map((p) => p.name).sort();

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    [branchA, branchB] = await Promise.all([makeBranch(server, admin), makeBranch(server, admin)]);
    seller = await account(server, 'seller');
    await product(`Red ${tag} Mug`, branchA, 'APPROVED');
    await product(`Blue ${tag} Mug`, branchB, 'APPROVED');
    await product(`Green ${tag} Cup`, branchA, 'APPROVED');
    await product(`Pending ${tag} Mug`, branchA, 'PENDING');
    await product(`Rejected ${tag} Mug`, branchA, 'REJECTED');
  }, 120_000);
  afterAll(() => server?.close());

  it('answers a guest only approved products, with what a shop shows and nothing of the seller', async () => {
    const res = await get(SHOP_PRODUCTS_PATH, { q: tag });
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual([`Blue ${tag} Mug`, `Green ${tag} Cup`, `Red ${tag} Mug`]);
    expect(res.body.total).toBe(3);
    const red = res.body.data.find((p: { name: string }) => p.name === `Red ${tag} Mug`);
    expect(red).toEqual({
      id: made[`Red ${tag} Mug`].id,
      name: `Red ${tag} Mug`,
      price: 110,
      priceCents: 11000,
      priceFormatted: formatCentsMoney(11000),
      images: '/logo.jpg',
      slug: expect.any(String),
      category: branchA.category,
      stock: 12,
    });
    for (const p of res.body.data) for (const hidden of ['sellerId', 'sellerprice', 'siteCommission', 'comissionStatus']) expect(p).not.toHaveProperty(hidden);
    // Newest first: ids begin with their creation time.
    const ids0 = res.body.data.map((p: { id: string }) => p.id);
    expect(ids0).toEqual([...ids0].sort().reverse());
    // The whole catalogue holds no product that is not approved.
    const all = await get(SHOP_PRODUCTS_PATH, { limit: '60' });
    expect(all.status).toBe(200);
    const ids = new Set(all.body.data.map((p: { id: string }) => p.id));
    expect(ids.has(made[`Pending ${tag} Mug`].id)).toBe(false);
    expect(ids.has(made[`Rejected ${tag} Mug`].id)).toBe(false);
    const approved = await server.db.selectFrom('products').select((eb) => eb.fn.countAll().as('n')).where('comissionStatus', '=', 'APPROVED').executeTakeFirst();
    expect(all.body.total).toBe(Number(approved!.n));
  });

  it('searches a name case-insensitively, and filters by category', async () => {
    expect(names((await get(SHOP_PRODUCTS_PATH, { q: `${tag.toUpperCase()} MUG` })).body)).toEqual([`Blue ${tag} Mug`, `Red ${tag} Mug`]);
    expect(names((await get(SHOP_PRODUCTS_PATH, { q: tag, category: branchA.category })).body)).toEqual([`Green ${tag} Cup`, `Red ${tag} Mug`]);
    expect(names((await get(SHOP_PRODUCTS_PATH, { category: branchB.category })).body)).toEqual([`Blue ${tag} Mug`]);
    // A short needle (under a trigram) means the same.
    expect(names((await get(SHOP_PRODUCTS_PATH, { q: 'p', category: branchA.category })).body)).toEqual([`Green ${tag} Cup`]);
    // Paging.
    const whole = (await get(SHOP_PRODUCTS_PATH, { q: tag })).body.data.map((p: { id: string }) => p.id);
    const first = await get(SHOP_PRODUCTS_PATH, { q: tag, limit: '2' });
    const second = await get(SHOP_PRODUCTS_PATH, { q: tag, limit: '2', page: '2' });
    expect(first.body.data.map((p: { id: string }) => p.id)).toEqual(whole.slice(0, 2));
    expect(second.body.data.map((p: { id: string }) => p.id)).toEqual(whole.slice(2));
    expect(second.body.total).toBe(3);
  });

  it('answers the search modal by exact id and by a name containing the text, approved products only', async () => {
    const red = made[`Red ${tag} Mug`];
    const byId = await get(SHOP_SEARCH_PATH, { q: red.id, type: 'id' });
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ total: 1, data: [{ id: red.id, name: `Red ${tag} Mug` }] });
    // Exact: part of an id finds nothing; a pending product's id finds nothing.
    expect((await get(SHOP_SEARCH_PATH, { q: red.id.slice(0, 20), type: 'id' })).body).toEqual({ data: [], total: 0 });
    expect((await get(SHOP_SEARCH_PATH, { q: made[`Pending ${tag} Mug`].id, type: 'id' })).body).toEqual({ data: [], total: 0 });
    // Name is the default type.
    expect(names((await get(SHOP_SEARCH_PATH, { q: `${tag} mug` })).body)).toEqual([`Blue ${tag} Mug`, `Red ${tag} Mug`]);
    expect(names((await get(SHOP_SEARCH_PATH, { q: `${tag} mug`, type: 'name' })).body)).toEqual([`Blue ${tag} Mug`, `Red ${tag} Mug`]);
    // The name type does not match an id.
    expect((await get(SHOP_SEARCH_PATH, { q: red.id, type: 'name' })).body.total).toBe(0);
    // No text, no results.
    expect((await get(SHOP_SEARCH_PATH, { q: '' })).body).toEqual({ data: [], total: 0 });
    // Signed in, the same answer.
    const buyer = await account(server, 'user');
    expect(names((await get(SHOP_SEARCH_PATH, { q: `${tag} mug` }, buyer.cookie)).body)).toEqual([`Blue ${tag} Mug`, `Red ${tag} Mug`]);
  });

  it('refuses bad queries with 400 naming the parameter', async () => {
    const bad = async (path: string, query: Record<string, string>, field: string, message: string) => {
      const res = await get(path, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(JSON.stringify(res.body)).toContain(message);
      expect(JSON.stringify(res.body)).toContain(field);
    };
    await bad(SHOP_SEARCH_PATH, { q: 'x', type: 'sku' }, 'type', SHOP_MESSAGES.type);
    await bad(SHOP_SEARCH_PATH, { q: 'x'.repeat(101) }, 'q', SHOP_MESSAGES.query);
    await bad(SHOP_PRODUCTS_PATH, { page: '0' }, 'page', SHOP_MESSAGES.page);
    await bad(SHOP_PRODUCTS_PATH, { limit: '-1' }, 'limit', SHOP_MESSAGES.limit);
    await bad(SHOP_PRODUCTS_PATH, { type: 'id' }, 'type', SHOP_MESSAGES.type);
    const repeated = await server.api('GET', `${SHOP_PRODUCTS_PATH}?category=a&category=b`);
    expect(repeated.status).toBe(400);
  });

  it('keeps an answer only until the products change: an approval shows at once in the search and the catalogue', async () => {
    const word = `${tag}lamp`;
    await product(`Late ${word}`, branchB, 'PENDING');
    const before = await get(SHOP_SEARCH_PATH, { q: word });
    expect(before.body).toEqual({ data: [], total: 0 });
    // Asked again: the same answer (kept).
    expect((await get(SHOP_SEARCH_PATH, { q: word })).body).toEqual(before.body);
    const ok = await server.api('PATCH', `/products/${made[`Late ${word}`].id}/commission`, { cookie: admin, body: approval(100, 2) });
    expect(ok.status).toBe(200);
    const after = await get(SHOP_SEARCH_PATH, { q: word });
    expect(after.body.total).toBe(1);
    expect(after.body.data.map((p: { id: string }) => p.id)).toEqual([made[`Late ${word}`].id]);
    const catalogue = await get(SHOP_PRODUCTS_PATH, { category: branchB.category });
    expect(names(catalogue.body)).toEqual([`Blue ${tag} Mug`, `Late ${word}`]);
  });

  it.runIf(engine === 'sqlite')('reads from indexes: the name search from the trigram table, ids and categories by their indexes', async () => {
    const plan = async (where: string, params: unknown[]) => {
      const rows = await sql
        .raw(`explain query plan select id from products where comissionStatus = 'APPROVED' and ${where} order by id desc limit 24`)
        .execute(server.db);
      void params;
      return JSON.stringify(rows.rows);
    };
    expect(await plan(`rowid in (select rowid from products_search where products_search match '"mug"')`, [])).toContain('products_search');
    expect(await plan(`id = 'x'`, [])).toMatch(/USING (INTEGER )?PRIMARY KEY|USING INDEX/);
    expect(await plan(`category = 'x'`, [])).toMatch(/USING (COVERING )?INDEX products_(category|comissionStatus)/);
  });
});
