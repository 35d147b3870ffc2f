/**
 * The documents of sellers, dealers and agents through the real HTTP API, on every engine: the owner
 * uploads and resubmits its own, an admin reviews them, and nobody else reaches them (404): another
 * seller, another dealer's team, another agent.
 */
import { signInAs } from './fixtures/catalogue.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECOND_DEALER_EMAIL, SECOND_SELLER_EMAIL } from '../../src/server/seed/people.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { expectNoSecrets } from '../support/secrets.ts';


const licence = { kind: 'TRADE_LICENCE', file: '/assets/images/licence.pdf' };
// One pending document per kind and owner (resources/account-documents.ts `single`): each test files its own kind.
const statement = { kind: 'BANK_STATEMENT', file: '/assets/images/statement.pdf' };
const certificate = { kind: 'TAX_CERTIFICATE', file: '/assets/images/tax.pdf' };

describe.each(engines)('account documents API (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let seller: string;
  let seller2: string;
  let dealer: string;
  let dealer2: string;
  const ids = (res: { body: { id: string }[] }) => res.body.map((d) => d.id);
  const userIdOf = async (email: string) =>
    String((await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id);
  const signIn = (email: string) => signInAs(server, email);

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    seller = await server.login('seller');
    dealer = await server.login('dealer');
    seller2 = await signIn(SECOND_SELLER_EMAIL);
    dealer2 = await signIn(SECOND_DEALER_EMAIL);
  });
  afterAll(() => server?.close());

  describe('seller documents', () => {
    it('are uploaded by their owner, pending review, owned by it whatever it sends', async () => {
      const res = await server.api('POST', '/sellers/documents', { cookie: seller, body: licence });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ ...licence, status: 'PENDING', note: null, userId: await userIdOf('seller@demo.test') });
      expectNoSecrets(res.body);
      for (const extra of [{ status: 'APPROVED' }, { userId: await userIdOf(SECOND_SELLER_EMAIL) }, { note: 'trust me' }]) {
        const refused = await server.api('POST', '/sellers/documents', { cookie: seller, body: { ...licence, ...extra } });
        expect(refused.status, JSON.stringify(extra)).toBe(400);
        expect(Object.keys(refused.body.errors)).toEqual(Object.keys(extra));
      }
      const bad = await server.api('POST', '/sellers/documents', { cookie: seller, body: { kind: 'SELFIE', file: 'javascript:alert(1)' } });
      expect(bad.body.errors).toEqual({ kind: ['Please choose what the document is.'], file: ['Please upload the document.'] });
      // Only the owner's role uploads: an admin reviews, a dealer reads.
      expect((await server.api('POST', '/sellers/documents', { cookie: admin, body: licence })).status).toBe(403);
      expect((await server.api('POST', '/sellers/documents', { cookie: dealer, body: licence })).status).toBe(403);
    });

    it("answers 404 to another seller, and to a dealer whose team the owner is not in", async () => {
      const mine = await server.api('POST', '/sellers/documents', { cookie: seller, body: statement });
      const theirs = await server.api('POST', '/sellers/documents', { cookie: seller2, body: { kind: 'NATIONAL_ID', file: '/assets/images/id.png' } });
      const id = mine.body.id;
      expect((await server.api('GET', `/sellers/documents/${id}`, { cookie: seller2 })).status).toBe(404);
      expect((await server.api('GET', `/sellers/documents/${id}/update`, { cookie: seller2 })).status).toBe(404);
      expect((await server.api('PATCH', `/sellers/documents/${id}/resubmit`, { cookie: seller2, body: licence })).status).toBe(404);
      expect((await server.api('DELETE', `/sellers/documents/${id}`, { cookie: seller2 })).status).toBe(404);
      expect((await server.api('GET', `/sellers/documents/${id}`, { cookie: dealer2 })).status).toBe(404);
      expect((await server.api('GET', `/sellers/documents/${id}`, { cookie: seller })).status).toBe(200);
      expect((await server.api('GET', `/sellers/documents/${id}/update`, { cookie: seller })).body.id).toBe(id);

      // Lists: each its own; the dealer its team's; the admin all.
      const own = ids(await server.api('GET', '/sellers/documents', { cookie: seller2 }));
      expect(own).toContain(theirs.body.id);
      expect(own).not.toContain(id);
      const team = ids(await server.api('GET', '/sellers/documents', { cookie: dealer }));
      expect(team).toContain(id);
      expect(team).not.toContain(theirs.body.id);
      expect(ids(await server.api('GET', '/sellers/documents', { cookie: dealer2 }))).toEqual(expect.arrayContaining([theirs.body.id]));
      const all = await server.api('GET', '/sellers/documents', { cookie: admin, query: { range: [0, 99] } });
      expect(ids(all)).toEqual(expect.arrayContaining([id, theirs.body.id]));
      expectNoSecrets(all.body);
      // A dealer reads its sellers' documents but does not touch them.
      expect((await server.api('DELETE', `/sellers/documents/${id}`, { cookie: dealer })).status).toBe(403);
    });

    it('are reviewed by an admin, and go back to review when sent again', async () => {
      const doc = await server.api('POST', '/sellers/documents', { cookie: seller, body: certificate });
      const path = `/sellers/documents/${doc.body.id}`;
      expect((await server.api('PATCH', path, { cookie: seller, body: { status: 'APPROVED' } })).status).toBe(403);
      const wrong = await server.api('PATCH', path, { cookie: admin, body: { status: 'MAYBE' } });
      expect(wrong.body.errors).toEqual({ status: ['Status must be PENDING, APPROVED or REJECTED.'] });
      const rejected = await server.api('PATCH', path, { cookie: admin, body: { status: 'REJECTED', note: 'Expired in 2023.' } });
      expect(rejected.status).toBe(200);
      expect(rejected.body).toMatchObject({ status: 'REJECTED', note: 'Expired in 2023.', userId: doc.body.userId });

      const again = await server.api('PATCH', `${path}/resubmit`, { cookie: seller, body: { ...certificate, file: '/assets/images/licence-2024.pdf' } });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ status: 'PENDING', note: null, file: '/assets/images/licence-2024.pdf' });
      expect((await server.api('PATCH', `${path}/resubmit`, { cookie: seller, body: { ...certificate, status: 'APPROVED' } })).status).toBe(400);
      expect((await server.api('PATCH', `${path}/resubmit`, { cookie: admin, body: certificate })).status).toBe(403);

      expect((await server.api('PATCH', path, { cookie: admin, body: { status: 'APPROVED', note: '' } })).body.status).toBe('APPROVED');
      expect((await server.api('DELETE', path, { cookie: seller })).status).toBe(200);
      expect((await server.api('GET', path, { cookie: admin })).status).toBe(404);
    });
  });

  describe('dealer documents', () => {
    it("are read by the dealer's id, within reach", async () => {
      const doc = await server.api('POST', '/dealers/documents', { cookie: dealer, body: { kind: 'TAX_CERTIFICATE', file: '/assets/images/tax.pdf' } });
      expect(doc.status).toBe(201);
      const profile = await server.db.selectFrom('dealers').select('id').where('userId', '=', await userIdOf('dealer@demo.test')).executeTakeFirstOrThrow();
      const path = `/dealers/documents/id/${profile.id}`;
      const byAdmin = await server.api('GET', path, { cookie: admin });
      expect(byAdmin.status).toBe(200);
      expect(ids(byAdmin)).toEqual([doc.body.id]);
      expectNoSecrets(byAdmin.body);
      expect(ids(await server.api('GET', path, { cookie: dealer }))).toEqual([doc.body.id]);
      expect((await server.api('GET', path, { cookie: dealer2 })).status).toBe(404);
      expect((await server.api('GET', `/dealers/documents/${doc.body.id}`, { cookie: dealer2 })).status).toBe(404);
      expect(ids(await server.api('GET', '/dealers/documents', { cookie: dealer2 }))).toEqual([]);
      expect((await server.api('GET', path, { cookie: seller })).status).toBe(403);
      expect((await server.api('GET', '/dealers/documents/id/ffffffffffffffffffffffff', { cookie: admin })).status).toBe(404);
    });
  });

  describe('agent documents', () => {
    it("are read by the agent's email, within reach", async () => {
      const agent = await server.login('agent');
      const doc = await server.api('POST', '/agents/documents', { cookie: agent, body: { kind: 'PASSPORT', file: '/assets/images/passport.png' } });
      expect(doc.status).toBe(201);
      const other = await server.api('POST', '/agents', {
        cookie: admin,
        body: { name: 'Priya Sharma', email: 'priya@example.com', phone: '+919820000403', city: 'Mumbai', district: 'Andheri', country: 'IN', commission: 2, fulladdress: '14 Veera Desai Road' },
      });
      expect(other.status).toBe(201);

      const byAdmin = await server.api('GET', '/agents/documents/agent@demo.test', { cookie: admin });
      expect(ids(byAdmin)).toEqual([doc.body.id]);
      expect(ids(await server.api('GET', '/agents/documents/AGENT@demo.test', { cookie: agent }))).toEqual([doc.body.id]);
      expect((await server.api('GET', '/agents/documents/priya@example.com', { cookie: admin })).body).toEqual([]);
      expect((await server.api('GET', '/agents/documents/priya@example.com', { cookie: agent })).status).toBe(404);
      expect((await server.api('GET', '/agents/documents/nobody@example.com', { cookie: admin })).status).toBe(404);
      expect((await server.api('GET', '/agents/documents/agent@demo.test', { cookie: seller })).status).toBe(403);
      expect(ids(await server.api('GET', '/agents/documents', { cookie: agent }))).toEqual([doc.body.id]);
    });
  });
});
