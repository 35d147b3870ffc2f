/**
 * Issue 50's sign-in hardening beyond the burst tests of login-limit.test.ts: how the limiter spaces
 * attempts (with the clock in the test's hands), guessing the current password through
 * `POST /api/auth/password` under the sign-in's own limits, what a change does to the account's other
 * sessions and the audit log, and when the session cookie is `Secure`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSING_MESSAGE, signInLimiter, type SignInLimits } from '../../src/server/auth/limiter.ts';
import { DEMO_PASSWORD } from '../../src/server/seed/index.ts';
import { readConfig } from '../../src/server/config.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

const LIMITS: SignInLimits = { freePerAccount: 5, freePerAddress: 20, delayMs: 1000, maxDelayMs: 30_000, windowMs: 15 * 60_000, capacity: 1000 };

describe('sign-in limiter, clock in hand', () => {
  const T = 1_000_000;
  const waitOf = (r: ReturnType<ReturnType<typeof signInLimiter>['reserve']>) => (r.ok ? r.waitMs : -r.retryAfterSeconds);

  it('lets the free failures through, then spaces each further one by a doubling delay, refusing only past the longest wait', () => {
    const limiter = signInLimiter(LIMITS);
    // A burst at one instant: each guess waits for the turn the one before it left.
    const waits = Array.from({ length: 12 }, () => waitOf(limiter.reserve('192.0.2.1', 'owner@example.com', { exists: true }, T)));
    // Past the 9th the next turn is 31 s away, more than the longest wait: refused, to try again in a second.
    expect(waits).toEqual([0, 0, 0, 0, 0, 1000, 3000, 7000, 15_000, -1, -1, -1]);
    // Two seconds on, the turn is within the longest wait again: held, not refused; and it is the last spacing.
    expect(waitOf(limiter.reserve('192.0.2.1', 'owner@example.com', { exists: true }, T + 2000))).toBe(29_000);
    expect(waitOf(limiter.reserve('192.0.2.1', 'owner@example.com', { exists: true }, T + 31_000))).toBe(30_000);
  });

  it('never gives a steady guesser fresh free attempts, and forgets an account’s failures once it is quiet', () => {
    const limiter = signInLimiter(LIMITS);
    const waits: number[] = [];
    // Each guess sent as soon as the one before was answered, for two windows' time.
    for (let now = T; now < T + 2 * LIMITS.windowMs; ) {
      const r = limiter.reserve('192.0.2.5', 'owner@example.com', { exists: true }, now);
      expect(r.ok).toBe(true);
      waits.push(waitOf(r));
      now += waitOf(r) + 1;
    }
    expect(waits.slice(10).every((w) => w >= LIMITS.maxDelayMs - 1)).toBe(true);
    const quietFrom = T + 2 * LIMITS.windowMs + LIMITS.maxDelayMs;
    expect(waitOf(limiter.reserve('192.0.2.5', 'owner@example.com', { exists: true }, quietFrom + LIMITS.windowMs))).toBe(0);
    expect(limiter.accounts.failures('owner@example.com')).toBe(1);
  });

  it('reads its delays from SIGN_IN_DELAY and SIGN_IN_MAX_DELAY (seconds), and refuses nonsense', () => {
    expect(readConfig({}).signIn).toMatchObject({ delayMs: 1000, maxDelayMs: 30_000, freePerAccount: 5, freePerAddress: 20 });
    expect(readConfig({ SIGN_IN_DELAY: '0.5', SIGN_IN_MAX_DELAY: '10' }).signIn).toMatchObject({ delayMs: 500, maxDelayMs: 10_000 });
    expect(() => readConfig({ SIGN_IN_DELAY: 'soon' })).toThrow(/SIGN_IN_DELAY/);
    expect(() => readConfig({ SIGN_IN_DELAY: '0' })).toThrow(/SIGN_IN_DELAY/);
    expect(() => readConfig({ SIGN_IN_DELAY: '5', SIGN_IN_MAX_DELAY: '2' })).toThrow(/SIGN_IN_MAX_DELAY/);
  });

  it('holds the right password until its turn, never refuses it for failures at other emails', () => {
    const limiter = signInLimiter(LIMITS);
    for (let i = 0; i < 1000; i++) expect(waitOf(limiter.reserve('192.0.2.2', `made-up-${i}@example.com`, { exists: false }, T))).toBe(0);
    expect(waitOf(limiter.reserve('192.0.2.2', 'owner@example.com', { exists: true }, T))).toBe(0);
    limiter.succeed('192.0.2.2', 'owner@example.com');
    expect(limiter.addresses.failures('192.0.2.2')).toBe(0);
  });

  it('spaces every email of an address alike once its failures at real accounts are used up, so the wait tells nothing', () => {
    const limiter = signInLimiter(LIMITS);
    for (let i = 0; i < LIMITS.freePerAddress; i++) limiter.reserve('192.0.2.3', `real-${i}@example.com`, { exists: true }, T);
    const real = waitOf(limiter.reserve('192.0.2.3', 'another-real@example.com', { exists: true }, T));
    expect(real).toBe(LIMITS.delayMs);
    const again = signInLimiter(LIMITS);
    for (let i = 0; i < LIMITS.freePerAddress; i++) again.reserve('192.0.2.3', `real-${i}@example.com`, { exists: true }, T);
    expect(waitOf(again.reserve('192.0.2.3', 'nobody@example.com', { exists: false }, T))).toBe(real);
  });

  it('gives a right password’s booking back, keeping the failures before it until their window ends', () => {
    const limiter = signInLimiter(LIMITS);
    for (let i = 0; i < 3; i++) limiter.reserve('192.0.2.4', 'owner@example.com', { exists: true }, T);
    limiter.reserve('192.0.2.4', 'owner@example.com', { exists: true }, T);
    limiter.succeed('192.0.2.4', 'owner@example.com');
    expect(limiter.accounts.failures('owner@example.com')).toBe(3);
    limiter.reserve('192.0.2.4', 'owner@example.com', { exists: true }, T + LIMITS.windowMs);
    expect(limiter.accounts.failures('owner@example.com')).toBe(1);
  });
});

/** Short delays, so the tests wait a fraction of a second. */
const FAST: Partial<SignInLimits> = { freePerAccount: 5, freePerAddress: 20, delayMs: 50, maxDelayMs: 1000 };

