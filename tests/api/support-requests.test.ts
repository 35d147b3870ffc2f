/**
 * Support requests through the real HTTP API on every engine (issue 53 point 3; resources/support-requests.ts):
 * §5's rules and messages, who sees a request (the asker, the product's seller, support staff and
 * admins; another buyer and another seller not), replies (live over the socket, with typing; a seller
 * may read but not reply: 403), the declared states (OPEN → PENDING → RESOLVED, reopened by the asker),
 * the rating once (409 the second time), the staff queue and claiming, and the SLA breach job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../resources/index.ts';
import { RecordsService } from '../../src/server/records/service.ts';
import { SUPPORT_EVENTS, SUPPORT_MESSAGES, type ThreadMessage, type TypingWire } from '../../src/features/support/contract.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { connected, nextEvent, openSocket, within } from '../support/realtime.ts';
import { account, makeBranch, productBody } from './fixtures/catalogue.ts';

type Account = Awaited<ReturnType<typeof account>>;

describe.each(engines)('support requests (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let seller: Account;
  let otherSeller: Account;
  let buyer: Account;
  let otherBuyer: Account;
  let support: Account;
  let support2: Account;
  let product: string;
  let urgent: string;

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    [seller, otherSeller, buyer, otherBuyer, support, support2] = await Promise.all([
      account(server, 'seller'),
      account(server, 'seller'),
      account(server, 'user'),
      account(server, 'user'),
      account(server, 'support'),
      account(server, 'support'),
    ]);
    const branch = await makeBranch(server, admin);
    const made = await server.api('POST', '/products', { cookie: seller.cookie, body: productBody(branch, { name: `Lamp ${Date.now()}` }) });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    product = made.body.id;
    const level = await server.api('POST', '/support-panel/manage/urgency', { cookie: admin, body: { name: `Urgent ${Date.now()}`, firstReplyMinutes: 15, resolveMinutes: 60 } });
    expect(level.status).toBe(201);
    urgent = level.body.id;
  });
  afterAll(() => server?.close());

  const ask = (who: Account, body: Record<string, unknown>) => server.api('POST', '/support-panel', { cookie: who.cookie, body });
  const newRequest = async (who: Account = buyer, extra: Record<string, unknown> = {}) => {
    const res = await ask(who, { product, content: 'Does this lamp work with 110 V?', ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Record<string, any>;
  };
  const count = async () => Number((await server.db.selectFrom('supportRequests').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('takes {product, content} and answers the record with redirectUrl', async () => {
    const made = await newRequest(buyer, { urgency: urgent });
    expect(made).toMatchObject({ product, status: 'OPEN', askerId: buyer.id, urgency: urgent, urgencyRank: 60 });
    expect(made.redirectUrl).toBe(`/support/requests/${made.id}`);
    // The urgency's targets become the due times.
    const first = Date.parse(made.firstReplyDueAt) - Date.parse(made.createdAt);
    expect(Math.round(first / 60_000)).toBe(15);
  });

  it('refuses §5 violations with the exact messages, writing nothing', async () => {
    const before = await count();
    const long = await ask(buyer, { product, content: 'x'.repeat(256) });
    expect(long.status).toBe(400);
    expect(long.body.errors.content).toEqual(['Message must be less than, 255 characters.']);
    expect((await ask(buyer, { product, content: 'x'.repeat(255) })).status).toBe(201);
    const empty = await ask(buyer, { product, content: '' });
    expect(empty.body.errors.content).toEqual([SUPPORT_MESSAGES.contentRequired]);
    for (const bad of ['abc', 'z'.repeat(24), `${product}0`]) {
      const res = await ask(buyer, { product: bad, content: 'Hello' });
      expect(res.status, bad).toBe(400);
      expect(res.body.errors.product).toEqual([SUPPORT_MESSAGES.product]);
    }
    // 24 hex characters naming no product.
    const none = await ask(buyer, { product: 'a'.repeat(24), content: 'Hello' });
    expect(none.status).toBe(400);
    expect(await count()).toBe(before + 1);
  });

  it('is seen by the asker, the product’s seller, support and admins, and by nobody else', async () => {
    const made = await newRequest();
    const sees = async (cookie: string) => {
      const one = await server.api('GET', `/support-panel/${made.id}`, { cookie });
      const list = await server.api('GET', '/support-panel/', { cookie, query: { range: [0, 999] } });
      const thread = await server.api('GET', `/support-panel/${made.id}/reply`, { cookie });
      const listed = list.status === 200 && list.body.some((r: { id: string }) => r.id === made.id);
      expect(thread.status === 200, 'thread as one').toBe(one.status === 200);
      expect(listed, 'list as one').toBe(one.status === 200);
      return one.status;
    };
    expect(await sees(buyer.cookie)).toBe(200);
    expect(await sees(seller.cookie)).toBe(200);
    expect(await sees(support.cookie)).toBe(200);
    expect(await sees(admin)).toBe(200);
    expect(await sees(otherBuyer.cookie)).toBe(404);
    expect(await sees(otherSeller.cookie)).toBe(404);
  });

  it('a seller who sees a request may not reply (403); another buyer cannot reach it (404); nothing written', async () => {
    const made = await newRequest();
    const bySeller = await server.api('POST', `/support-panel/${made.id}/reply`, { cookie: seller.cookie, body: { content: 'I am the seller' } });
    expect(bySeller.status).toBe(403);
    expect(bySeller.body.message).toBe(SUPPORT_MESSAGES.notParticipant);
    const byStranger = await server.api('POST', `/support-panel/${made.id}/reply`, { cookie: otherBuyer.cookie, body: { content: 'Me too' } });
    expect(byStranger.status).toBe(404);
    const rows = await server.db.selectFrom('supportReplies').select('id').where('request', '=', made.id).execute();
    expect(rows).toHaveLength(0);
    const long = await server.api('POST', `/support-panel/${made.id}/reply`, { cookie: buyer.cookie, body: { content: 'x'.repeat(256) } });
    expect(long.body.errors.content).toEqual(['Message must be less than, 255 characters.']);
  });

  it('moves OPEN → PENDING on support’s reply, back to OPEN on the asker’s, RESOLVED by support, reopened by the asker', async () => {
    const made = await newRequest();
    const staffReply = await server.api('POST', `/support-panel/${made.id}/reply`, { cookie: support.cookie, body: { content: 'Yes, it does.' } });
    expect(staffReply.status, JSON.stringify(staffReply.body)).toBe(201);
    expect(staffReply.body.request).toMatchObject({ status: 'PENDING', reply: 'Yes, it does.' });
    expect(staffReply.body.request.firstRepliedAt).toBeTruthy();
    const back = await server.api('POST', `/support-panel/${made.id}/reply`, { cookie: buyer.cookie, body: { content: 'And 220 V?' } });
    expect(back.body.request.status).toBe('OPEN');
    // The buyer cannot resolve; support can.
    expect((await server.api('POST', `/support-panel/${made.id}/transitions/resolve`, { cookie: buyer.cookie, body: {} })).status).toBe(403);
    const resolved = await server.api('POST', `/support-panel/${made.id}/transitions/resolve`, { cookie: support.cookie, body: {} });
    expect(resolved.status).toBe(200);
    expect(resolved.body.status).toBe('RESOLVED');
    // No transition leads from RESOLVED to PENDING.
    expect((await server.api('POST', `/support-panel/${made.id}/transitions/answer`, { cookie: support.cookie, body: {} })).status).toBe(409);
    const reopened = await server.api('POST', `/support-panel/${made.id}/reply`, { cookie: buyer.cookie, body: { content: 'It broke again.' } });
    expect(reopened.body.request.status).toBe('OPEN');
    const thread = await server.api('GET', `/support-panel/${made.id}/reply`, { cookie: buyer.cookie });
    expect(thread.body.map((m: ThreadMessage) => [m.content, m.staff])).toEqual([
      ['Yes, it does.', true],
      ['And 220 V?', false],
      ['It broke again.', false],
    ]);
    const actions = await server.db.selectFrom('auditLog').select('action').where('recordId', '=', made.id).orderBy('at').orderBy('id').execute();
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['transition:answer', 'transition:reopen', 'transition:resolve']));
  });

  it('lets the asker rate once after resolution: before it 409, a second time 409', async () => {
    const made = await newRequest();
    const rate = (cookie: string, rating: unknown) => server.api('POST', `/support-panel/${made.id}/rate`, { cookie, body: { rating } });
    expect((await rate(buyer.cookie, 5)).status).toBe(409);
    await server.api('POST', `/support-panel/${made.id}/transitions/resolve`, { cookie: support.cookie, body: {} });
    for (const bad of [0, 6, 2.5, '5']) expect((await rate(buyer.cookie, bad)).status, String(bad)).toBe(400);
    expect((await rate(otherBuyer.cookie, 4)).status).toBe(404);
    const first = await rate(buyer.cookie, 4);
    expect(first.status).toBe(200);
    expect(first.body.rating).toBe(4);
    const second = await rate(buyer.cookie, 5);
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(SUPPORT_MESSAGES.ratedAlready);
    const stored = await server.db.selectFrom('supportRequests').select('rating').where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(Number(stored.rating)).toBe(4);
  });

  it('orders the staff queue by urgency then age, with SLA clocks; claim and assign', async () => {
    const slow = await newRequest();
    const fast = await newRequest(buyer, { urgency: urgent });
    const queue = await server.api('GET', '/support-panel/queue', { cookie: support.cookie });
    expect(queue.status).toBe(200);
    const ids = queue.body.map((r: { id: string }) => r.id);
    expect(ids.indexOf(fast.id)).toBeLessThan(ids.indexOf(slow.id));
    const ranks = queue.body.map((r: { urgencyRank: number }) => Number(r.urgencyRank));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const entry = queue.body.find((r: { id: string }) => r.id === fast.id);
    expect(entry.sla).toMatchObject({ target: 'first reply', overdue: false });
    expect(entry.sla.text).toMatch(/^due in 1[45] min$/);
    expect((await server.api('GET', '/support-panel/queue', { cookie: buyer.cookie })).status).toBe(403);

    const claimed = await server.api('POST', `/support-panel/${fast.id}/claim`, { cookie: support.cookie });
    expect(claimed.status).toBe(200);
    expect(claimed.body.assigneeId).toBe(support.id);
    const taken = await server.api('POST', `/support-panel/${fast.id}/claim`, { cookie: support2.cookie });
    expect(taken.status).toBe(409);
    // Two claims at once: one wins.
    const both = await Promise.all([support, support2].map((s) => server.api('POST', `/support-panel/${slow.id}/claim`, { cookie: s.cookie })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const toBuyer = await server.api('PATCH', `/support-panel/${fast.id}/assign`, { cookie: admin, body: { assigneeId: buyer.id } });
    expect(toBuyer.status).toBe(400);
    expect(toBuyer.body.errors.assigneeId).toEqual([SUPPORT_MESSAGES.notStaff]);
    const assigned = await server.api('PATCH', `/support-panel/${fast.id}/assign`, { cookie: admin, body: { assigneeId: support2.id } });
    expect(assigned.body.assigneeId).toBe(support2.id);
  });

  it('sends replies live to the asker’s open thread, and who is typing', async () => {
    const made = await newRequest();
    const socket = await connected(openSocket(server.url, { cookie: buyer.cookie }));
    try {
      const typing = within(5000, nextEvent<TypingWire>(socket, SUPPORT_EVENTS.typing), 'typing');
      expect((await server.api('POST', `/support-panel/${made.id}/typing`, { cookie: support.cookie, body: { typing: true } })).status).toBe(200);
      expect(await typing).toMatchObject({ thread: `request:${made.id}`, userId: support.id, typing: true });
      const live = within(5000, nextEvent<ThreadMessage>(socket, SUPPORT_EVENTS.message), 'message');
      await server.api('POST', `/support-panel/${made.id}/reply`, { cookie: support.cookie, body: { content: 'Live answer' } });
      expect(await live).toMatchObject({ thread: `request:${made.id}`, content: 'Live answer', staff: true, authorId: support.id });
    } finally {
      socket.close();
    }
  });

  it('the breach job marks a missed target once and notifies the assignee', async () => {
    const made = await newRequest(buyer, { urgency: urgent });
    await server.api('POST', `/support-panel/${made.id}/claim`, { cookie: support2.cookie });
    const past = new Date(Date.now() - 60_000).toISOString();
    await server.db.updateTable('supportRequests').set({ firstReplyDueAt: past }).where('id', '=', made.id).execute();
    const resource = registry.resource('supportRequests');
    const job = resource.jobs!.breach;
    const records = new RecordsService({ db: server.db, registry, invalidate: (t) => server.app.readCache?.invalidate(t) });
    const log = { info: () => {}, error: () => {} };
    const run = () => job.run({ job: 'breach', resource, registry, db: server.db, records, now: new Date(), due: new Date(), attempt: 1, log });
    await run();
    await run();
    const stored = await server.db.selectFrom('supportRequests').select('breachedAt').where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(stored.breachedAt).toBeTruthy();
    const notes = await server.db.selectFrom('notifications').selectAll().where('userId', '=', support2.id).where('title', '=', SUPPORT_MESSAGES.breachTitle).execute();
    expect(notes).toHaveLength(1);
    expect(notes[0].message).toContain('first reply');
    // A request on time is left alone.
    const onTime = await newRequest();
    await run();
    const fresh = await server.db.selectFrom('supportRequests').select('breachedAt').where('id', '=', onTime.id).executeTakeFirstOrThrow();
    expect(fresh.breachedAt).toBeNull();
  });
});
