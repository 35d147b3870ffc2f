/**
 * Admin creation of sellers, dealers and plain accounts with their accounts (issue 51), through the real
 * HTTP API on every engine this machine has: the account and the profile are made together (or neither),
 * only by an admin, with no password until a one-time password gives one, with which the person signs in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { expectNoSecrets } from '../support/secrets.ts';
import { CREATE_USER_MESSAGES, users } from '../../resources/people.ts';
import { dealers, INVALID_EMAIL, sellers } from '../../resources/accounts.ts';
import { parseCall, type ActionDialog, type DialogDef } from '../../src/manifest/index.ts';

/** The path a declared create dialog posts to. */
const pathOf = (d: DialogDef) => parseCall((d as ActionDialog).call).path;
const SELLERS = pathOf(sellers.dialogs.createSeller);
const DEALERS = pathOf(dealers.dialogs.createDealer);
const USERS = pathOf(users.dialogs.createUser);

describe.each(engines)('admin creates sellers, dealers and users with their accounts (%s)', (engine) => {
  let server: TestServer;
  let admin: string;

  async function signIn(email: string, password: string) {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    return { status: res.status, body: await res.json() };
  }
  const account = (email: string) => server.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  /** The account of `email` can sign in: an admin issues a one-time password, the person signs in with it. */
  async function expectWorkingSignIn(email: string, role: string) {
    const row = await account(email);
    expect(row, email).toBeDefined();
    expect(row!.passwordHash ?? null).toBeNull();
    expect((await signIn(email, 'anything1')).status).toBe(401);
    const issued = await server.api('POST', `/users/${row!.id}/one-time-password`, { cookie: admin });
    expect(issued.status).toBe(200);
    const signedIn = await signIn(email, issued.body.password);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ email, role, mustChangePassword: true });
  }

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
  });
  afterAll(() => server?.close());

  it('makes a seller: its shop and its account, which signs in', async () => {
    const made = await server.api('POST', SELLERS, {
      cookie: admin,
      body: { shopname: 'Rahim Traders', email: 'Rahim@Example.com', country: 'BD', phone: '+8801711000000' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ shopname: 'Rahim Traders', email: 'rahim@example.com', country: 'BD' });
    expectNoSecrets(made.body);
    const row = await account('rahim@example.com');
    expect(row).toMatchObject({ id: made.body.userId, role: 'seller', name: 'Rahim Traders', country: 'BD' });
    expect(String(row!.inviteCode)).toMatch(/^[A-Z2-9]{10}$/);
    await expectWorkingSignIn('rahim@example.com', 'seller');
    const listed = await server.api('GET', '/sellers/', { cookie: admin, query: { filter: { q: 'Rahim' } } });
    expect(listed.body.map((s: { id: string }) => s.id)).toContain(made.body.id);
  });

  it('makes a dealer: its profile (with its public id) and its account, which signs in', async () => {
    const made = await server.api('POST', DEALERS, {
      cookie: admin,
      body: { name: 'Karim Hossain', email: 'karim@example.com', city: 'Dhaka', district: 'Gulshan', country: 'BD', commission: 4.5 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ name: 'Karim Hossain', email: 'karim@example.com', commission: 4.5 });
    expect(made.body.dealerId).toBeTruthy();
    expect(await account('karim@example.com')).toMatchObject({ id: made.body.userId, role: 'dealer', name: 'Karim Hossain' });
    await expectWorkingSignIn('karim@example.com', 'dealer');
    const empty = await server.api('POST', DEALERS, { cookie: admin, body: {} });
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.errors)).toEqual(expect.arrayContaining(['name', 'email', 'city', 'district', 'country', 'commission']));
  });

  it('makes an account of a role without a profile, which signs in; agents, dealers and sellers come from their lists', async () => {
    const made = await server.api('POST', USERS, { cookie: admin, body: { name: 'Sara Support', email: 'sara@example.com', role: 'support' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ name: 'Sara Support', email: 'sara@example.com', role: 'support', status: 'ACTIVE' });
    expectNoSecrets(made.body);
    await expectWorkingSignIn('sara@example.com', 'support');

    for (const role of ['agent', 'dealer', 'seller']) {
      const refused = await server.api('POST', USERS, { cookie: admin, body: { name: 'Half Made', email: `half-${role}@example.com`, role } });
      expect(refused.status, role).toBe(400);
      expect(refused.body.errors.role).toEqual([CREATE_USER_MESSAGES.profileRole]);
    }
    const bad = await server.api('POST', USERS, { cookie: admin, body: { name: 'No Email', email: 'nope', role: 'user' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.email).toEqual([INVALID_EMAIL]);
    // No password through this form: the owner gets one by a one-time password or a reset link.
    const withPassword = await server.api('POST', USERS, { cookie: admin, body: { name: 'Pass Word', email: 'pw@example.com', role: 'user', password: 'Secret#12' } });
    expect(withPassword.status).toBe(400);
    expect(await server.db.selectFrom('users').select('email').where('email', 'like', 'half-%').execute()).toEqual([]);
  });

  it('makes both or neither: a taken email leaves no profile behind', async () => {
    const count = async (table: string) => Number((await server.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const [sellersBefore, dealersBefore] = [await count('sellers'), await count('dealers')];
    const seller = await server.api('POST', SELLERS, { cookie: admin, body: { shopname: 'Copy Shop', email: 'seller@demo.test', country: 'BD', phone: '12345' } });
    expect(seller.status).toBe(409);
    expect(Object.keys(seller.body.errors)).toEqual(['email']);
    const dealer = await server.api('POST', DEALERS, {
      cookie: admin,
      body: { name: 'Copy Dealer', email: 'dealer@demo.test', city: 'Dhaka', district: 'Gulshan', country: 'BD', commission: 1 },
    });
    expect(dealer.status).toBe(409);
    expect([await count('sellers'), await count('dealers')]).toEqual([sellersBefore, dealersBefore]);
  });

  it('is the admin’s alone', async () => {
    const bodies: [string, unknown][] = [
      [SELLERS, { shopname: 'Mine', email: 'mine@example.com', country: 'BD', phone: '12345' }],
      [DEALERS, { name: 'Mine', email: 'mine2@example.com', city: 'Dhaka', district: 'Gulshan', country: 'BD', commission: 1 }],
      [USERS, { name: 'Mine', email: 'mine3@example.com', role: 'admin' }],
    ];
    for (const role of ['seller', 'dealer', 'agent', 'user', 'support'] as const) {
      const cookie = await server.login(role);
      for (const [path, body] of bodies) expect((await server.api('POST', path, { cookie, body })).status, `${role} ${path}`).toBe(403);
    }
    for (const [path, body] of bodies) expect((await server.api('POST', path, { body })).status, path).toBe(401);
  });
});
