/**
 * Records that read as words (issue 51 §5), through the real HTTP API on every engine: a CSV export
 * writes each reference's label beside its id (for the references the reader may read, looked up once
 * per referenced resource and page, never per row); declared notification texts name references by
 * their labels and money through the one formatter; an admin sends a notification to one person or to
 * everyone of a role (`sendNotificationModal`), which arrives in their lists and is told to the hub for
 * the live socket, and nobody else may.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import type { NotificationWire } from '../../src/features/notifications/contract.ts';
import { registry } from '../../resources/index.ts';
import { AUDIENCE_MESSAGE, notifications } from '../../resources/notifications.ts';
import { products } from '../../resources/products.ts';
import { parseCall, urlOf } from '../../src/manifest/index.ts';
import { formatMoney } from '../../src/domain/money.ts';
import { labelledReferences } from '../../src/server/db/labels.ts';
import { parseListQuery } from '../../src/server/db/list-query.ts';
import { csvChunks } from '../../src/server/routes/export.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { csvRecords, parseCsv } from '../support/csv.ts';
import { account, makeBranch, productBody } from './fixtures/catalogue.ts';

/** The CSV export of the products, as `cookie`'s role gets it: its rows as objects by header. */
async function productsCsv(server: TestServer, cookie: string) {
  const res = await fetch(`${server.url}${urlOf(parseCall(products.reads.list.call).path)}?format=csv`, { headers: { cookie } });
  expect(res.status).toBe(200);
  return csvRecords(await res.text());
}

const sendCall = parseCall((notifications.dialogs.sendNotificationModal as { call: `POST /${string}` }).call);

