/**
 * Accounts through the real HTTP API, on every engine this machine has: the admin's Users screen
 * (list, one, update of role, dealer and state; disabling shuts the account out at once) and the
 * signed-in user's own profile (`GET /getcurrentuser`, `PATCH /users`, spec §3, §5 Profile, §7).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { expectNoSecrets } from '../support/secrets.ts';
import { DEMO_PASSWORD, demoEmail } from '../../src/server/seed/index.ts';

describe.each(engines)('accounts API (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  const ids: Record<string, string> = {};

  /** Signs in with a password and answers the status, the body and the session cookie. */
  async function signIn(email: string, password = DEMO_PASSWORD) {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    return { status: res.status, body: await res.json(), cookie: res.headers.get('set-cookie')?.split(';')[0] };
  }

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    for (const row of await server.db.selectFrom('users').select(['id', 'email']).execute()) ids[String(row.email).split('@')[0]] = String(row.id);
  });
  afterAll(() => server?.close());

  describe('the Users screen (admin)', () => {
    it('lists every account with its role and state, and never a hash', async () => {
      const res = await server.api('GET', '/users', { cookie: admin, query: { sort: ['email', 'ASC'], range: [0, 99] } });
      expect(res.status).toBe(200);
      const emails = res.body.map((u: { email: string }) => u.email);
      for (const role of ['admin', 'seller', 'dealer', 'agent', 'user', 'support']) expect(emails).toContain(demoEmail(role));
      expect(res.body.find((u: { email: string }) => u.email === 'seller@demo.test')).toMatchObject({ role: 'seller', name: 'Demo Seller' });
      expectNoSecrets(res.body);
      const one = await server.api('GET', `/users/${ids.seller}`, { cookie: admin });
      expect(one.status).toBe(200);
      expect(one.body.email).toBe('seller@demo.test');
      expectNoSecrets(one.body);
      const byRole = await server.api('GET', '/users', { cookie: admin, query: { filter: { role: 'dealer' } } });
      expect(new Set(byRole.body.map((u: { role: string }) => u.role))).toEqual(new Set(['dealer']));
    });

    it('is the admin’s alone', async () => {
      for (const role of ['seller', 'dealer', 'agent', 'user', 'support'] as const) {
        const cookie = await server.login(role);
        expect((await server.api('GET', '/users', { cookie })).status).toBe(403);
        expect((await server.api('GET', `/users/${ids.seller}`, { cookie })).status).toBe(403);
        expect((await server.api('PATCH', `/users/${ids.seller}`, { cookie, body: { role: 'admin' } })).status).toBe(403);
        expect((await server.api('POST', `/users/${ids.seller}/one-time-password`, { cookie })).status).toBe(403);
      }
      expect((await server.api('GET', '/users')).status).toBe(401);
    });

    it('updates role, dealer and state, by the rules', async () => {
      const put = (id: string, body: unknown) => server.api('PATCH', `/users/${id}`, { cookie: admin, body });
      // The dialog sends its three fields, as the form shows them.
      const moved = await put(ids.agent, { role: 'agent', dealerId: ids.dealer, status: 'ACTIVE' });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ id: ids.agent, dealerId: ids.dealer, role: 'agent' });
      expectNoSecrets(moved.body);
      expect((await put(ids.agent, { role: 'agent', dealerId: '', status: 'ACTIVE' })).body.dealerId).toBeNull();

      const bad = await put(ids.agent, { role: 'owner', status: 'GONE', dealerId: ids.seller });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toMatchObject({ dealerId: ['Dealer must be a dealer account.'] });
      const shape = await put(ids.agent, { role: 'owner', status: 'GONE' });
      expect(shape.body.errors).toMatchObject({ role: ['Role is required!'], status: ['Status must be ACTIVE or DISABLED.'] });
      const nobody = await put(ids.agent, { role: 'agent', status: 'ACTIVE', dealerId: '0123456789abcdef01234567' });
      expect(nobody.body.errors).toMatchObject({ dealerId: ['Dealer does not exist.'] });
      // Only role, dealer and state: the login, the name or a password cannot be slipped in.
      const smuggled = await put(ids.agent, { email: 'x@demo.test', password: 'hacked1', passwordHash: 'x', mustChangePassword: false });
      expect(smuggled.status).toBe(400);
      for (const field of ['email', 'mustChangePassword', 'password', 'passwordHash'])
        expect(smuggled.body.errors[field]).toEqual([`Field '${field}' is not allowed.`]);

      const own = await put(ids.admin, { status: 'DISABLED', role: 'user', dealerId: null });
      expect(own.status).toBe(400);
      expect(own.body.errors).toEqual({
        status: ['You cannot disable your own account.'],
        role: ['You cannot take the admin role from your own account.'],
      });
      expect((await put(ids.support, { role: 'agent', status: 'ACTIVE' })).body.role).toBe('agent');
      expect((await put(ids.support, { role: 'support', status: 'ACTIVE' })).body.role).toBe('support');
    });

    it('disabling ends the account’s sessions at once, and sign-in refuses it', async () => {
      const before = await signIn('user@demo.test');
      expect(before.status).toBe(200);
      expect((await server.api('GET', '/getcurrentuser', { cookie: before.cookie })).status).toBe(200);

      const disabled = await server.api('PATCH', `/users/${ids.user}`, { cookie: admin, body: { role: 'user', status: 'DISABLED' } });
      expect(disabled.status).toBe(200);
      expect(disabled.body.status).toBe('DISABLED');
      expect((await server.api('GET', '/getcurrentuser', { cookie: before.cookie })).status).toBe(401);
      const refused = await signIn('user@demo.test');
      expect(refused).toMatchObject({ status: 403, body: { message: 'This account is disabled.' }, cookie: undefined });
      // Who does not know the password learns nothing of the account's state.
      expect((await signIn('user@demo.test', 'wrong-one')).body).toEqual({ message: 'Invalid email or password.' });
      const stored = await server.db.selectFrom('sessions').selectAll().where('userId', '=', ids.user).execute();
      expect(stored).toEqual([]);

      const list = await server.api('GET', '/users', { cookie: admin, query: { filter: { status: 'DISABLED' } } });
      expect(list.body.map((u: { id: string }) => u.id)).toEqual([ids.user]);
      await server.api('PATCH', `/users/${ids.user}`, { cookie: admin, body: { role: 'user', status: 'ACTIVE' } });
      expect((await signIn('user@demo.test')).status).toBe(200);
    });
  });

  describe('the profile (any signed-in user)', () => {
    const profile = {
      name: 'Rahim Uddin',
      email: 'seller@demo.test',
      image: '/avatar.png',
      whatsapp: '+8801712345678',
      country: 'BD',
      designation: 'Shop owner',
      inviteCode: 'DEMO-SELLER',
    };

    it('reads the signed-in user, never a hash', async () => {
      const cookie = await server.login('seller');
      const me = await server.api('GET', '/getcurrentuser', { cookie });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ email: 'seller@demo.test', inviteCode: 'DEMO-SELLER', role: 'seller' });
      expectNoSecrets(me.body);
    });

    it('changes the own profile with PATCH /users', async () => {
      const cookie = await server.login('seller');
      const res = await server.api('PATCH', '/users', { cookie, body: profile });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ...profile, id: ids.seller });
      expectNoSecrets(res.body);
      // The invite code is optional (§5) and may be left out.
      const { inviteCode: _i, ...rest } = profile;
      const again = await server.api('PATCH', '/users', { cookie, body: { ...rest, designation: 'Owner and buyer' } });
      expect(again.status).toBe(200);
      expect((await server.api('GET', '/getcurrentuser', { cookie })).body.designation).toBe('Owner and buyer');
      // Only the signed-in user's own record changed.
      const other = await server.db.selectFrom('users').selectAll().where('id', '=', ids.dealer).executeTakeFirstOrThrow();
      expect(other.name).toBe('Demo Dealer');
    });

    it('judges every field by §5 Profile', async () => {
      const cookie = await server.login('dealer');
      const res = await server.api('PATCH', '/users', {
        cookie,
        body: { name: 'A', email: 'dealer@demo.test', image: 'x', whatsapp: '1', country: 'ZZ', designation: 'ab' },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toMatchObject({
        name: ['Name is required!'],
        image: ['Image is required!'],
        whatsapp: ['WhatsApp number is required!'],
        designation: ['Designation is required!'],
      });
      const missing = await server.api('PATCH', '/users', { cookie, body: {} });
      expect(missing.body.errors).toMatchObject({ name: ['Name is required!'], email: ['Email is required!'], designation: ['Designation is required!'] });
      const country = await server.api('PATCH', '/users', { cookie, body: { ...profile, email: 'dealer@demo.test', inviteCode: 'DEMO-DEALER', country: 'ZZ' } });
      expect(country.body.errors).toEqual({ country: ['Country does not exist.'] });
      const script = await server.api('PATCH', '/users', { cookie, body: { ...profile, email: 'dealer@demo.test', inviteCode: 'DEMO-DEALER', image: 'javascript:alert(1)' } });
      expect(script.body.errors).toEqual({ image: ['Image is required!'] });
    });

    it('refuses a changed email or invite code, and unknown fields', async () => {
      const cookie = await server.login('agent');
      const base = { ...profile, email: 'agent@demo.test', inviteCode: 'DEMO-AGENT' };
      const email = await server.api('PATCH', '/users', { cookie, body: { ...base, email: 'someone@else.test' } });
      expect(email.status).toBe(400);
      expect(email.body.errors).toEqual({ email: ['Email cannot be changed.'] });
      const code = await server.api('PATCH', '/users', { cookie, body: { ...base, inviteCode: 'MINE' } });
      expect(code.body.errors).toEqual({ inviteCode: ['Invite code cannot be changed.'] });
      // The same values in another spelling are no change.
      expect((await server.api('PATCH', '/users', { cookie, body: { ...base, email: ' AGENT@demo.test ' } })).status).toBe(200);
      for (const field of ['role', 'status', 'dealerId', 'password', 'passwordHash', 'mustChangePassword', 'id']) {
        const res = await server.api('PATCH', '/users', { cookie, body: { ...base, [field]: field === 'mustChangePassword' ? false : 'admin' } });
        expect(res.status, field).toBe(400);
        expect(res.body.errors[field]).toEqual([`Field '${field}' is not allowed.`]);
      }
      const stored = await server.db.selectFrom('users').selectAll().where('email', '=', 'agent@demo.test').executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ role: 'agent', inviteCode: 'DEMO-AGENT' });
      expect((await server.api('PATCH', '/users', { body: base })).status).toBe(401);
    });

    it('keeps answering 400, never 5xx, to malformed bodies', async () => {
      const cookie = await server.login('support');
      for (const body of [[], 'text', { name: { $ne: 1 } }, { name: 'x'.repeat(300) }, null]) {
        const res = await server.api('PATCH', '/users', { cookie, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
    });
  });
});
