/**
 * Payment methods through the real HTTP API, on every engine (resources/payments.ts; issue 52, point 1):
 * the admin's methods under `/payment-settings` (the admin writes, a buyer reads, a seller reaches
 * nothing), and a seller's own payout accounts under `/payments/methods` (each seller its own, an admin
 * reads them all and changes none). Spec §5's messages exactly; unknown fields refused; no 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECOND_SELLER_EMAIL } from '../../src/server/seed/people.ts';
import { newId } from '../../src/server/db/id.ts';
import { signInAs } from './fixtures/catalogue.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

const NO_ID = 'ffffffffffffffffffffffff';
/** A name no seed uses. */
const unique = (prefix: string) => `${prefix} ${newId().slice(-10)}`;
const ids = (rows: { id: string }[]) => rows.map((x) => x.id);

describe.each(engines)('payment methods API (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let seller: string;
  let seller2: string;
  let buyer: string;
  const userIdOf = async (email: string) =>
    String((await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id);

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    seller = await server.login('seller');
    buyer = await server.login('user');
    seller2 = await signInAs(server, SECOND_SELLER_EMAIL);
  });
  afterAll(() => server?.close());

  const api = (cookie: string | undefined) => ({
    get: (path: string, query?: Record<string, unknown>) => server.api('GET', path, { cookie, query }),
    post: (path: string, body: unknown) => server.api('POST', path, { cookie, body }),
    patch: (path: string, body: unknown) => server.api('PATCH', path, { cookie, body }),
    del: (path: string) => server.api('DELETE', path, { cookie }),
  });
  /** Expects a 400 whose errors are exactly `errors`, and that nothing of `name` was stored. */
  const invalid = async (res: Promise<{ status: number; body: any }>, errors: Record<string, string[]>) => {
    const { status, body } = await res;
    expect(status, JSON.stringify(body)).toBe(400);
    expect(body).toEqual({ message: 'Validation failed.', errors });
  };

  describe('the admin’s payment methods (/payment-settings)', () => {
    it('are created, read, updated and deleted by an admin', async () => {
      const name = unique('Bank transfer');
      const content = 'Pay to account 0123-456789 at City Bank, then send the receipt.';
      const made = await api(admin).post('/payment-settings', { name, content });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect(made.body).toMatchObject({ name, content });
      const id = made.body.id;

      const list = await api(admin).get('/payment-settings', { range: [0, 999] });
      expect(list.status).toBe(200);
      expect(list.body.find((r: { id: string }) => r.id === id)).toMatchObject({ name, content });
      const one = await api(admin).get(`/payment-settings/${id}`);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ id, name, content });

      const renamed = await api(admin).patch(`/payment-settings/${id}`, { name: `${name} (new)`, content: 'Send to 999.' });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      expect(renamed.body).toMatchObject({ id, name: `${name} (new)`, content: 'Send to 999.' });
      // The update form sends the whole method: a missing name is refused, nothing changed.
      await invalid(api(admin).patch(`/payment-settings/${id}`, { content: 'Send to 777.' }), { name: ['Method name is required!'] });
      expect((await api(admin).get(`/payment-settings/${id}`)).body).toMatchObject({ name: `${name} (new)`, content: 'Send to 999.' });

      expect((await api(admin).del(`/payment-settings/${id}`)).status).toBeLessThan(300);
      expect((await api(admin).get(`/payment-settings/${id}`)).status).toBe(404);
      expect(ids((await api(admin).get('/payment-settings', { range: [0, 999] })).body)).not.toContain(id);
      expect((await api(admin).patch(`/payment-settings/${id}`, { name: 'Gone', content: 'Gone away.' })).status).toBe(404);
      expect((await api(admin).del(`/payment-settings/${id}`)).status).toBe(404);
    });

    it('answer spec §5’s messages to bad input, with nothing stored', async () => {
      const before = (await api(admin).get('/payment-settings', { range: [0, 999] })).body.length;
      await invalid(api(admin).post('/payment-settings', {}), { name: ['Method name is required!'], content: ['Content is required!'] });
      await invalid(api(admin).post('/payment-settings', { name: '', content: 'Pay here.' }), { name: ['Method name is required!'] });
      await invalid(api(admin).post('/payment-settings', { name: '   ', content: 'Pay here.' }), { name: ['Method name is required!'] });
      // Content at least 3 characters.
      await invalid(api(admin).post('/payment-settings', { name: 'bKash', content: 'ab' }), { content: ['Content is required!'] });
      await invalid(api(admin).post('/payment-settings', { name: 'bKash', content: 42 }), { content: ['Content is required!'] });
      await invalid(api(admin).post('/payment-settings', { name: null, content: 'Pay here.' }), { name: ['Method name is required!'] });
      expect((await api(admin).get('/payment-settings', { range: [0, 999] })).body).toHaveLength(before);

      const { body } = await api(admin).post('/payment-settings', { name: unique('Nagad'), content: 'Send money to 01700000000.' });
      await invalid(api(admin).patch(`/payment-settings/${body.id}`, { name: '', content: 'Send money.' }), { name: ['Method name is required!'] });
      await invalid(api(admin).patch(`/payment-settings/${body.id}`, { name: 'Nagad', content: 'x' }), { content: ['Content is required!'] });
      expect((await api(admin).get(`/payment-settings/${body.id}`)).body.content).toBe('Send money to 01700000000.');
    });

    it('refuse unknown fields and text beyond the limit', async () => {
      const name = unique('Card');
      const res = await api(admin).post('/payment-settings', { name, content: 'Pay by card.', id: NO_ID, isDefault: true });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ id: ["Field 'id' is not allowed."], isDefault: ["Field 'isDefault' is not allowed."] });
      expect((await api(admin).get('/payment-settings', { filter: { q: name } })).body).toEqual([]);
      const long = await api(admin).post('/payment-settings', { name, content: 'x'.repeat(2001) });
      expect(long.status).toBe(400);
      expect(Object.keys(long.body.errors)).toEqual(['content']);
      const made = await api(admin).post('/payment-settings', { name, content: 'Pay by card.' });
      await invalid(api(admin).patch(`/payment-settings/${made.body.id}`, { name, content: 'Pay.', userId: NO_ID }), { userId: ["Field 'userId' is not allowed."] });
    });

    it('are the admin’s alone to change: 401 without a session, 403 to a seller (reads too) and a buyer', async () => {
      const { body: method } = await api(admin).post('/payment-settings', { name: unique('Rocket'), content: 'Send to 018.' });
      const body = { name: 'Seller made', content: 'Pay me.' };
      for (const [who, cookie, status] of [['nobody', undefined, 401], ['seller', seller, 403], ['buyer', buyer, 403]] as const) {
        expect((await api(cookie).post('/payment-settings', body)).status, `${who} POST`).toBe(status);
        expect((await api(cookie).patch(`/payment-settings/${method.id}`, body)).status, `${who} PATCH`).toBe(status);
        expect((await api(cookie).del(`/payment-settings/${method.id}`)).status, `${who} DELETE`).toBe(status);
      }
      // A seller reads none of them; a buyer reads them, to choose how to pay.
      expect((await api(seller).get('/payment-settings')).status).toBe(403);
      expect((await api(seller).get(`/payment-settings/${method.id}`)).status).toBe(403);
      expect((await api(undefined).get('/payment-settings')).status).toBe(401);
      expect(ids((await api(buyer).get('/payment-settings', { range: [0, 999] })).body)).toContain(method.id);
      expect((await api(buyer).get(`/payment-settings/${method.id}`)).body).toMatchObject({ content: 'Send to 018.' });
      // Nothing changed.
      expect((await api(admin).get(`/payment-settings/${method.id}`)).body).toMatchObject({ name: method.name, content: 'Send to 018.' });
      expect((await api(admin).get('/payment-settings', { filter: { q: 'Seller made' } })).body).toEqual([]);
    });
  });

  describe('a seller’s payout accounts (/payments/methods)', () => {
    it('are the seller’s own: it adds them, lists only its own, and another seller reaches none (404)', async () => {
      const mine = await api(seller).post('/payments/methods', { name: 'bKash', content: 'Personal 01711111111' });
      expect(mine.status, JSON.stringify(mine.body)).toBe(201);
      expect(mine.body).toMatchObject({ name: 'bKash', content: 'Personal 01711111111', userId: await userIdOf('seller@demo.test') });
      const theirs = await api(seller2).post('/payments/methods', { name: 'Bank', content: 'A/C 222, Dhaka Bank' });
      expect(theirs.status).toBe(201);
      expect(theirs.body.userId).toBe(await userIdOf(SECOND_SELLER_EMAIL));

      const own = ids((await api(seller).get('/payments/methods', { range: [0, 999] })).body);
      expect(own).toContain(mine.body.id);
      expect(own).not.toContain(theirs.body.id);
      const own2 = ids((await api(seller2).get('/payments/methods', { range: [0, 999] })).body);
      expect(own2).toContain(theirs.body.id);
      expect(own2).not.toContain(mine.body.id);

      // Another seller can neither read, nor change it: as if it did not exist.
      expect((await api(seller2).get(`/payments/methods/${mine.body.id}`)).status).toBe(404);
      expect((await api(seller2).patch(`/payments/methods/${mine.body.id}`, { name: 'Mine', content: 'Mine now 019' })).status).toBe(404);
      expect((await api(seller).get(`/payments/methods/${mine.body.id}`)).body).toMatchObject({ content: 'Personal 01711111111' });

      // The owner updates its own.
      const updated = await api(seller).patch(`/payments/methods/${mine.body.id}`, { name: 'bKash merchant', content: 'Merchant 01722222222' });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expect(updated.body).toMatchObject({ id: mine.body.id, name: 'bKash merchant', content: 'Merchant 01722222222' });
      expect((await api(seller).patch(`/payments/methods/${NO_ID}`, { name: 'x', content: 'A/C 0' })).status).toBe(404);
    });

    it('are read by an admin, all of them, and changed by none but their owner', async () => {
      const mine = await api(seller).post('/payments/methods', { name: 'Nagad', content: '01733333333' });
      const theirs = await api(seller2).post('/payments/methods', { name: 'Upay', content: '01744444444' });
      const all = ids((await api(admin).get('/payments/methods', { range: [0, 999] })).body);
      expect(all).toEqual(expect.arrayContaining([mine.body.id, theirs.body.id]));
      expect((await api(admin).get(`/payments/methods/${mine.body.id}`)).body).toMatchObject({ name: 'Nagad' });
      // An admin pays payouts; it does not choose where a seller is paid.
      expect((await api(admin).post('/payments/methods', { name: 'Admin', content: 'made' })).status).toBe(403);
      expect((await api(admin).patch(`/payments/methods/${mine.body.id}`, { name: 'Nagad', content: 'redirected' })).status).toBe(403);
      // A buyer and nobody reach none.
      expect((await api(buyer).get('/payments/methods')).status).toBe(403);
      expect((await api(buyer).post('/payments/methods', { name: 'Buyer', content: 'made' })).status).toBe(403);
      expect((await api(undefined).get('/payments/methods')).status).toBe(401);
      expect((await api(undefined).post('/payments/methods', { name: 'Nobody', content: 'made' })).status).toBe(401);
      expect((await api(seller).get(`/payments/methods/${mine.body.id}`)).body).toMatchObject({ content: '01733333333' });
    });

    it('answer bad input with the messages (name at least 1, content at least 3) and refuse an owner sent', async () => {
      await invalid(api(seller).post('/payments/methods', {}), { name: ['Method name is required!'], content: ['Content is required!'] });
      await invalid(api(seller).post('/payments/methods', { name: '', content: 'A/C 1' }), { name: ['Method name is required!'] });
      await invalid(api(seller).post('/payments/methods', { name: 'B', content: 'ab' }), { content: ['Content is required!'] });
      const other = await userIdOf(SECOND_SELLER_EMAIL);
      await invalid(api(seller).post('/payments/methods', { name: 'B', content: 'A/C 1', userId: other }), { userId: ["Field 'userId' is not allowed."] });
      await invalid(api(seller).post('/payments/methods', { name: 'B', content: 'A/C 1', role: 'admin' }), { role: ["Field 'role' is not allowed."] });
      // Name of one character is enough.
      const ok = await api(seller).post('/payments/methods', { name: 'B', content: 'A/C 1' });
      expect(ok.status).toBe(201);
      await invalid(api(seller).patch(`/payments/methods/${ok.body.id}`, { name: 'B', content: 'ab' }), { content: ['Content is required!'] });
      await invalid(api(seller).patch(`/payments/methods/${ok.body.id}`, { name: '', content: 'A/C 2' }), { name: ['Method name is required!'] });
      await invalid(api(seller).patch(`/payments/methods/${ok.body.id}`, { name: 'B', content: 'A/C 2', userId: other }), { userId: ["Field 'userId' is not allowed."] });
      expect((await api(seller).get(`/payments/methods/${ok.body.id}`)).body).toMatchObject({ content: 'A/C 1', userId: await userIdOf('seller@demo.test') });
    });
  });

  it('answers no input, however malformed, with a 5xx', async () => {
    const { body: method } = await api(admin).post('/payment-settings', { name: unique('Fuzz'), content: 'Pay here.' });
    const { body: account } = await api(seller).post('/payments/methods', { name: 'Fuzz', content: 'A/C 9' });
    const bodies: unknown[] = [
      null, [], 'text', 0, true, { name: {} }, { name: [] }, { name: 'x'.repeat(100_000), content: 'y'.repeat(100_000) },
      { name: 'a\u0000b', content: 'abc' }, { name: 1e308, content: -1 },
      { constructor: { prototype: {} } }, { name: 'ok', content: { $gt: '' } },
    ];
    const targets: [string, string, string][] = [
      [admin, 'POST', '/payment-settings'], [admin, 'PATCH', `/payment-settings/${method.id}`], [admin, 'PATCH', '/payment-settings/not-an-id'],
      [seller, 'POST', '/payments/methods'], [seller, 'PATCH', `/payments/methods/${account.id}`], [seller, 'PATCH', '/payments/methods/%27%20OR%201=1'],
    ];
    const answers = await Promise.all(
      targets.flatMap(([cookie, method, path]) => bodies.map(async (body) => ({ what: `${method} ${path} ${JSON.stringify(body)?.slice(0, 60)}`, res: await server.api(method, path, { cookie, body }) }))),
    );
    for (const { what, res } of answers) {
      expect(res.status, what).toBeLessThan(500);
      expect(res.status, what).toBeGreaterThanOrEqual(400);
    }
    for (const [cookie, path] of [[admin, '/payment-settings/not-an-id'], [admin, '/payment-settings/%00'], [seller, '/payments/methods/zz'], [admin, '/payments/methods/../x']])
      expect((await server.api('GET', path, { cookie })).status, path).toBeLessThan(500);
    for (const query of [{ range: 'x' }, { sort: ['nope', 'UP'] }, { filter: '{' }, { filter: { userId: { $ne: 1 } } }])
      for (const [cookie, path] of [[admin, '/payment-settings'], [seller, '/payments/methods']])
        expect((await server.api('GET', path, { cookie, query })).status, `${path} ${JSON.stringify(query)}`).toBeLessThan(500);
    // The records are as they were.
    expect((await api(admin).get(`/payment-settings/${method.id}`)).body).toMatchObject({ content: 'Pay here.' });
    expect((await api(seller).get(`/payments/methods/${account.id}`)).body).toMatchObject({ content: 'A/C 9' });
  });
});