async function post(server: TestServer, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, cookie: res.headers.get('set-cookie')?.split(';')[0] };
}

describe.each(engines)('changing a password (%s)', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine, app: { signIn: FAST } });
  });
  afterAll(() => server?.close());

  const signIn = (email: string, password: string) => post(server, '/api/auth/login', { email, password });
  const change = (cookie: string, body: unknown) => post(server, '/api/auth/password', body, { cookie });

  // A burst's password checks queue on a busy machine's two cores: a longer timeout than the usual 30 s.
  it('spaces guesses of the current password like sign-ins, counted with them, and the right one still changes it', async () => {
    const { cookie } = await signIn('seller@demo.test', DEMO_PASSWORD);
    const guesses = await Promise.all(Array.from({ length: 60 }, (_, i) => change(cookie!, { password: 'Seller#2', currentPassword: `guess-${i}` })));
    const wrong = guesses.filter((g) => g.status === 400);
    const refused = guesses.filter((g) => g.status === 429);
    expect(wrong.length + refused.length).toBe(60);
    wrong.forEach((g) => expect(g.body.errors).toEqual({ currentPassword: ['Current password is wrong.'] }));
    refused.forEach((g) => expect(Number(g.headers.get('retry-after'))).toBeGreaterThan(0));
    // The free five, then at 50, 150, 350 and 750 ms, and one a second over which a busy machine spreads the burst (5 allowed for).
    expect(wrong.length).toBeLessThanOrEqual(FAST.freePerAccount! + 4 + 5);
    // The same account's sign-ins are spaced at the longest delay now: of a burst, its next turn and one a second of spread.
    const signIns = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn('seller@demo.test', `wrong-${i}`)));
    expect(signIns.filter((s) => s.status === 401).length).toBeLessThanOrEqual(6);
    expect(signIns.filter((s) => s.status !== 401).every((s) => s.status === 429)).toBe(true);
    // The owner, after the account's turn: changed.
    const changed = await change(cookie!, { password: 'Seller#2', currentPassword: DEMO_PASSWORD });
    expect(changed.status).toBe(200);
    expect((await signIn('seller@demo.test', 'Seller#2')).status).toBe(200);
  }, 120_000);

  it('ends every other session of the account, and is audited without the password', async () => {
    const here = (await signIn('agent@demo.test', DEMO_PASSWORD)).cookie!;
    const elsewhere = (await signIn('agent@demo.test', DEMO_PASSWORD)).cookie!;
    const other = await server.login('dealer');
    const id = (await server.api('GET', '/getcurrentuser', { cookie: here })).body.id;
    const changed = await change(here, { password: 'Agent#2024', currentPassword: DEMO_PASSWORD });
    expect(changed.status).toBe(200);
    expect((await server.api('GET', '/getcurrentuser', { cookie: elsewhere })).status).toBe(401);
    expect((await server.api('GET', '/getcurrentuser', { cookie: here })).status).toBe(401);
    expect((await server.api('GET', '/getcurrentuser', { cookie: changed.cookie })).body.id).toBe(id);
    // Another account's session is not touched.
    expect((await server.api('GET', '/getcurrentuser', { cookie: other })).status).toBe(200);
    const entries = await server.db.selectFrom('auditLog').selectAll().where('recordId', '=', id).where('action', '=', 'changePassword').execute();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ user: 'agent@demo.test', userId: id, role: 'agent', resource: 'users' });
    expect(JSON.stringify(entries)).not.toMatch(/Agent#2024|scrypt\$|passwordHash/);
  });
});