describe.each(engines)('records that read as words (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let seller: { id: string; cookie: string };
  let productId = '';
  const told: NotificationWire[] = [];
  const toldToRole: { notification: NotificationWire; role: string }[] = [];

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    server.app.notifications.onCreated((n) => void told.push(n));
    server.app.notifications.onRoleCreated((notification, role) => void toldToRole.push({ notification, role }));
    seller = await account(server, 'seller');
    const lamps = await makeBranch(server, admin, 'Lamps');
    const made = await server.api('POST', '/products', { cookie: seller.cookie, body: productBody(lamps, { name: 'Brass Lamp', sellerprice: 1234.5 }) });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    productId = made.body.id;
  }, 120_000);
  afterAll(() => server?.close());

  it('a CSV export writes each reference’s label beside its id', async () => {
    const { header, rows } = await productsCsv(server, admin);
    // Beside the id, in the field's place: `category`, `category label`.
    expect(header.slice(header.indexOf('category'), header.indexOf('category') + 2)).toEqual(['category', 'category label']);
    expect(header).toEqual(expect.arrayContaining(['sellerId label', 'childCategory label', 'subCategory label', 'subChildCategory label']));
    const lamp = rows.find((r) => r.id === productId)!;
    expect(lamp).toMatchObject({
      'category label': 'Lamps',
      'childCategory label': 'Lamps child',
      'subCategory label': 'Lamps sub',
      'subChildCategory label': 'Lamps leaf',
      'sellerId label': 'Test seller',
      sellerId: seller.id,
    });
  });

  it('gives a role the labels of what it may read only: a seller gets its categories’, not the accounts’', async () => {
    const { header, rows } = await productsCsv(server, seller.cookie);
    expect(header).toContain('category label');
    expect(header).toContain('sellerId');
    expect(header).not.toContain('sellerId label');
    expect(rows.find((r) => r.id === productId)).toMatchObject({ 'category label': 'Lamps' });
  });

  it('looks the labels up once per referenced resource and page, however many rows', async () => {
    const other = await makeBranch(server, admin, 'Rugs');
    for (let i = 0; i < 5; i++) {
      const res = await server.api('POST', '/products', { cookie: seller.cookie, body: productBody(other, { name: `Rug ${i}` }) });
      expect(res.status).toBe(201);
    }
    let queries = 0;
    const counting: KyselyPlugin = { transformQuery: (args) => args.node, transformResult: async (args) => (queries++, args.result) };
    const labelled = labelledReferences(registry, products, { id: 'x', role: 'admin' });
    const targets = new Set(labelled.map((f) => f.reference));
    let text = '';
    for await (const chunk of csvChunks(server.db.withPlugin(counting), products, parseListQuery(products, {}), undefined, undefined, { registry, fields: labelled }))
      text += chunk;
    expect(parseCsv(text.slice(1)).length - 1).toBeGreaterThanOrEqual(6);
    // One page of rows, then one lookup per referenced resource (the four levels and the accounts).
    expect(targets.size).toBe(5);
    expect(queries).toBe(1 + targets.size);
  });

  it('declared notification texts name references by their labels and money through the one formatter', async () => {
    // Every admin is told as one role (stored once): read from the admin's own list.
    const listed = (await server.api('GET', '/api/notifications/enhanced', { cookie: admin, query: { limit: '100' } })).body.data as NotificationWire[];
    const review = listed.filter((n) => n.title === 'Commission to review');
    expect(review.map((n) => n.message)).toContain('The product Brass Lamp by Test seller waits for its commission to be approved.');

    const product = (await server.api('GET', `/products/${productId}`, { cookie: admin })).body;
    const { sellerprice, siteCommission, dealerSiteCommission, agentSiteCommission, ageentFormDealerCommission, dealerCommissionFromSeller, price } = product;
    const approved = await server.api('PATCH', `/products/${productId}/commission`, {
      cookie: admin,
      body: { sellerprice, siteCommission, dealerSiteCommission, agentSiteCommission, ageentFormDealerCommission, dealerCommissionFromSeller, price },
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const mine = (await server.api('GET', '/api/notifications/enhanced', { cookie: seller.cookie })).body.data as NotificationWire[];
    const ok = mine.find((n) => n.title === 'Commission approved')!;
    expect(price).toBeGreaterThan(1234.5);
    expect(ok.message).toBe(`The commission of your product Brass Lamp was approved: it sells at ${formatMoney(price)}.`);
    expect(ok.message).toMatch(/it sells at \$1,\d{3}\.\d{2}\.$/);
  });

  describe('an admin sends a notification', () => {
    const send = (cookie: string, body: unknown) => server.api(sendCall.method, sendCall.path, { cookie, body });
    const listOf = async (cookie: string) => (await server.api('GET', '/api/notifications/enhanced', { cookie, query: { limit: 100 } })).body.data as NotificationWire[];

    it('to everyone of a role: each gets it in its list, told live; nobody of another role does', async () => {
      const dealers = [await account(server, 'dealer'), await account(server, 'dealer')];
      const agent = await account(server, 'agent');
      const demoDealers = (await server.db.selectFrom('users').select('id').where('role', '=', 'dealer').execute()).map((u) => String(u.id));
      const before = toldToRole.length;
      const res = await send(admin, { toRole: 'dealer', title: 'Price list', message: 'The new price list is out.', type: 'info' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toEqual({ sent: demoDealers.length });
      for (const dealer of dealers) {
        const got = (await listOf(dealer.cookie)).filter((n) => n.title === 'Price list');
        expect(got).toHaveLength(1);
        expect(got[0]).toMatchObject({ message: 'The new price list is out.', type: 'info', isRead: false, metadata: { category: 'message' } });
      }
      expect((await listOf(agent.cookie)).filter((n) => n.title === 'Price list')).toEqual([]);
      // Stored once for the role and told to the hub once, whatever the number of dealers.
      await expect.poll(() => toldToRole.slice(before).map((t) => [t.role, t.notification.title])).toEqual([['dealer', 'Price list']]);
      const stored = await server.db.selectFrom('notifications').select(['toRole', 'userId']).where('title', '=', 'Price list').execute();
      expect(stored).toEqual([{ toRole: 'dealer', userId: 'role:dealer' }]);
    });

    it('to one person, with the type left out (info)', async () => {
      const user = await account(server, 'user');
      const res = await send(admin, { userId: user.id, title: 'Hello', message: 'Just you.' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toEqual({ sent: 1 });
      expect((await listOf(user.cookie)).map((n) => [n.title, n.type])).toEqual([['Hello', 'info']]);
    });

    it('refuses both audiences or none, an unknown person or role, unknown fields, and every other role', async () => {
      const user = await account(server, 'user');
      const body = { title: 'T', message: 'M' };
      const both = await send(admin, { ...body, userId: user.id, toRole: 'user' });
      expect(both.status).toBe(400);
      expect(both.body).toEqual({ message: AUDIENCE_MESSAGE, errors: { userId: [AUDIENCE_MESSAGE], toRole: [AUDIENCE_MESSAGE] } });
      expect((await send(admin, body)).body.message).toBe(AUDIENCE_MESSAGE);
      expect((await send(admin, { ...body, userId: 'a'.repeat(24) })).status).toBe(400);
      expect((await send(admin, { ...body, toRole: 'pirate' })).status).toBe(400);
      expect((await send(admin, { ...body, toRole: 'user', isRead: true })).status).toBe(400);
      expect((await send(admin, { toRole: 'user', title: '', message: 'M' })).body.errors.title).toEqual(['Title is required!']);
      for (const role of ['seller', 'dealer', 'agent', 'user', 'support'] as const)
        expect((await send(await server.login(role), { ...body, toRole: 'user' })).status, role).toBe(403);
      expect((await send('', { ...body, toRole: 'user' })).status).toBe(401);
      expect((await listOf(user.cookie)).filter((n) => n.title === 'T')).toEqual([]);
    });
  });
});
