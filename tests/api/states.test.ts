/**
 * Declared states (src/manifest/states.ts) through the real HTTP API on every engine: a fixture resource
 * declared here with the DSL (trials moving DRAFT → SUBMITTED → PAID, or CANCELLED), and the real
 * products' commission and documents' review. An allowed transition is made and audited, through its
 * route or a generic update; any other change is 409 naming the current state; a role the transition does
 * not name, a guard and a missing required field refuse it; its notify is sent; the server's own writes
 * are held to from and to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allowedTransitions, createRegistry, defineResource, dialog, field, read, rules } from '../../src/manifest/index.ts';
import { registry as resources } from '../../resources/index.ts';
import { RecordsService } from '../../src/server/records/service.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch, productBody } from './fixtures/catalogue.ts';

const OVER_LIMIT = 'The amount is more than the limit.';

const trials = defineResource({
  name: 'stateTrials',
  label: 'State trial',
  plural: 'State trials',
  title: 'title',
  access: { read: ['admin', 'seller'], write: ['admin', 'seller'], owner: { field: 'ownerId', roles: { admin: 'all', seller: 'own' } } },
  fields: [
    field.text('title', { rule: rules.text(1, 'Title is required.') }),
    field.number('limit', { rule: z.number() }),
    field.number('amount', { rule: z.number({ error: 'Amount is required.' }).positive('Amount must be more than 0.') }),
    field.textarea('reason', { rule: rules.text(1, 'Please say why.') }),
    field.select('status', ['DRAFT', 'SUBMITTED', 'PAID', 'CANCELLED'], {
      rule: z.enum(['DRAFT', 'SUBMITTED', 'PAID', 'CANCELLED']),
      createdWith: 'DRAFT',
      states: {
        transitions: [
          { name: 'submit', label: 'Submit', from: ['DRAFT'], to: 'SUBMITTED', roles: ['seller', 'admin'] },
          {
            name: 'pay',
            label: 'Pay',
            from: ['SUBMITTED'],
            to: 'PAID',
            roles: ['admin'],
            requires: ['amount'],
            guard: (record, input) => (input && Number(input.amount) > Number(record.limit) ? OVER_LIMIT : undefined),
            notify: { to: 'owner', title: 'Trial paid', message: '{title} was paid {amount}.', type: 'success', category: 'trials' },
          },
          { name: 'cancel', label: 'Cancel', from: ['DRAFT', 'SUBMITTED'], to: 'CANCELLED', roles: ['admin'], requires: ['reason'] },
        ],
      },
    }),
    field.reference('ownerId', 'users'),
  ],
  reads: { list: read.list('GET /state-trials'), one: read.one('GET /state-trials/{id}') },
  dialogs: {
    createStateTrial: dialog.create({ pick: ['title', 'limit'], call: 'POST /state-trials', access: ['seller'], success: 'Created.', failure: 'No.' }),
    updateStateTrial: dialog.update({ pick: ['title', 'status', 'reason'], optional: ['reason'], call: 'PATCH /state-trials/{id}', success: 'Saved.', failure: 'No.' }),
  },
});
const registry = createRegistry([...resources.resources, trials]);

describe.each(engines)('declared states (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let seller: { id: string; cookie: string };
  /** The records service as the server's own work (no user): held to from and to, not to roles. */
  let own: RecordsService;

  beforeAll(async () => {
    server = await startTestServer({ engine, registry });
    admin = await server.login('admin');
    seller = await account(server, 'seller');
    own = new RecordsService({ db: server.db, registry, invalidate: (t) => server.app.readCache?.invalidate(t) });
  });
  afterAll(() => server?.close());

  const newTrial = async (limit = 100) => {
    const res = await server.api('POST', '/state-trials', { cookie: seller.cookie, body: { title: 'Trial', limit } });
    expect(res.status).toBe(201);
    return res.body as { id: string; status: string };
  };
  const move = (id: string, name: string, cookie: string, body: unknown = {}) =>
    server.api('POST', `/state-trials/${id}/transitions/${name}`, { cookie, body });
  const audits = (id: string) =>
    server.db.selectFrom('auditLog').select(['action', 'changes', 'userId']).where('recordId', '=', id).orderBy('at').orderBy('id').execute();
  const notes = (userId: string, title: string) =>
    server.db.selectFrom('notifications').selectAll().where('userId', '=', userId).where('title', '=', title).execute();

  it('makes an allowed transition through its route, answers the record and audits it by name', async () => {
    const trial = await newTrial();
    expect(trial.status).toBe('DRAFT');
    const res = await move(trial.id, 'submit', seller.cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: trial.id, status: 'SUBMITTED' });
    expect(res.headers.get('etag')).toBe('"2"');
    const entry = (await audits(trial.id)).at(-1)!;
    expect(entry).toMatchObject({ action: 'transition:submit', userId: seller.id });
    expect(JSON.parse(String(entry.changes))).toEqual({ status: { before: 'DRAFT', after: 'SUBMITTED' } });
    // The same move by a generic update is the same transition, audited so too.
    const other = await newTrial();
    const patched = await server.api('PATCH', `/state-trials/${other.id}`, { cookie: seller.cookie, body: { title: 'Trial', status: 'SUBMITTED' } });
    expect(patched.status).toBe(200);
    expect((await audits(other.id)).at(-1)!.action).toBe('transition:submit');
    // An update that leaves the state as it is stays an update.
    expect((await server.api('PATCH', `/state-trials/${other.id}`, { cookie: seller.cookie, body: { title: 'Renamed', status: 'SUBMITTED' } })).status).toBe(200);
    expect((await audits(other.id)).at(-1)!.action).toBe('update');
  });

  it('refuses a change no transition allows with 409 naming the current state', async () => {
    const trial = await newTrial();
    await move(trial.id, 'submit', seller.cookie);
    const back = await server.api('PATCH', `/state-trials/${trial.id}`, { cookie: admin, body: { title: 'Trial', status: 'DRAFT' } });
    expect(back.status).toBe(409);
    expect(back.body.message).toBe('Cannot change Status from SUBMITTED to DRAFT.');
    const again = await move(trial.id, 'submit', seller.cookie);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Cannot change Status from SUBMITTED to SUBMITTED.');
    const stored = await server.db.selectFrom('stateTrials').select(['status', 'version']).where('id', '=', trial.id).executeTakeFirstOrThrow();
    expect(stored.status).toBe('SUBMITTED');
    expect(Number(stored.version)).toBe(2);
  });

  it('refuses a role the transition does not name: 403 at its route, 409 through an update', async () => {
    const trial = await newTrial();
    await move(trial.id, 'submit', seller.cookie);
    expect((await move(trial.id, 'pay', seller.cookie, { amount: 5 })).status).toBe(403);
    const patched = await server.api('PATCH', `/state-trials/${trial.id}`, { cookie: seller.cookie, body: { title: 'Trial', status: 'CANCELLED', reason: 'Mine.' } });
    expect(patched.status).toBe(409);
    expect(patched.body.message).toBe('Cannot change Status from SUBMITTED to CANCELLED.');
    // The owner rule still holds: another seller does not reach it at all.
    const stranger = await account(server, 'seller');
    expect((await move(trial.id, 'submit', stranger.cookie)).status).toBe(404);
  });

  it('refuses what the guard refuses, with its message, and a missing required field with 400', async () => {
    const trial = await newTrial(50);
    await move(trial.id, 'submit', seller.cookie);
    const missing = await move(trial.id, 'pay', admin);
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({ amount: ['Amount is required.'] });
    expect((await move(trial.id, 'pay', admin, { amount: 5, reason: 'extra' })).body.errors).toEqual({ reason: ["Field 'reason' is not allowed."] });
    expect((await move(trial.id, 'pay', admin, { amount: -1 })).body.errors).toEqual({ amount: ['Amount must be more than 0.'] });
    const guarded = await move(trial.id, 'pay', admin, { amount: 51 });
    expect(guarded.status).toBe(409);
    expect(guarded.body.message).toBe(OVER_LIMIT);
    // Through a generic update the required field is asked for too.
    const cancel = await server.api('PATCH', `/state-trials/${trial.id}`, { cookie: admin, body: { title: 'Trial', status: 'CANCELLED' } });
    expect(cancel.status).toBe(400);
    expect(cancel.body.errors).toEqual({ reason: ['Reason is required.'] });
    expect((await server.api('GET', `/state-trials/${trial.id}`, { cookie: admin })).body.status).toBe('SUBMITTED');
  });

  it("sends the transition's notify after it committed", async () => {
    const trial = await newTrial(50);
    await move(trial.id, 'submit', seller.cookie);
    expect(await notes(seller.id, 'Trial paid')).toHaveLength(0);
    const paid = await move(trial.id, 'pay', admin, { amount: 40 });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'PAID', amount: 40 });
    const sent = await notes(seller.id, 'Trial paid');
    expect(sent.map((n) => n.message)).toEqual(['Trial was paid 40.']);
  });

  it("holds the server's own writes to from and to, not to roles, creates included", async () => {
    const trial = await newTrial();
    await expect(own.update(trials, trial.id, { status: 'PAID' })).rejects.toMatchObject({ status: 409, message: 'Cannot change Status from DRAFT to PAID.' });
    expect(await own.update(trials, trial.id, { status: 'SUBMITTED' })).toMatchObject({ status: 'SUBMITTED' });
    await expect(own.create(trials, { title: 'Made', limit: 1, status: 'PAID' })).rejects.toMatchObject({
      status: 409,
      message: 'Cannot change Status from DRAFT to PAID.',
    });
    expect(await own.create(trials, { title: 'Made', limit: 1, status: 'SUBMITTED' })).toMatchObject({ status: 'SUBMITTED' });
  });

  describe("the products' commission", () => {
    it('is approved and rejected through its transitions; a seller never moves it, nothing moves it back', async () => {
      const branch = await makeBranch(server, admin);
      const created = await server.api('POST', '/products', { cookie: seller.cookie, body: productBody(branch) });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      // A seller's own update cannot set the status, even where the body's rule would let it through.
      const asSeller = new RecordsService({ db: server.db, registry, user: { ...(await userRow(seller.id)) } });
      await expect(asSeller.update('products', id, { comissionStatus: 'APPROVED' })).rejects.toMatchObject({
        status: 409,
        message: 'Cannot change Commission status from PENDING to APPROVED.',
      });
      expect((await server.api('POST', `/products/${id}/transitions/approve`, { cookie: seller.cookie, body: {} })).status).toBe(403);

      const missing = await server.api('POST', `/products/${id}/transitions/reject`, { cookie: admin, body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body.errors).toEqual({ commissionRejectReason: ['Please write why the commission is rejected.'] });
      const rejected = await server.api('POST', `/products/${id}/transitions/reject`, { cookie: admin, body: { commissionRejectReason: 'Too high.' } });
      expect(rejected.status).toBe(200);
      expect(rejected.body).toMatchObject({ comissionStatus: 'REJECTED', commissionRejectReason: 'Too high.' });
      expect((await audits(id)).at(-1)!.action).toBe('transition:reject');
      expect((await notes(seller.id, 'Commission rejected')).map((n) => n.message)).toContain(`The commission of your product ${created.body.name} was rejected: Too high.`);
      // Rejecting again through the reject dialog keeps the state (a new reason); its transition cannot be made twice.
      expect((await server.api('POST', `/site-commissions/reject/${id}`, { cookie: admin, body: { message: 'Far too high.' } })).status).toBe(200);
      const twice = await server.api('POST', `/products/${id}/transitions/reject`, { cookie: admin, body: { commissionRejectReason: 'Again.' } });
      expect(twice.status).toBe(409);
      expect(twice.body.message).toBe('Cannot change Commission status from REJECTED to REJECTED.');

      const approved = await server.api('POST', `/products/${id}/transitions/approve`, { cookie: admin, body: {} });
      expect(approved.body).toMatchObject({ comissionStatus: 'APPROVED', commissionRejectReason: null });
      expect((await audits(id)).at(-1)!.action).toBe('transition:approve');
      await expect(own.update('products', id, { comissionStatus: 'PENDING' })).rejects.toMatchObject({
        status: 409,
        message: 'Cannot change Commission status from APPROVED to PENDING.',
      });
    });
  });

  describe("the documents' review", () => {
    it('is approved and rejected by admins with a reason, and sent again by the owner', async () => {
      const sellerCookie = await server.login('seller');
      const doc = (await server.api('POST', '/sellers/documents', { cookie: sellerCookie, body: { kind: 'PASSPORT', file: '/assets/images/p.pdf' } })).body;
      const path = `/sellers/documents/${doc.id}`;
      // The review dialog's update makes the transitions too: a rejection must say why.
      const bare = await server.api('PATCH', path, { cookie: admin, body: { status: 'REJECTED' } });
      expect(bare.status).toBe(400);
      expect(bare.body.errors).toEqual({ note: ['Review note is required.'] });
      expect((await server.api('PATCH', path, { cookie: admin, body: { status: 'REJECTED', note: 'Blurred.' } })).status).toBe(200);
      const back = await server.api('PATCH', path, { cookie: admin, body: { status: 'PENDING' } });
      expect(back.status).toBe(409);
      expect(back.body.message).toBe('Cannot change Status from REJECTED to PENDING.');
      // The owner sends it again through the transition's route: pending, the old note cleared.
      expect((await server.api('POST', `${path}/transitions/resubmit`, { cookie: admin, body: { file: '/assets/images/p2.pdf' } })).status).toBe(403);
      const again = await server.api('POST', `${path}/transitions/resubmit`, { cookie: sellerCookie, body: { file: '/assets/images/p2.pdf' } });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body).toMatchObject({ status: 'PENDING', note: null, file: '/assets/images/p2.pdf' });
      expect((await server.api('POST', `${path}/transitions/resubmit`, { cookie: sellerCookie, body: { file: '/assets/images/p3.pdf' } })).body.message).toBe(
        'Cannot change Status from PENDING to PENDING.',
      );
      const approved = await server.api('POST', `${path}/transitions/approve`, { cookie: admin, body: {} });
      expect(approved.body.status).toBe('APPROVED');
      expect((await audits(doc.id)).map((a) => a.action)).toEqual(['create', 'transition:reject', 'transition:resubmit', 'transition:approve']);
    });

    it('offers each role only the transitions it may make from the state a record is in', () => {
      const docs = registry.resource('sellerDocuments');
      const names = (status: string, role: string) => allowedTransitions(docs, 'status', { status }, role).map((t) => t.name);
      expect(names('PENDING', 'admin')).toEqual(['approve', 'reject']);
      expect(names('REJECTED', 'admin')).toEqual(['approve']);
      expect(names('REJECTED', 'seller')).toEqual(['resubmit']);
      expect(names('PENDING', 'seller')).toEqual([]);
      expect(names('APPROVED', 'dealer')).toEqual([]);
    });
  });

  const userRow = (id: string) => server.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
});

