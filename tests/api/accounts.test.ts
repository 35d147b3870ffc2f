/**
 * Agents, dealers and sellers through the real HTTP API, on every engine this machine has: the spec's
 * rules and messages (§5), the agent's account made with it, the computed agent id, and who reaches
 * which profile (another owner's profile answers 404).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../resources/index.ts';
import { ruleOf } from '../../src/manifest/index.ts';
import { agentIdOf } from '../../src/domain/names.ts';
import { DEMO_PASSWORD } from '../../src/server/seed/index.ts';
import { SECOND_DEALER_EMAIL, SECOND_SELLER_EMAIL } from '../../src/server/seed/people.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { expectNoSecrets } from '../support/secrets.ts';


const newAgent = (over: Record<string, unknown> = {}) => ({
  name: 'John Smith',
  email: 'John.Smith@Example.com',
  phone: '+15125550100',
  city: 'Austin',
  district: 'Travis',
  country: 'US',
  commission: 2.5,
  fulladdress: '401 Congress Ave, Austin',
  agentId: 'J.A.T.USA',
  ...over,
});

describe.each(engines)('agents, dealers and sellers API (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  const idOf = async (email: string) =>
    String((await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id);
  /** Signs in with an email and password (the helper's `login` knows only one demo account per role). */
  const signIn = async (email: string, password = DEMO_PASSWORD) => {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    return { status: res.status, cookie: res.headers.get('set-cookie')?.split(';')[0] ?? '' };
  };
  const profileOf = async (table: string, email: string) =>
    (await server.db.selectFrom(table).selectAll().where('userId', '=', await idOf(email)).executeTakeFirstOrThrow()) as Record<string, unknown>;

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
  });
  afterAll(() => server?.close());

  describe('seed', () => {
    it('gives the demo people their profiles and teams, also without the catalogue', async () => {
      expect(await server.db.selectFrom('users').select('dealerId').where('email', '=', 'seller@demo.test').executeTakeFirst()).toEqual({
        dealerId: await idOf('dealer@demo.test'),
      });
      expect(await server.db.selectFrom('users').select('dealerId').where('email', '=', SECOND_SELLER_EMAIL).executeTakeFirst()).toEqual({
        dealerId: await idOf(SECOND_DEALER_EMAIL),
      });
      expect((await signIn(SECOND_SELLER_EMAIL)).status).toBe(200);
      expect((await signIn(SECOND_DEALER_EMAIL)).status).toBe(200);
      const agent = await profileOf('agents', 'agent@demo.test');
      expect(agent.agentId).toBe(agentIdOf(agent as never));
      expect(agent.email).toBe('agent@demo.test');
      const dealer = await profileOf('dealers', 'dealer@demo.test');
      expect(dealer.dealerId).toBe(agentIdOf(dealer as never));
      expect((await profileOf('sellers', 'seller@demo.test')).shopname).toBeTruthy();
      expect((await profileOf('sellers', SECOND_SELLER_EMAIL)).shopname).toBeTruthy();
    });

    it('seeds a believable marketplace with the catalogue, every row valid by its rules', async () => {
      const full = await startTestServer({ engine, catalogue: true });
      try {
        const dealers = await full.db.selectFrom('users').select(['id']).where('role', '=', 'dealer').execute();
        expect(dealers).toHaveLength(3);
        for (const d of dealers) {
          const team = await full.db.selectFrom('users').select('id').where('dealerId', '=', d.id).execute();
          expect(team.length).toBeGreaterThanOrEqual(2);
          expect(team.length).toBeLessThanOrEqual(4);
        }
        const agents = await full.db.selectFrom('agents').selectAll().execute();
        expect(agents).toHaveLength(6);
        expect(new Set(agents.map((a) => a.country)).size).toBeGreaterThanOrEqual(4);
        expect(new Set(agents.map((a) => a.agentId)).size).toBe(6);
        for (const table of ['sellerDocuments', 'dealerDocuments', 'agentDocuments']) {
          const statuses = (await full.db.selectFrom(table).select('status').execute()).map((d) => d.status);
          expect(new Set(statuses), table).toEqual(new Set(['PENDING', 'APPROVED', 'REJECTED']));
        }
        // Every seeded profile and document holds what its fields' rules take.
        for (const table of ['agents', 'sellers', 'sellerDocuments', 'dealerDocuments', 'agentDocuments']) {
          const r = registry.resource(table);
          for (const row of await full.db.selectFrom(table).selectAll().execute())
            for (const f of r.fields.filter((x) => x.rule && row[x.name] !== null))
              expect(ruleOf(f).safeParse(row[f.name]).success, `${table}.${f.name} = ${row[f.name]}`).toBe(true);
        }
      } finally {
        await full.close();
      }
    });
  });

  describe('agents', () => {
    it('creates an agent with its account, computing the agent id; the account cannot sign in yet', async () => {
      const res = await server.api('POST', '/agents', { cookie: admin, body: newAgent() });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: 'John Smith', email: 'john.smith@example.com', agentId: 'J.A.T.USA', commission: 2.5, country: 'US' });
      expectNoSecrets(res.body);
      const account = await server.db.selectFrom('users').selectAll().where('id', '=', res.body.userId).executeTakeFirstOrThrow();
      expect(account).toMatchObject({ role: 'agent', email: 'john.smith@example.com', name: 'John Smith', passwordHash: null });
      expect((await signIn('john.smith@example.com', 'anything')).status).toBe(401);

      // The same initials get the first free suffix; the id is made again when its sources change.
      const twin = await server.api('POST', '/agents', { cookie: admin, body: newAgent({ name: 'Jane Sparks', email: 'jane@example.com' }) });
      expect(twin.status).toBe(201);
      expect(twin.body.agentId).toBe('J.A.T.USA-2');
      const moved = await server.api('PATCH', `/agents/${twin.body.id}`, {
        cookie: admin,
        body: newAgent({ name: 'Jane Sparks', email: 'jane.sparks@example.com', city: 'Dallas', agentId: 'J.D.T.USA' }),
      });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ agentId: 'J.D.T.USA', email: 'jane.sparks@example.com', city: 'Dallas' });
      // The account follows the profile's name and email.
      expect(await server.db.selectFrom('users').select(['email', 'name']).where('id', '=', twin.body.userId).executeTakeFirst()).toEqual({
        email: 'jane.sparks@example.com',
        name: 'Jane Sparks',
      });
    });

    it('refuses an agent id that is not the computed one', async () => {
      const res = await server.api('POST', '/agents', { cookie: admin, body: newAgent({ email: 'forged@example.com', agentId: 'VIP-1' }) });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(['agentId']);
      expect(await server.db.selectFrom('users').select('id').where('email', '=', 'forged@example.com').executeTakeFirst()).toBeUndefined();
    });

    it('answers 400 with the specification messages, per field', async () => {
      const empty = await server.api('POST', '/agents', { cookie: admin, body: {} });
      expect(empty.status).toBe(400);
      expect(empty.body.errors).toEqual({
        name: ['Agent name is required!'],
        email: ['enter a valid email'],
        phone: ['Phone is required!'],
        city: ['City is required!'],
        district: ['District is required!'],
        country: ['Country is required!'],
        commission: ['amount is required!'],
        fulladdress: ['Full address is required!'],
      });
      const cases: [Record<string, unknown>, Record<string, string[]>][] = [
        [{ email: 'not-an-email' }, { email: ['enter a valid email'] }],
        [{ phone: '12', city: 'NY', district: 'Q' }, { phone: ['Phone is required!'], city: ['City is required!'], district: ['District is required!'] }],
        [{ commission: 'ten' }, { commission: ['Commission must be a number.'] }],
        [{ commission: -1 }, { commission: ['Commission cannot be negative.'] }],
        [{ commission: 100.5 }, { commission: ['Commission cannot be more than 100%.'] }],
        [{ commission: 1.234 }, { commission: ['Commission may have at most 2 decimals.'] }],
        [{ fulladdress: 'ab' }, { fulladdress: ['Full address is required!'] }],
        [{ agentId: 'J' }, { agentId: ['Agent ID must be at least 2 characters.'] }],
        [{ userId: await idOf('admin@demo.test') }, { userId: ["Field 'userId' is not allowed."] }],
        [{ country: 'ZZ', email: 'zz@example.com' }, { country: ['Country does not exist.'] }],
      ];
      for (const [over, errors] of cases) {
        const res = await server.api('POST', '/agents', { cookie: admin, body: newAgent(over) });
        expect(res.status, JSON.stringify(over)).toBe(400);
        expect(res.body.errors, JSON.stringify(over)).toEqual(errors);
      }
    });

    it('refuses an email another account holds, and writes nothing', async () => {
      const before = (await server.db.selectFrom('agents').select('id').execute()).length;
      const res = await server.api('POST', '/agents', { cookie: admin, body: newAgent({ email: 'seller@demo.test' }) });
      expect(res.status).toBe(409);
      expect(Object.keys(res.body.errors)).toEqual(['email']);
      expect((await server.db.selectFrom('agents').select('id').execute()).length).toBe(before);
    });

    it('updates the commission alone, with the spec message', async () => {
      const agent = await profileOf('agents', 'agent@demo.test');
      const path = `/agents/${agent.id}/commission`;
      expect((await server.api('PATCH', path, { cookie: admin, body: {} })).body.errors).toEqual({ commission: ['amount is required!'] });
      const bad = await server.api('PATCH', path, { cookie: admin, body: { commission: 4, name: 'Someone else' } });
      expect(bad.body.errors).toEqual({ name: ["Field 'name' is not allowed."] });
      const ok = await server.api('PATCH', path, { cookie: admin, body: { commission: 7.25 } });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ commission: 7.25, name: agent.name, agentId: agent.agentId });
    });

    it('lets an agent read only its own profile, and no agent write', async () => {
      const mine = await profileOf('agents', 'agent@demo.test');
      const other = await server.api('POST', '/agents', { cookie: admin, body: newAgent({ name: 'Priya Sharma', email: 'priya@example.com', city: 'Mumbai', district: 'Andheri', country: 'IN', agentId: undefined }) });
      const agent = await server.login('agent');
      const list = await server.api('GET', '/agents/', { cookie: agent });
      expect(list.status).toBe(200);
      expect(list.body.map((a: { id: string }) => a.id)).toEqual([mine.id]);
      expect((await server.api('GET', `/agents/${mine.id}`, { cookie: agent })).status).toBe(200);
      expect((await server.api('GET', `/agents/${other.body.id}`, { cookie: agent })).status).toBe(404);
      expect((await server.api('PATCH', `/agents/${mine.id}/commission`, { cookie: agent, body: { commission: 50 } })).status).toBe(403);
      expect((await server.api('GET', '/agents/', { cookie: await server.login('seller') })).status).toBe(403);
      const all = await server.api('GET', '/agents/', { cookie: admin, query: { range: [0, 99] } });
      expect(all.body.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining([mine.id, other.body.id]));
      expectNoSecrets(all.body);
    });

    it('finds an agent by its public id, showing only what the slider shows', async () => {
      const mine = await profileOf('agents', 'agent@demo.test');
      const seller = await server.login('seller');
      const res = await server.api('GET', '/agents/public/', { cookie: seller, query: { agentId: mine.agentId } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: mine.id,
        name: mine.name,
        image: mine.image,
        country: mine.country,
        city: mine.city,
        district: mine.district,
        agentId: mine.agentId,
      });
      expect((await server.api('GET', '/agents/public/', { cookie: seller })).body.errors).toEqual({ agentId: ['agentId is required.'] });
      expect((await server.api('GET', '/agents/public/', { cookie: seller, query: { agentId: 'NO.SUCH.XX' } })).status).toBe(404);
      expect((await server.api('GET', '/agents/public/', { query: { agentId: mine.agentId } })).status).toBe(401);
    });

    it('moves a deleted agent to the recycle bin, from which it comes back', async () => {
      const created = await server.api('POST', '/agents', { cookie: admin, body: newAgent({ name: 'Chidi Eze', email: 'chidi@example.com', city: 'Lagos', district: 'Surulere', country: 'NG', agentId: 'C.L.S.NGA' }) });
      const gone = await server.api('DELETE', `/agents/${created.body.id}/recycle`, { cookie: admin });
      expect(gone.status).toBe(200);
      expect((await server.api('GET', `/agents/${created.body.id}`, { cookie: admin })).status).toBe(404);
      const bin = await server.api('GET', '/recycle-bin', { cookie: admin, query: { filter: { resource: 'agents' } } });
      const entry = bin.body.find((e: { recordId: string }) => e.recordId === created.body.id);
      expect(entry).toBeTruthy();
      expectNoSecrets(entry);
      expect((await server.api('POST', `/recycle-bin/${entry.id}/restore`, { cookie: admin })).status).toBe(200);
      expect((await server.api('GET', `/agents/${created.body.id}`, { cookie: admin })).body.agentId).toBe('C.L.S.NGA');
    });
  });

  describe('dealers', () => {
    it('updates a dealer commission with the spec message; a dealer reads only its own profile', async () => {
      const mine = await profileOf('dealers', 'dealer@demo.test');
      const second = await profileOf('dealers', SECOND_DEALER_EMAIL);
      expect((await server.api('PATCH', `/dealers/${mine.id}`, { cookie: admin, body: {} })).body.errors).toEqual({ commission: ['amount is required!'] });
      const ok = await server.api('PATCH', `/dealers/${mine.id}`, { cookie: admin, body: { commission: 3.5 } });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ commission: 3.5, dealerId: mine.dealerId });

      const dealer = await server.login('dealer');
      const list = await server.api('GET', '/dealers/', { cookie: dealer });
      expect(list.body.map((d: { id: string }) => d.id)).toEqual([mine.id]);
      expect((await server.api('GET', `/dealers/${second.id}`, { cookie: dealer })).status).toBe(404);
      expect((await server.api('PATCH', `/dealers/${mine.id}`, { cookie: dealer, body: { commission: 90 } })).status).toBe(403);
      const all = await server.api('GET', '/dealers/', { cookie: admin });
      expect(all.body.map((d: { id: string }) => d.id)).toEqual(expect.arrayContaining([mine.id, second.id]));
      expectNoSecrets(all.body);
    });

    it('deletes a dealer profile', async () => {
      const second = await profileOf('dealers', SECOND_DEALER_EMAIL);
      const dealer = await server.login('dealer');
      expect((await server.api('DELETE', `/dealers/${second.id}`, { cookie: dealer })).status).toBe(403);
      expect((await server.api('DELETE', `/dealers/${second.id}`, { cookie: admin })).status).toBe(200);
      expect((await server.api('GET', `/dealers/${second.id}`, { cookie: admin })).status).toBe(404);
    });
  });

  describe('sellers', () => {
    it('gives each role the sellers it reaches: admin all, a dealer its team, a seller itself', async () => {
      const mine = await profileOf('sellers', 'seller@demo.test');
      const other = await profileOf('sellers', SECOND_SELLER_EMAIL);
      const ids = (res: { body: { id: string }[] }) => res.body.map((s) => s.id);

      const all = await server.api('GET', '/sellers/', { cookie: admin });
      expect(ids(all)).toEqual(expect.arrayContaining([mine.id, other.id]));
      expectNoSecrets(all.body);
      const dealer = await server.login('dealer');
      expect(ids(await server.api('GET', '/sellers/', { cookie: dealer }))).toEqual([mine.id]);
      expect(ids(await server.api('GET', '/sellers/dealer', { cookie: dealer }))).toEqual([mine.id]);
      expect((await server.api('GET', `/sellers/${other.id}`, { cookie: dealer })).status).toBe(404);
      expect(ids(await server.api('GET', '/sellers/dealer', { cookie: admin }))).toEqual(expect.arrayContaining([mine.id, other.id]));
      const dealer2 = (await signIn(SECOND_DEALER_EMAIL)).cookie;
      expect(ids(await server.api('GET', '/sellers/dealer', { cookie: dealer2 }))).toEqual([other.id]);

      const seller = await server.login('seller');
      expect(ids(await server.api('GET', '/sellers/', { cookie: seller }))).toEqual([mine.id]);
      expect((await server.api('GET', '/sellers/dealer', { cookie: seller })).status).toBe(403);
      expect((await server.api('GET', `/sellers/${mine.id}`, { cookie: seller })).status).toBe(200);
    });

    it("answers 404 to a seller reading or changing another seller's profile, and 403 to deleting any (deleteSeller is the admin's)", async () => {
      const mine = await profileOf('sellers', 'seller@demo.test');
      const other = await profileOf('sellers', SECOND_SELLER_EMAIL);
      const seller = await server.login('seller');
      const body = { shopname: 'Taken over', country: 'BD', image: '/avatar.png', phone: '+8801700000000' };
      expect((await server.api('GET', `/sellers/${other.id}`, { cookie: seller })).status).toBe(404);
      expect((await server.api('PATCH', `/sellers/${other.id}/edit`, { cookie: seller, body })).status).toBe(404);
      expect((await server.api('DELETE', `/sellers/${other.id}`, { cookie: seller })).status).toBe(403);
      expect((await server.api('GET', `/sellers/${other.id}`, { cookie: admin })).body.shopname).not.toBe('Taken over');

      const own = await server.api('PATCH', `/sellers/${mine.id}/edit`, { cookie: seller, body: { ...body, shopname: 'Demo Seller Outlet' } });
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ shopname: 'Demo Seller Outlet', userId: mine.userId });
      const noName = await server.api('PATCH', `/sellers/${mine.id}/edit`, { cookie: seller, body: { ...body, shopname: '' } });
      expect(noName.body.errors).toEqual({ shopname: ['Shop name is required!'] });
      // A dealer reads its team but writes nothing.
      expect((await server.api('DELETE', `/sellers/${mine.id}`, { cookie: await server.login('dealer') })).status).toBe(403);
    });

    it('lets an admin delete a seller profile', async () => {
      const other = await profileOf('sellers', SECOND_SELLER_EMAIL);
      expect((await server.api('DELETE', `/sellers/${other.id}`, { cookie: admin })).status).toBe(200);
      expect((await server.api('GET', `/sellers/${other.id}`, { cookie: admin })).status).toBe(404);
    });
  });
});