describe('a sign-in held for its turn', () => {
  it('is answered 503 at once when the server closes, not kept until its turn', async () => {
    const own = await startTestServer({ app: { signIn: { freePerAccount: 1, delayMs: 60_000, maxDelayMs: 60_000 } } });
    const signIn = (password: string) => post(own, '/api/auth/login', { email: 'admin@demo.test', password });
    try {
      expect((await signIn('first guess')).status).toBe(401);
      // Of two more, one is held a minute for its turn and the other, a minute past it, refused.
      const two = [signIn('second guess'), signIn('third guess')];
      const first = await Promise.race(two);
      expect(first.status).toBe(429);
      const closed = own.close();
      const answers = await Promise.all(two);
      await closed;
      expect(answers.map((a) => a.status).sort()).toEqual([429, 503]);
      expect(answers.find((a) => a.status === 503)!.body).toEqual({ message: CLOSING_MESSAGE });
    } finally {
      await own.close().catch(() => {});
    }
  });
});

describe('the session cookie’s Secure flag', () => {
  let direct: TestServer;
  let proxied: TestServer;
  const nodeEnv = process.env.NODE_ENV;
  beforeAll(async () => {
    direct = await startTestServer({ app: { trustProxy: false } });
    proxied = await startTestServer({ app: { trustProxy: 'loopback' } });
  });
  afterAll(async () => {
    await direct?.close();
    await proxied?.close();
  });
  afterEach(() => {
    process.env.NODE_ENV = nodeEnv;
  });

  const secure = async (server: TestServer, headers: Record<string, string> = {}) => {
    const res = await post(server, '/api/auth/login', { email: 'user@demo.test', password: DEMO_PASSWORD }, headers);
    expect(res.status).toBe(200);
    return /;\s*Secure/i.test(res.headers.get('set-cookie') ?? '');
  };

  it('is set over HTTPS (through a trusted proxy), and in production always, also behind a TLS proxy that is not trusted', async () => {
    process.env.NODE_ENV = 'development';
    expect(await secure(proxied, { 'x-forwarded-proto': 'https' })).toBe(true);
    expect(await secure(proxied)).toBe(false);
    expect(await secure(direct, { 'x-forwarded-proto': 'https' })).toBe(false);
    process.env.NODE_ENV = 'production';
    expect(await secure(direct)).toBe(true);
    expect(await secure(direct, { 'x-forwarded-proto': 'https' })).toBe(true);
    expect(await secure(proxied)).toBe(true);
  });
});