describe('a states declaration', () => {
  const declare = (status: Record<string, unknown>, extra: Record<string, unknown> = {}) => () =>
    defineResource({
      name: 'badStates',
      label: 'Bad',
      plural: 'Bads',
      access: { read: ['admin'], write: ['admin'] },
      fields: [field.text('name'), field.select('status', ['A', 'B'], { createdWith: 'A', ...status })],
      reads: { list: read.list('GET /bads') },
      ...extra,
    });
  const move = (t: Record<string, unknown>) => ({ states: { transitions: [{ name: 'go', label: 'Go', from: ['A'], to: 'B', roles: ['admin'], ...t }] } });

  it('is refused when it names a state the field does not have, or a field the resource does not', () => {
    expect(declare(move({}))).not.toThrow();
    expect(declare(move({ to: 'C' }))).toThrow("Manifest 'badStates': field 'status': transition go goes to 'C' is not one of its options");
    expect(declare(move({ from: ['Z'] }))).toThrow("transition go leaves from 'Z' is not one of its options");
    expect(declare(move({ requires: ['amount'] }))).toThrow("transition 'go' requires unknown field 'amount'");
    expect(declare({ ...move({}), states: { initial: 'X', transitions: move({}).states.transitions } })).toThrow("initial state 'X'");
    expect(declare(move({}), { reads: {} })).toThrow('a resource with states needs a list read');
    expect(declare(move({ notify: { to: 'owner', title: 'T', message: 'M', type: 'info', category: 'c' } }))).toThrow('transition go notifies the owner');
  });
});
