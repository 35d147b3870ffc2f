/** Sign-in, sessions and the current user, against a real server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

describe('auth API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  const login = (body: unknown) =>
    fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('signs in with an httpOnly session cookie and never answers a password or hash', async () => {
    const res = await login({ email: 'ADMIN@demo.test', password: 'demo1234' });
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const user = await res.json();
    expect(user).toMatchObject({ email: 'admin@demo.test', role: 'admin' });
    expect(JSON.stringify(user)).not.toMatch(/password|Hash|demo1234|scrypt/);
    const me = await server.api('GET', '/getcurrentuser', { cookie: cookie.split(';')[0] });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('admin@demo.test');
    expect(JSON.stringify(me.body)).not.toMatch(/passwordHash|scrypt/);
  });

  it('refuses wrong passwords and unknown accounts alike', async () => {
    for (const body of [{ email: 'admin@demo.test', password: 'wrong' }, { email: 'nobody@demo.test', password: 'demo1234' }]) {
      const res = await login(body);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Invalid email or password.' });
    }
    const bad = await login({ email: '', password: '', role: 'admin' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors).toMatchObject({ email: ['Email is required.'], role: ["Field 'role' is not allowed."] });
  });

  it('stores passwords only as scrypt hashes', async () => {
    const rows = await server.db.selectFrom('users').selectAll().execute();
    // One demo account per role, and a second dealer and seller (seller2@demo.test) to try ownership with.
    expect(rows).toHaveLength(8);
    for (const row of rows) {
      expect(row.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$/);
      expect(JSON.stringify(row)).not.toContain('demo1234');
      expect(row).not.toHaveProperty('password');
    }
  });

  it('ends the session on sign-out', async () => {
    const cookie = (await login({ email: 'seller@demo.test', password: 'demo1234' })).headers.get('set-cookie')!.split(';')[0];
    expect((await server.api('GET', '/getcurrentuser', { cookie })).status).toBe(200);
    const out = await fetch(`${server.url}/api/auth/logout`, { method: 'POST', headers: { cookie } });
    expect(out.status).toBe(204);
    expect((await server.api('GET', '/getcurrentuser', { cookie })).status).toBe(401);
  });

  it('refuses a session once it expires, though it was looked up (and kept) a moment before', async () => {
    const cookie = (await login({ email: 'dealer@demo.test', password: 'demo1234' })).headers.get('set-cookie')!.split(';')[0];
    const dealer = await server.db.selectFrom('users').select('id').where('email', '=', 'dealer@demo.test').executeTakeFirstOrThrow();
    // Sooner than the few seconds the server keeps a looked-up session.
    const expiresAt = Date.now() + 3000;
    await server.db.updateTable('sessions').set({ expiresAt: new Date(expiresAt).toISOString() }).where('userId', '=', dealer.id).execute();
    expect((await server.api('GET', '/getcurrentuser', { cookie })).status).toBe(200);
    await new Promise((done) => setTimeout(done, expiresAt - Date.now() + 300));
    expect((await server.api('GET', '/getcurrentuser', { cookie })).status).toBe(401);
  });

  it('slows down password guessing', async () => {
    // Guesses are held for their turn (docs/security.md): a burst faster than that has its excess refused.
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => login({ email: 'agent@demo.test', password: `guess${i}` }).then((r) => r.status)));
    expect(statuses).toContain(429);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
  });
});
