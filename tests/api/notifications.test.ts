/**
 * In-app notifications through the real HTTP API, on every engine: the user's own calls (a page of 20,
 * filters, one read, all read, stats; another's notification is a 404 and stays as it was), the admin's
 * create (strict) and calls under the admin base, what the app's hub (`app.notifications`) is told,
 * and each event a manifest declares `notify` on, reaching the person concerned and nobody else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { NotificationWire } from '../../src/features/notifications/contract.ts';
import { deliver, notify } from '../../src/features/notifications/server/index.ts';
import { registry } from '../../resources/index.ts';
import { formatMoney } from '../../src/domain/money.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch, productBody } from './fixtures/catalogue.ts';

const ENHANCED = '/api/notifications/enhanced';

describe.each(engines)('notifications API (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let adminId: string;
  let a: { id: string; cookie: string };
  let b: { id: string; cookie: string };
  /** What the hub was told, in order. */
  /** Each notification told to the hub, with the unread count told for its person right after it. */
  const created: { notification: NotificationWire; unreadCount?: number }[] = [];
  const unreadTold: { userId: string; unreadCount: number }[] = [];

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    adminId = (await server.api('GET', '/getcurrentuser', { cookie: admin })).body.id;
    a = await account(server, 'seller');
    b = await account(server, 'seller');
    server.app.notifications.onCreated((notification) => void created.push({ notification }));
    server.app.notifications.onUnreadChanged((userId, unreadCount) => {
      unreadTold.push({ userId, unreadCount });
      // A notification is told at once, its person's count once read (notify.ts `deliver`).
      for (const told of created) if (told.notification.userId === userId && told.unreadCount === undefined) told.unreadCount = unreadCount;
    });
    // Migrating a fresh PostgreSQL schema takes over 10 s on a busy machine: a bound for a hang, not a speed check.
  }, 120_000);
  afterAll(() => server?.close());

  const send = async (userId: string, n = 1, extra: Record<string, unknown> = {}) => {
    const sent: NotificationWire[] = [];
    for (let i = 0; i < n; i++) {
      const res = await server.api('POST', ENHANCED, {
        cookie: admin,
        body: { title: `Note ${i}`, message: `Message ${i}`, type: 'info', userId, metadata: { category: 'test' }, ...extra },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      sent.push(res.body);
    }
    return sent;
  };
  const page = (cookie: string, query: Record<string, unknown> = {}) => server.api('GET', ENHANCED, { cookie, query });
  const mine = async (cookie: string) => (await page(cookie, { limit: 100 })).body.data as NotificationWire[];
  const storedOf = (userId: string) => server.db.selectFrom('notifications').selectAll().where('userId', '=', userId).execute();

  it('an admin creates one for a user: stored unread, answered and told to the hub as it travels', async () => {
    const user = await account(server, 'user');
    const before = created.length;
    const res = await server.api('POST', ENHANCED, {
      cookie: admin,
      body: { title: 'Hello', message: 'Welcome aboard', type: 'success', userId: user.id, metadata: { category: 'welcome' } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      title: 'Hello',
      message: 'Welcome aboard',
      type: 'success',
      isRead: false,
      userId: user.id,
      metadata: { category: 'welcome' },
      createdAt: expect.any(String),
    });
    expect(created.slice(before)).toEqual([{ notification: res.body, unreadCount: 1 }]);
    // The user reads it as it was answered.
    expect((await page(user.cookie)).body).toEqual({ data: [res.body], stats: { unreadCount: 1 }, unreadCount: 1, page: 1, limit: 20 });
  });

  it('notify in a caller’s transaction: stored with it, told after the commit; a rollback keeps and tells nothing', async () => {
    const user = await account(server, 'user');
    const input = { userId: user.id, title: 'Paid', message: 'Your payout was paid.', type: 'success' as const, metadata: { category: 'payout' } };
    const before = created.length;
    await expect(
      server.db.transaction().execute(async (trx) => {
        await notify(server.app, input, { db: trx, registry });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await storedOf(user.id)).toEqual([]);
    expect(created.length).toBe(before);

    const stored = await server.db.transaction().execute((trx) => notify(server.app, input, { db: trx, registry }));
    expect(created.length, 'not told inside the transaction').toBe(before);
    await deliver(server.app, server.db, stored);
    expect(created.slice(before)).toEqual([{ notification: stored[0], unreadCount: 1 }]);
    // Without a transaction of the caller's: stored and told at once.
    const [second] = await notify(server.app, { ...input, title: 'Again' }, { db: server.db, registry });
    expect(created.slice(before + 1)).toEqual([{ notification: second, unreadCount: 2 }]);
    expect((await mine(user.cookie)).map((n) => n.title)).toEqual(['Again', 'Paid']);
  });

  it('create is for admins only, strict, and judged field by field', async () => {
    const valid = { title: 'T', message: 'M', type: 'info', userId: a.id };
    const before = (await storedOf(a.id)).length;
    expect((await server.api('POST', ENHANCED, { cookie: a.cookie, body: valid })).status).toBe(403);
    expect((await server.api('POST', ENHANCED, { body: valid })).status).toBe(401);
    const refused: [Record<string, unknown>, string[]][] = [
      [{ ...valid, isRead: true }, ['isRead']],
      [{ ...valid, metadata: { category: 'x', admin: true } }, ['admin']],
      [{ ...valid, type: 'shout' }, ['type']],
      [{ ...valid, userId: 'not-an-id' }, ['userId']],
      [{ ...valid, title: '' }, ['title']],
      [{ ...valid, message: 'x'.repeat(2001) }, ['message']],
      [{ type: 'info' }, ['message', 'title', 'userId']],
    ];
    for (const [body, fields] of refused) {
      const res = await server.api('POST', ENHANCED, { cookie: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.body.errors).sort(), JSON.stringify(body)).toEqual(fields);
    }
    // A well-formed id of nobody: refused under the field, nothing stored.
    const nobody = await server.api('POST', ENHANCED, { cookie: admin, body: { ...valid, userId: 'f'.repeat(24) } });
    expect(nobody.status).toBe(400);
    expect(nobody.body.errors).toEqual({ userId: ['User does not exist.'] });
    expect((await storedOf(a.id)).length).toBe(before);
  });

  it('pages 20 at a time, newest first: a page of exactly 20 has more after it, a shorter one is the last', async () => {
    const user = await account(server, 'user');
    const sent = await send(user.id, 21);
    const first = await page(user.cookie);
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.data.map((n: NotificationWire) => n.id)).toEqual(sent.slice(1).reverse().map((n) => n.id));
    const second = await page(user.cookie, { page: 2 });
    expect(second.body.data.map((n: NotificationWire) => n.id)).toEqual([sent[0].id]);
    expect((await page(user.cookie, { page: 3 })).body.data).toEqual([]);
    expect(first.body.stats.unreadCount).toBe(21);
    // Another limit, as asked.
    const small = await page(user.cookie, { page: 2, limit: 5 });
    expect(small.body.data.map((n: NotificationWire) => n.id)).toEqual(sent.slice(11, 16).reverse().map((n) => n.id));
  });

  it('refuses a malformed page, limit or filters with a clear 400', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ page: '0' }, 'page must be a whole number from 1 to 10000.'],
      [{ page: 'abc' }, 'page must be a whole number from 1 to 10000.'],
      [{ page: '1.5' }, 'page must be a whole number from 1 to 10000.'],
      [{ limit: '101' }, 'limit must be a whole number from 1 to 100.'],
      [{ limit: '0' }, 'limit must be a whole number from 1 to 100.'],
      [{ limit: '-3' }, 'limit must be a whole number from 1 to 100.'],
      [{ filters: '{bad' }, 'filters must be a JSON object with isRead, type or category.'],
      [{ filters: '{"userId":"x"}' }, "Field 'userId' is not allowed."],
      [{ isRead: 'maybe' }, 'isRead must be true or false.'],
      [{ type: 'shout' }, 'type must be one of info, success, warning, error.'],
    ];
    for (const [query, message] of cases) {
      const res = await server.api('GET', `${ENHANCED}?${new URLSearchParams(query)}`, { cookie: a.cookie });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.message, JSON.stringify(query)).toBe(message);
    }
    expect((await server.api('GET', `${ENHANCED}?page=1&page=2`, { cookie: a.cookie })).status).toBe(400);
    expect((await server.api('GET', ENHANCED)).status).toBe(401);
  });

  it('filters by read state, type and category (as JSON `filters` or as plain parameters)', async () => {
    const user = await account(server, 'user');
    const [info] = await send(user.id, 1, { type: 'info', metadata: { category: 'alpha' } });
    const [warning] = await send(user.id, 1, { type: 'warning', metadata: { category: 'beta' } });
    const [plain] = await send(user.id, 1, { type: 'info', metadata: undefined });
    expect(plain.metadata).toEqual({});
    expect((await server.api('POST', `${ENHANCED}/${info.id}/read`, { cookie: user.cookie })).status).toBe(200);
    const ids = async (query: Record<string, unknown>) => ((await page(user.cookie, query)).body.data as NotificationWire[]).map((n) => n.id);
    expect(await ids({ filters: { isRead: false } })).toEqual([plain.id, warning.id]);
    expect(await ids({ filters: { isRead: true } })).toEqual([info.id]);
    expect(await ids({ filters: { type: 'warning' } })).toEqual([warning.id]);
    expect(await ids({ filters: { category: 'alpha' } })).toEqual([info.id]);
    expect(await ids({ type: 'info', isRead: 'false' })).toEqual([plain.id]);
    expect(await ids({ filters: { type: 'info', category: 'beta' } })).toEqual([]);
  });

  it('one is marked read by its owner only: another user, and an admin, get 404 and it stays unread', async () => {
    const [note] = await send(a.id);
    const unreadBefore = (await page(a.cookie)).body.stats.unreadCount;
    for (const cookie of [b.cookie, admin]) {
      const res = await server.api('POST', `${ENHANCED}/${note.id}/read`, { cookie });
      expect(res.status).toBe(404);
    }
    expect((await server.api('POST', `${ENHANCED}/${'0'.repeat(24)}/read`, { cookie: a.cookie })).status).toBe(404);
    expect((await server.api('POST', `${ENHANCED}/${note.id}/read`)).status).toBe(401);
    let row = await server.db.selectFrom('notifications').selectAll().where('id', '=', note.id).executeTakeFirstOrThrow();
    expect(Number(row.isRead)).toBe(0);

    const told = unreadTold.length;
    const res = await server.api('POST', `${ENHANCED}/${note.id}/read`, { cookie: a.cookie });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: note.id, isRead: true, userId: a.id });
    expect(res.body.unreadCount).toBe(unreadBefore - 1);
    expect(unreadTold.slice(told)).toEqual([{ userId: a.id, unreadCount: unreadBefore - 1 }]);
    row = await server.db.selectFrom('notifications').selectAll().where('id', '=', note.id).executeTakeFirstOrThrow();
    expect(Number(row.isRead)).toBe(1);
  });

  it('mark-all-read marks the caller’s own and answers how many changed; stats follow', async () => {
    const user = await account(server, 'user');
    const other = await account(server, 'user');
    const sent = await send(user.id, 4);
    await send(other.id, 2);
    await server.api('POST', `${ENHANCED}/${sent[0].id}/read`, { cookie: user.cookie });
    expect((await server.api('GET', `${ENHANCED}/stats`, { cookie: user.cookie })).body).toEqual({ unreadCount: 3, total: 4 });

    const told = unreadTold.length;
    const res = await server.api('POST', `${ENHANCED}/mark-all-read`, { cookie: user.cookie });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 3, unreadCount: 0, stats: { unreadCount: 0 } });
    expect(unreadTold.slice(told)).toEqual([{ userId: user.id, unreadCount: 0 }]);
    expect((await server.api('GET', `${ENHANCED}/stats`, { cookie: user.cookie })).body).toEqual({ unreadCount: 0, total: 4 });
    // Again: nothing left to change.
    expect((await server.api('POST', `${ENHANCED}/mark-all-read`, { cookie: user.cookie })).body.count).toBe(0);
    // The other user's are untouched.
    expect((await server.api('GET', `${ENHANCED}/stats`, { cookie: other.cookie })).body).toEqual({ unreadCount: 2, total: 2 });
  });

  it('admins list them under the admin base (?type), read one and set isRead; other roles may not', async () => {
    const user = await account(server, 'user');
    const [warning] = await send(user.id, 1, { type: 'warning' });
    const [info] = await send(user.id, 1, { type: 'info' });
    const listed = await server.api('GET', '/notifications/', { cookie: admin, query: { type: 'warning', range: [0, 999] } });
    expect(listed.status).toBe(200);
    const ids = listed.body.map((n: { id: string }) => n.id);
    expect(ids).toContain(warning.id);
    expect(ids).not.toContain(info.id);
    expect(listed.body.every((n: { type: string }) => n.type === 'warning')).toBe(true);

    const one = await server.api('GET', `/notifications/${info.id}`, { cookie: admin });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: info.id, title: info.title, type: 'info', isRead: false, userId: user.id, category: 'test' });

    const told = unreadTold.length;
    const patched = await server.api('PATCH', `/notifications/${info.id}`, { cookie: admin, body: { isRead: true } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: info.id, isRead: true });
    expect(unreadTold.slice(told)).toEqual([{ userId: user.id, unreadCount: 1 }]);
    for (const body of [{ isRead: true, title: 'x' }, { isRead: 'yes' }, { userId: a.id }]) {
      const res = await server.api('PATCH', `/notifications/${info.id}`, { cookie: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    for (const cookie of [user.cookie, a.cookie]) {
      expect((await server.api('GET', '/notifications/', { cookie })).status).toBe(403);
      expect((await server.api('GET', `/notifications/${info.id}`, { cookie })).status).toBe(403);
      expect((await server.api('PATCH', `/notifications/${info.id}`, { cookie, body: { isRead: false } })).status).toBe(403);
    }
  });

  it('no query of the user list and no create body gets a 5xx', async () => {
    const junk = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom('', '0', '-1', '1e3', '99999999999', 'NaN', '{}', '[]', 'null', '{"isRead":"x"}', '{"type":1}', '\u0000', '%00'),
    );
    const query = fc.dictionary(fc.constantFrom('page', 'limit', 'filters', 'isRead', 'type', 'category', 'x'), junk, { maxKeys: 4 });
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const res = await fetch(`${server.url}${ENHANCED}?${new URLSearchParams(q)}`, { headers: { cookie: a.cookie } });
        expect(res.status, JSON.stringify(q)).toBeLessThan(500);
      }),
      { numRuns: 40 },
    );
    const body = fc.oneof(fc.anything(), fc.record({ title: junk, message: junk, type: junk, userId: junk, metadata: fc.anything() }, { requiredKeys: [] }));
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const res = await fetch(`${server.url}${ENHANCED}`, { method: 'POST', headers: { cookie: admin, 'content-type': 'application/json' }, body: JSON.stringify(b) ?? 'null' });
        expect(res.status, JSON.stringify(b)).toBeLessThan(500);
      }),
      { numRuns: 40 },
    );
  });

  describe('the events the manifests declare `notify` on', () => {
    /** The notifications `userId` received since `since` (an ISO time), newest first. */
    const since = async (userId: string, from: string) =>
      (await storedOf(userId)).filter((n) => String(n.createdAt) >= from).sort((x, y) => String(y.createdAt).localeCompare(String(x.createdAt)));
    /** What the admin's own list holds since `from` (the admins are told as one role: stored once). */
    const adminSince = async (from: string) => (await mine(admin)).filter((n) => n.createdAt >= from);

    it('a product created by a seller tells the admins; its commission approved or rejected tells its seller, no one else', async () => {
      const start = new Date().toISOString();
      const branch = await makeBranch(server, admin);
      const product = (await server.api('POST', '/products', { cookie: a.cookie, body: productBody(branch, { name: 'Blue Kettle' }) })).body;
      expect(product.id).toBeTruthy();
      const toAdmin = (await adminSince(start)).filter((n) => n.title === 'Commission to review');
      expect(toAdmin).toHaveLength(1);
      // The seller is named by its account's name, never its id (issue 51 §5).
      expect(toAdmin[0]).toMatchObject({ userId: adminId, isRead: false, message: 'The product Blue Kettle by Test seller waits for its commission to be approved.', type: 'info' });
      expect(toAdmin[0].metadata).toEqual({ category: 'commission', resource: 'products', recordId: product.id });
      // Stored once for every admin, whatever their number.
      expect((await server.db.selectFrom('notifications').select('userId').where('title', '=', 'Commission to review').where('createdAt', '>=', start).execute()).map((n) => n.userId)).toEqual(['role:admin']);
      // The seller who made it is not told of its own act.
      expect(await since(a.id, start)).toEqual([]);

      const hubBefore = created.length;
      const { sellerprice, siteCommission, dealerSiteCommission, agentSiteCommission, ageentFormDealerCommission, dealerCommissionFromSeller, price } = product;
      const approved = await server.api('PATCH', `/products/${product.id}/commission`, {
        cookie: admin,
        body: { sellerprice, siteCommission, dealerSiteCommission, agentSiteCommission, ageentFormDealerCommission, dealerCommissionFromSeller, price },
      });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      const [ok] = (await mine(a.cookie)).filter((n) => n.title === 'Commission approved');
      // The price through the one money formatter ('$134.50', never '134.5').
      expect(ok).toMatchObject({ userId: a.id, type: 'success', message: `The commission of your product Blue Kettle was approved: it sells at ${formatMoney(price)}.` });
      expect(ok.message).toMatch(/it sells at \$\d{1,3}(,\d{3})*\.\d{2}\.$/);
      expect(ok.metadata).toEqual({ category: 'commission', resource: 'products', recordId: product.id });
      // Told to the hub once, with the seller's unread count.
      const told = created.slice(hubBefore);
      expect(told.map((t) => t.notification)).toEqual([ok]);
      expect(told[0].unreadCount).toBe((await server.api('GET', `${ENHANCED}/stats`, { cookie: a.cookie })).body.unreadCount);

      const rejected = await server.api('POST', `/site-commissions/reject/${product.id}`, { cookie: admin, body: { message: 'Prices too high' } });
      expect(rejected.status).toBe(200);
      const [no] = (await mine(a.cookie)).filter((n) => n.title === 'Commission rejected');
      expect(no).toMatchObject({ type: 'error', message: 'The commission of your product Blue Kettle was rejected: Prices too high', metadata: { category: 'commission' } });
      expect(await since(b.id, start)).toEqual([]);
    });

    it('a refused decision notifies nobody', async () => {
      const start = new Date().toISOString();
      const branch = await makeBranch(server, admin);
      const product = (await server.api('POST', '/products', { cookie: b.cookie, body: productBody(branch) })).body;
      const res = await server.api('PATCH', `/products/${product.id}/commission`, { cookie: admin, body: { sellerprice: product.sellerprice, price: 1 } });
      expect(res.status).toBe(400);
      expect(await since(b.id, start)).toEqual([]);
    });

    it('a document sent tells the admins; its review tells its owner how it went', async () => {
      const start = new Date().toISOString();
      const doc = await server.api('POST', '/sellers/documents', { cookie: a.cookie, body: { kind: 'TRADE_LICENCE', file: '/assets/images/licence.pdf' } });
      expect(doc.status).toBe(201);
      const toAdmin = (await adminSince(start)).filter((n) => n.title === 'Document to review');
      expect(toAdmin.map((n) => n.message)).toEqual(['A Trade licence was sent and waits for review.']);

      const review = (body: unknown) => server.api('PATCH', `/sellers/documents/${doc.body.id}`, { cookie: admin, body });
      expect((await review({ status: 'REJECTED', note: 'The scan is blurred.' })).status).toBe(200);
      expect((await review({ status: 'APPROVED', note: '' })).status).toBe(200);
      const told = (await mine(a.cookie)).filter((n) => n.metadata.category === 'documents');
      expect(told.map((n) => [n.title, n.message, n.type])).toEqual([
        ['Document approved', 'Your Trade licence was approved.', 'success'],
        ['Document rejected', 'Your Trade licence was rejected. The scan is blurred.', 'error'],
      ]);
      // Sent again: the admins are told again.
      const again = await server.api('PATCH', `/sellers/documents/${doc.body.id}/resubmit`, { cookie: a.cookie, body: { kind: 'TRADE_LICENCE', file: '/assets/images/licence2.pdf' } });
      expect(again.status).toBe(200);
      expect((await adminSince(start)).filter((n) => n.title === 'Document to review')).toHaveLength(2);
      // PENDING again is no review to tell.
      expect((await review({ status: 'PENDING' })).status).toBe(200);
      expect((await mine(a.cookie)).filter((n) => n.metadata.category === 'documents')).toHaveLength(2);
      expect(await since(b.id, start)).toEqual([]);
    });

    it('a one-time password tells the account (never the password); an account handed over welcomes its new person', async () => {
      const start = new Date().toISOString();
      const issued = await server.api('POST', `/users/${b.id}/one-time-password`, { cookie: admin });
      expect(issued.status).toBe(200);
      const [reset] = await since(b.id, start);
      expect(reset).toMatchObject({ title: 'Password reset', type: 'warning', category: 'account' });
      expect(JSON.stringify(reset)).not.toContain(issued.body.password);
      expect(await since(a.id, start)).toEqual([]);

      const agentUser = await server.db.selectFrom('users').select('id').where('email', '=', 'agent@demo.test').executeTakeFirstOrThrow();
      const agent = await server.db.selectFrom('agents').select('id').where('userId', '=', agentUser.id).executeTakeFirstOrThrow();
      const res = await server.api('PATCH', `/agents/replace/${agent.id}`, {
        cookie: admin,
        body: { name: 'Nadia Karim', image: '/avatar.png', email: 'nadia.notify@example.com', password: 'secret12' },
      });
      expect(res.status).toBe(200);
      const welcome = await since(String(agentUser.id), start);
      expect(welcome.map((n) => [n.title, n.message, n.category])).toEqual([
        ['Welcome', 'Welcome, Nadia Karim: this agent account has been handed to you.', 'account'],
      ]);
      expect(JSON.stringify(welcome)).not.toContain('secret12');
    });
  });
});
