/**
 * Products through the real HTTP API on every engine this machine has: a seller's create and edit
 * (prices in its hand are only the seller price; the percentages are the site commission's), the rules
 * and their messages, who reaches which product (another seller's is a 404), the reads of spec §7, the
 * delete, and the site commission whose percentages a new product starts with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMISSION_FIELDS } from '../../src/domain/commission.ts';
import { DEFAULT_SITE_COMMISSION } from '../../src/features/commission/defaults.ts';
import { registry } from '../../resources/index.ts';
import { ruleOf } from '../../src/manifest/index.ts';
import { computations } from '../../src/domain/computed.ts';
import { DEMO_PRODUCTS } from '../../src/server/seed/products.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch, productBody, type Branch } from './fixtures/catalogue.ts';

const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
const totalOf = (headers: Headers) => Number(headers.get('content-range')?.split('/')[1]);

describe.each(engines)('products API (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let branch: Branch;
  let dealer: { id: string; cookie: string };
  let seller: { id: string; cookie: string };
  let other: { id: string; cookie: string };
  let outsider: { id: string; cookie: string };

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    branch = await makeBranch(server, admin);
    dealer = await account(server, 'dealer');
    seller = await account(server, 'seller', dealer.id);
    other = await account(server, 'seller', dealer.id);
    outsider = await account(server, 'seller');
  });
  afterAll(() => server?.close());

  const create = (cookie: string, overrides: Record<string, unknown> = {}) =>
    server.api('POST', '/products', { cookie, body: productBody(branch, overrides) });

  it("creates a seller's product: owned by it, the site's percentages, the price computed, PENDING", async () => {
    const res = await create(seller.cookie, { name: 'Desk Lamp', sellerprice: 19.99 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Desk Lamp', sellerId: seller.id, sellerprice: 19.99, comissionStatus: 'PENDING', commissionRejectReason: null, ...branch });
    expect(res.body.slug).toMatch(/^desk-lamp-[0-9a-z]+$/);
    for (const f of COMMISSION_FIELDS) expect(res.body[f]).toBe(DEFAULT_SITE_COMMISSION[f]);
    // 19.99 + 5 % (1.00) + 2 % (0.40) + 2 % (0.40) + 1 % (0.20) + 1 % (0.20): each rounded half-up to the cent.
    expect(res.body.price).toBe(22.19);
    const stored = await server.db.selectFrom('products').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(Number(stored.price)).toBe(22.19);
  });

  it('leaves lower category levels out when they are empty', async () => {
    const res = await create(seller.cookie, { childCategory: '', subCategory: '', subChildCategory: '' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ category: branch.category, childCategory: null, subCategory: null, subChildCategory: null });
  });

  it.each([
    ['name', { name: '' }, 'Product name is required!'],
    ['name', { name: undefined }, 'Product name is required!'],
    ['category', { category: undefined }, 'Category is required!'],
    ['sellerprice', { sellerprice: undefined }, 'Seller price is required!'],
    ['sellerprice', { sellerprice: 0 }, 'Seller price must be more than 0.'],
    ['sellerprice', { sellerprice: -5 }, 'Seller price must not be negative.'],
    ['sellerprice', { sellerprice: 1.005 }, 'Seller price must have at most 2 decimals.'],
    ['sellerprice', { sellerprice: 0.1 + 0.2 }, 'Seller price must have at most 2 decimals.'],
    ['sellerprice', { sellerprice: 1_000_000_000.01 }, 'Seller price must be at most 1000000000.00.'],
    ['sellerprice', { sellerprice: '12' }, 'Seller price must be a number.'],
    ['stock', { stock: -1 }, 'Stock cannot be negative.'],
    ['stock', { stock: 1.5 }, 'Stock must be a whole number.'],
    ['stock', { stock: undefined }, 'Stock is required!'],
    ['images', { images: 'javascript:alert(1)' }, 'Image must be an http(s) URL or a path on this site.'],
  ])('refuses a bad %s: %j → %s', async (field, overrides, message) => {
    const res = await create(seller.cookie, overrides);
    expect(res.status).toBe(400);
    expect(res.body.errors[field]).toContain(message);
  });

  it.each(['siteCommission', 'ageentFormDealerCommission', 'price', 'sellerId', 'comissionStatus', 'commissionRejectReason', 'slug'])(
    'refuses %s from a seller (only the seller price is in its hand)',
    async (field) => {
      const res = await create(seller.cookie, { [field]: field === 'sellerId' ? other.id : field === 'comissionStatus' ? 'APPROVED' : 50 });
      expect(res.status).toBe(400);
      expect(res.body.errors[field]).toEqual([`Field '${field}' is not allowed.`]);
    },
  );

  it('refuses category levels that are not one branch of the tree', async () => {
    const elsewhere = await makeBranch(server, admin);
    const wrongChild = await create(seller.cookie, { childCategory: elsewhere.childCategory });
    expect(wrongChild.status).toBe(400);
    expect(wrongChild.body.errors.childCategory).toEqual(['Child category is not under the category chosen.']);
    const skipped = await create(seller.cookie, { childCategory: '' });
    expect(skipped.status).toBe(400);
    expect(skipped.body.errors.subCategory).toEqual(['Choose the child category first.']);
    const unknown = await create(seller.cookie, { subChildCategory: 'ffffffffffffffffffffffff' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.subChildCategory).toEqual(['Sub-child category does not exist.']);
    const noCategory = await create(seller.cookie, { category: 'ffffffffffffffffffffffff', childCategory: '', subCategory: '', subChildCategory: '' });
    expect(noCategory.status).toBe(400);
    expect(noCategory.body.errors.category).toEqual(['Category does not exist.']);
  });

  it('answers 400, never 5xx, to bodies that are not a product', async () => {
    for (const body of [null, [], 'text', 42, { name: { $gt: '' } }, { ...productBody(branch), sellerprice: 'NaN' }]) {
      const res = await server.api('POST', '/products', { cookie: seller.cookie, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('lets only sellers and dealers create, and keeps agents and buyers out of the product reads', async () => {
    expect((await create(admin)).status).toBe(403);
    expect((await create(await server.login('agent'))).status).toBe(403);
    expect((await server.api('GET', '/products', { cookie: await server.login('agent') })).status).toBe(403);
    expect((await server.api('GET', '/products', { cookie: await server.login('user') })).status).toBe(403);
    expect((await server.api('GET', '/products')).status).toBe(401);
  });

  it("shows a seller only its own products: another seller's answers 404 to every read and write", async () => {
    const mine = (await create(seller.cookie, { name: 'Mine' })).body;
    const theirs = (await create(outsider.cookie, { name: 'Theirs' })).body;
    const list = await server.api('GET', '/products', { cookie: seller.cookie, query: { range: [0, 99] } });
    expect(list.status).toBe(200);
    expect(list.body.every((p: { sellerId: string }) => p.sellerId === seller.id)).toBe(true);
    expect(ids(list.body)).toContain(mine.id);
    expect(totalOf(list.headers)).toBe(list.body.length);

    expect((await server.api('GET', `/products/${theirs.id}`, { cookie: seller.cookie })).status).toBe(404);
    const edit = await server.api('PATCH', `/products/${theirs.id}/edit`, { cookie: seller.cookie, body: productBody(branch, { name: 'Taken' }) });
    expect(edit.status).toBe(404);
    expect((await server.api('DELETE', `/products/${theirs.id}`, { cookie: seller.cookie })).status).toBe(404);
    const bySeller = await server.api('GET', `/products/seller/${outsider.id}`, { cookie: seller.cookie, query: { isown: '1' } });
    expect(bySeller.body).toEqual([]);
    const stillThere = await server.api('GET', `/products/${theirs.id}`, { cookie: admin });
    expect(stillThere.body.name).toBe('Theirs');
  });

  it("lets a dealer reach its team's products and not another dealer's sellers'", async () => {
    const teams = (await create(other.cookie, { name: 'Team product' })).body;
    const foreign = (await create(outsider.cookie, { name: 'Foreign product' })).body;
    expect((await server.api('GET', `/products/${teams.id}`, { cookie: dealer.cookie })).status).toBe(200);
    expect((await server.api('GET', `/products/${foreign.id}`, { cookie: dealer.cookie })).status).toBe(404);
    const list = await server.api('GET', '/products', { cookie: dealer.cookie, query: { range: [0, 99] } });
    expect(list.body.every((p: { sellerId: string }) => [seller.id, other.id, dealer.id].includes(p.sellerId))).toBe(true);
  });

  it("edits a seller's own product: the price follows the seller price, the percentages and status stay", async () => {
    const made = (await create(seller.cookie, { sellerprice: 10 })).body;
    const res = await server.api('PATCH', `/products/${made.id}/edit`, { cookie: seller.cookie, body: productBody(branch, { name: 'Renamed', sellerprice: 200 }) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', sellerprice: 200, price: 222, comissionStatus: 'PENDING', sellerId: seller.id });
    for (const f of COMMISSION_FIELDS) expect(res.body[f]).toBe(DEFAULT_SITE_COMMISSION[f]);
    const sneaky = await server.api('PATCH', `/products/${made.id}/edit`, { cookie: seller.cookie, body: { ...productBody(branch), price: 1 } });
    expect(sneaky.status).toBe(400);
    expect(sneaky.body.errors.price).toEqual(["Field 'price' is not allowed."]);
  });

  it('answers the reads of §7: by id, by seller, by role (and dealer), of sellers, and the agents’ approved catalogue', async () => {
    const a = (await create(seller.cookie, { name: 'Read A' })).body;
    const b = (await create(outsider.cookie, { name: 'Read B' })).body;
    const byIds = await server.api('GET', '/products', { cookie: admin, query: { filter: { id: [a.id, b.id] } } });
    expect(ids(byIds.body)).toEqual([a.id, b.id].sort());

    const bySeller = await server.api('GET', `/products/seller/${outsider.id}`, { cookie: admin, query: { range: [0, 99] } });
    expect(bySeller.body.every((p: { sellerId: string }) => p.sellerId === outsider.id)).toBe(true);
    expect(ids(bySeller.body)).toContain(b.id);

    const byRole = await server.api('GET', '/products/role/seller', { cookie: admin, query: { range: [0, 99] } });
    expect(byRole.status).toBe(200);
    expect(ids(byRole.body)).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(totalOf(byRole.headers)).toBe(byRole.body.length);
    const underDealer = await server.api('GET', '/products/role/seller', { cookie: admin, query: { dealerId: dealer.id, range: [0, 99] } });
    expect(ids(underDealer.body)).toContain(a.id);
    expect(ids(underDealer.body)).not.toContain(b.id);
    expect((await server.api('GET', '/products/role/dealer', { cookie: admin })).body).toEqual([]);
    const badRole = await server.api('GET', '/products/role/emperor', { cookie: admin });
    expect(badRole.status).toBe(400);
    expect(badRole.body.message).toMatch(/^Role must be one of admin, seller/);
    // A seller asking by role still sees only its own.
    const sellersOwn = await server.api('GET', '/products/role/seller', { cookie: seller.cookie, query: { range: [0, 99] } });
    expect(sellersOwn.body.every((p: { sellerId: string }) => p.sellerId === seller.id)).toBe(true);

    const ofSellers = await server.api('GET', '/products/sellers', { cookie: dealer.cookie, query: { range: [0, 99] } });
    expect(ids(ofSellers.body)).toContain(a.id);
    expect(ids(ofSellers.body)).not.toContain(b.id);
    const sorted = await server.api('GET', '/products/sellers', { cookie: admin, query: { sort: ['price', 'DESC'], range: [0, 4] } });
    const prices = sorted.body.map((p: { price: number }) => p.price);
    expect(prices).toEqual([...prices].sort((x, y) => y - x));
    expect((await server.api('GET', '/products/sellers', { cookie: admin, query: { sort: ['nope', 'ASC'] } })).status).toBe(400);

    const agent = await server.login('agent');
    const approve = await server.api('PATCH', `/products/${a.id}/commission`, {
      cookie: admin,
      body: { sellerprice: 100, ...DEFAULT_SITE_COMMISSION, price: 111 },
    });
    expect(approve.status).toBe(200);
    const catalogue = await server.api('GET', '/products/agents', { cookie: agent, query: { range: [0, 99] } });
    expect(catalogue.status).toBe(200);
    expect(catalogue.body.every((p: { comissionStatus: string }) => p.comissionStatus === 'APPROVED')).toBe(true);
    expect(ids(catalogue.body)).toContain(a.id);
    expect(ids(catalogue.body)).not.toContain(b.id);
    expect((await server.api('GET', '/products/agents', { cookie: seller.cookie })).status).toBe(403);
  });

  it('deletes: a seller its own, the admin any; a missing one is a 404', async () => {
    const own = (await create(seller.cookie)).body;
    expect((await server.api('DELETE', `/products/${own.id}`, { cookie: seller.cookie })).status).toBe(200);
    expect((await server.api('GET', `/products/${own.id}`, { cookie: admin })).status).toBe(404);
    const any = (await create(outsider.cookie)).body;
    expect((await server.api('DELETE', `/products/${any.id}`, { cookie: admin })).status).toBe(200);
    expect((await server.api('DELETE', `/products/${any.id}`, { cookie: admin })).status).toBe(404);
    expect((await server.api('DELETE', `/products/${own.id}`, { cookie: await server.login('agent') })).status).toBe(403);
  });

  it('keeps a category that still has products', async () => {
    const tree = await makeBranch(server, admin);
    await server.api('POST', '/products', { cookie: seller.cookie, body: productBody(tree) });
    const res = await server.api('DELETE', `/categories/sub-child/${tree.subChildCategory}`, { cookie: admin });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/still has 1 product/);
  });
});

describe.each(engines)('site commission API (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let branch: Branch;

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    branch = await makeBranch(server, admin);
  });
  afterAll(() => server?.close());

  it('answers the built-in percentages until an admin saves some', async () => {
    const res = await server.api('GET', '/site-commissions/', { cookie: await server.login('seller') });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'default', ...DEFAULT_SITE_COMMISSION });
  });

  it("saves the site's percentages, and a product created after the change gets the new ones", async () => {
    const seller = await account(server, 'seller');
    const before = (await server.api('POST', '/products', { cookie: seller.cookie, body: productBody(branch) })).body;
    const next = { siteCommission: 7.5, dealerSiteCommission: 3, agentSiteCommission: 2.25, ageentFormDealerCommission: 1, dealerCommissionFromSeller: 1.75 };
    const saved = await server.api('PATCH', '/site-commissions/', { cookie: admin, body: next });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ name: 'default', ...next });
    expect(saved.body).not.toHaveProperty('message');
    expect((await server.api('GET', '/site-commissions/', { cookie: admin })).body).toMatchObject(next);

    const after = (await server.api('POST', '/products', { cookie: seller.cookie, body: productBody(branch, { sellerprice: 100 }) })).body;
    for (const f of COMMISSION_FIELDS) expect(after[f]).toBe(next[f]);
    // 100 + 7.50 + 3.00 + 2.25 + 1.00 + 1.75
    expect(after.price).toBe(115.5);
    // A product made before keeps the percentages it was made with.
    const old = (await server.api('GET', `/products/${before.id}`, { cookie: admin })).body;
    for (const f of COMMISSION_FIELDS) expect(old[f]).toBe(DEFAULT_SITE_COMMISSION[f]);

    const again = await server.api('PATCH', '/site-commissions/', { cookie: admin, body: { ...next, siteCommission: 6 } });
    expect(again.body.id).toBe(saved.body.id);
    expect(Number((await server.db.selectFrom('siteCommissions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(1);
  });

  it.each([
    [{ siteCommission: 0 }, 'siteCommission', 'amount is required!'],
    [{ dealerSiteCommission: undefined }, 'dealerSiteCommission', 'amount is required!'],
    [{ agentSiteCommission: 0.5 }, 'agentSiteCommission', 'amount is required!'],
    [{ ageentFormDealerCommission: 101 }, 'ageentFormDealerCommission', 'amount must be at most 100.'],
    [{ dealerCommissionFromSeller: 2.555 }, 'dealerCommissionFromSeller', 'amount must have at most 2 decimals.'],
    [{ siteCommission: '5' }, 'siteCommission', 'Site commission must be a number.'],
    [{ message: 'hi' }, 'message', "Field 'message' is not allowed."],
  ])('refuses %j: %s → %s', async (change, field, message) => {
    const res = await server.api('PATCH', '/site-commissions/', { cookie: admin, body: { ...DEFAULT_SITE_COMMISSION, ...change } });
    expect(res.status).toBe(400);
    expect(res.body.errors[field]).toContain(message);
  });

  it('lets only the admin change it', async () => {
    for (const role of ['seller', 'dealer', 'agent'] as const) {
      const res = await server.api('PATCH', '/site-commissions/', { cookie: await server.login(role), body: DEFAULT_SITE_COMMISSION });
      expect(res.status, role).toBe(403);
    }
    expect((await server.api('GET', '/site-commissions/', { cookie: await server.login('user') })).status).toBe(403);
  });

  it('makes one record when two first saves race', async () => {
    const fresh = await startTestServer({ engine });
    try {
      const cookie = await fresh.login('admin');
      const answers = await Promise.all(
        [4, 6].map((siteCommission) => fresh.api('PATCH', '/site-commissions/', { cookie, body: { ...DEFAULT_SITE_COMMISSION, siteCommission } })),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const n = await fresh.db.selectFrom('siteCommissions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(1);
    } finally {
      await fresh.close();
    }
  });
});

describe.each(engines)('the demo catalogue (%s)', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine, catalogue: true });
  });
  afterAll(() => server?.close());

  it('seeds a few hundred valid products over the tree, owned by the demo sellers, in every status', async () => {
    const rows = await server.db.selectFrom('products').selectAll().execute();
    expect(rows.length).toBe(DEMO_PRODUCTS);
    const owners = await server.db.selectFrom('users').select(['id', 'email', 'role']).where('id', 'in', [...new Set(rows.map((p) => p.sellerId as string))]).execute();
    expect(owners.every((u) => u.role === 'seller')).toBe(true);
    const emails = owners.map((u) => u.email);
    expect(emails).toEqual(expect.arrayContaining(['seller@demo.test', 'seller2@demo.test']));
    expect(new Set(rows.map((p) => p.comissionStatus))).toEqual(new Set(['PENDING', 'APPROVED', 'REJECTED']));
    expect(rows.filter((p) => p.comissionStatus === 'REJECTED').every((p) => typeof p.commissionRejectReason === 'string')).toBe(true);
    expect(new Set(rows.map((p) => p.category)).size).toBeGreaterThan(5);
    // Each row is what the API would have written: valid by the fields' rules, its price the computed one.
    const r = registry.resource('products');
    for (const p of rows) {
      for (const f of r.fields.filter((x) => x.rule && p[x.name] !== null && x.name !== 'comissionStatus'))
        expect(ruleOf(f).safeParse(f.kind === 'number' ? Number(p[f.name]) : p[f.name]).success, `${p.name}.${f.name}`).toBe(true);
      expect(Number(p.price)).toBe(computations.productPrice({ ...p, sellerprice: Number(p.sellerprice), ...Object.fromEntries(COMMISSION_FIELDS.map((f) => [f, Number(p[f])])) }));
    }
    // The branch of each product is one branch of the tree.
    const sub = await server.db.selectFrom('subChildCategories').select(['id', 'category']).execute();
    const parentOf = new Map(sub.map((s) => [s.id, s.category]));
    expect(rows.every((p) => parentOf.get(p.subChildCategory as string) === p.subCategory)).toBe(true);
    // The demo seller sees its own, through the API.
    const seller = await server.login('seller');
    const own = await server.api('GET', '/products', { cookie: seller, query: { range: [0, 0] } });
    const mine = rows.filter((p) => p.sellerId === owners.find((u) => u.email === 'seller@demo.test')!.id).length;
    expect(totalOf(own.headers)).toBe(mine);
    expect((await server.api('GET', '/site-commissions/', { cookie: seller })).body).toMatchObject(DEFAULT_SITE_COMMISSION);
  });
});
