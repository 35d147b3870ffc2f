/**
 * One-time passwords through the real HTTP API, on every engine this machine has: the admin issues one
 * (`POST /users/{id}/one-time-password`), it is answered once and emailed (masked in the history), the
 * old password and sessions stop working, and the next sign-in must choose a new password
 * (`POST /api/auth/password`) before any other call is answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { DEMO_PASSWORD } from '../../src/server/seed/index.ts';
import { PASSWORD_MESSAGES } from '../../resources/people.ts';
import { expectNoSecrets } from '../support/secrets.ts';

describe.each(engines)('one-time passwords (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  const ids: Record<string, string> = {};

  async function signIn(email: string, password: string) {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    return { status: res.status, body: await res.json(), cookie: res.headers.get('set-cookie')?.split(';')[0] };
  }
  async function choose(cookie: string | undefined, body: unknown) {
    const res = await fetch(`${server.url}/api/auth/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json(), cookie: res.headers.get('set-cookie')?.split(';')[0] };
  }
  const issue = (id: string, cookie = admin) => server.api('POST', `/users/${id}/one-time-password`, { cookie });

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    for (const row of await server.db.selectFrom('users').select(['id', 'email']).execute()) ids[String(row.email).split('@')[0]] = String(row.id);
  });
  afterAll(() => server?.close());

  it('is the admin’s to issue, for an account that exists, and not for its own', async () => {
    for (const role of ['seller', 'dealer', 'agent', 'user', 'support'] as const) {
      const res = await issue(ids.seller, await server.login(role));
      expect(res.status, role).toBe(403);
    }
    expect((await server.api('POST', `/users/${ids.seller}/one-time-password`)).status).toBe(401);
    expect((await issue('0123456789abcdef01234567')).status).toBe(404);
    const own = await issue(ids.admin);
    expect(own.status).toBe(400);
    expect(own.body.message).toBe('You cannot issue a one-time password for your own account.');
  });

  it('is shown once, ends the old password and sessions, and must be replaced at the next sign-in', async () => {
    const old = await signIn('dealer@demo.test', DEMO_PASSWORD);
    expect(old.status).toBe(200);
    expect(old.body.mustChangePassword).toBe(false);

    const issued = await issue(ids.dealer);
    expect(issued.status).toBe(200);
    expect(issued.headers.get('cache-control')).toBe('no-store');
    expect(issued.body).toEqual({ id: ids.dealer, email: 'dealer@demo.test', password: expect.stringMatching(/^[A-Za-z2-9]{12}$/), mustChangePassword: true });
    const otp: string = issued.body.password;
    // Answered once: no read shows it again, and the store holds only its hash.
    for (const res of [await server.api('GET', `/users/${ids.dealer}`, { cookie: admin }), await server.api('GET', '/users', { cookie: admin })]) {
      expect(JSON.stringify(res.body)).not.toContain(otp);
      expectNoSecrets(res.body);
    }
    const stored = await server.db.selectFrom('users').selectAll().where('id', '=', ids.dealer).executeTakeFirstOrThrow();
    expect(stored.passwordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(stored)).not.toContain(otp);
    const audit = await server.db.selectFrom('auditLog').selectAll().where('recordId', '=', ids.dealer).execute();
    expect(audit.length).toBeGreaterThan(0);
    expect(JSON.stringify(audit)).not.toContain(otp);
    expect(JSON.stringify(audit)).not.toMatch(/scrypt\$/);

    // The old session and the old password are gone.
    expect((await server.api('GET', '/getcurrentuser', { cookie: old.cookie })).status).toBe(401);
    expect((await signIn('dealer@demo.test', DEMO_PASSWORD)).status).toBe(401);

    // A second issue replaces the first.
    const again = await issue(ids.dealer);
    expect(again.body.password).not.toBe(otp);
    expect((await signIn('dealer@demo.test', otp)).status).toBe(401);
    const fresh: string = again.body.password;

    const signedIn = await signIn('dealer@demo.test', fresh);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ email: 'dealer@demo.test', mustChangePassword: true });
    expectNoSecrets(signedIn.body);
    const cookie = signedIn.cookie!;
    // Who it is may be asked; nothing else until a new password is chosen.
    expect((await server.api('GET', '/getcurrentuser', { cookie })).body.mustChangePassword).toBe(true);
    for (const [method, path] of [['GET', '/categories'], ['GET', '/api/gallery'], ['PATCH', '/users'], ['GET', '/api/openapi.json']] as const) {
      const res = await server.api(method, path, { cookie, body: method === 'PATCH' ? {} : undefined });
      expect(res.status, path).toBe(403);
      expect(res.body).toEqual({ message: 'Please choose a new password.' });
    }

    // §5's rule and its exact messages; the one-time password itself is not a new one.
    expect((await choose(cookie, { password: 'abc' })).body.errors).toEqual({ password: [PASSWORD_MESSAGES.short] });
    expect((await choose(cookie, { password: 'abcdefghijklm' })).body.errors).toEqual({ password: [PASSWORD_MESSAGES.long] });
    expect((await choose(cookie, {})).body.errors).toEqual({ password: [PASSWORD_MESSAGES.short] });
    expect((await choose(cookie, { password: 'secret12', role: 'admin' })).body.errors).toEqual({ role: ["Field 'role' is not allowed."] });
    const same = await choose(cookie, { password: fresh });
    expect(same.status).toBe(400);
    expect(same.body.errors).toEqual({ password: ['Choose a password other than the one you have now.'] });
    expect((await choose(undefined, { password: 'secret12' })).status).toBe(401);

    const chosen = await choose(cookie, { password: 'Dealer#2024' });
    expect(chosen.status).toBe(200);
    expect(chosen.body).toMatchObject({ id: ids.dealer, mustChangePassword: false });
    expectNoSecrets(chosen.body);
    expect(JSON.stringify(chosen.body)).not.toContain('Dealer#2024');
    // The session signed in with the one-time password is replaced by a new one.
    expect(chosen.cookie).toMatch(/^sid=/);
    expect((await server.api('GET', '/getcurrentuser', { cookie })).status).toBe(401);
    expect((await server.api('GET', '/categories', { cookie: chosen.cookie })).status).toBe(200);

    expect((await signIn('dealer@demo.test', fresh)).status).toBe(401);
    const after = await signIn('dealer@demo.test', 'Dealer#2024');
    expect(after).toMatchObject({ status: 200, body: { mustChangePassword: false } });
  });

  it('asks an account that is not made to change for its current password', async () => {
    const { cookie } = await signIn('support@demo.test', DEMO_PASSWORD);
    const missing = await choose(cookie, { password: 'Support#1' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({ currentPassword: ['Current password is required.'] });
    const wrong = await choose(cookie, { password: 'Support#1', currentPassword: 'nope' });
    expect(wrong.body.errors).toEqual({ currentPassword: ['Current password is wrong.'] });
    const changed = await choose(cookie, { password: 'Support#1', currentPassword: DEMO_PASSWORD });
    expect(changed.status).toBe(200);
    expect((await signIn('support@demo.test', DEMO_PASSWORD)).status).toBe(401);
    expect((await signIn('support@demo.test', 'Support#1')).status).toBe(200);
  });

  it('emails the owner, and the history keeps the password masked', async () => {
    const issued = await issue(ids.agent);
    const otp: string = issued.body.password;
    const history = await server.api('GET', '/email-history', { cookie: admin, query: { filter: { to: 'agent@demo.test' } } });
    expect(history.status).toBe(200);
    const [mail] = history.body.data;
    expect(mail).toMatchObject({ to: 'agent@demo.test', kind: 'one-time-password', subject: 'Your one-time password', status: 'recorded' });
    expect(mail.text).toContain('••••••');
    expect(mail.text).toContain('agent@demo.test');
    expect(JSON.stringify(history.body)).not.toContain(otp);
    const rows = await server.db.selectFrom('emailHistory').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(otp);
  });
});
