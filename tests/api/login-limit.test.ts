/**
 * Password guessing against a real server: failures are counted per account and per client address
 * apart; past a few free ones each spaces the next attempt out (a delay that doubles), every attempt
 * is booked before its password is checked, so a parallel burst is spaced exactly like a sequence, and
 * only the part of a flood that would wait longer than the longest delay is refused (429 with
 * Retry-After). A right password is held, never refused for failures that were not its own: made-up
 * emails never hold a real account back. And TRUST_PROXY: forwarded headers decide the client address
 * and https only when the proxy is trusted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey, DEFAULT_SIGN_IN_LIMITS, signInLimiter, type SignInLimits } from '../../src/server/auth/limiter.ts';
import { readConfig } from '../../src/server/config.ts';
import { DEMO_PASSWORD } from '../../src/server/seed/index.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

/** Short delays, so a test waits a fraction of a second where a server waits up to half a minute. */
const LIMITS: Partial<SignInLimits> = { freePerAccount: 5, freePerAddress: 20, delayMs: 50, maxDelayMs: 1000 };
/**
 * Attempts of a burst at one key checked beyond its free ones: 4 within the longest wait (at 50, 150,
 * 350 and 750 ms; the next would be at 1550), and one more for each second over which a busy machine
 * spreads the burst's arrival (up to 5 allowed for).
 */
const SPACED = 9;
/** Attempts of a burst checked at a key already spaced at the longest delay: its next turn, and one a second of spread. */
const AT_LONGEST = 6;
/** A burst's password checks (scrypt, tens of ms each) queue on a busy machine's two cores: longer than the usual 30 s. */
const BURST_TIMEOUT = 120_000;

/** POST /api/auth/login with extra headers (X-Forwarded-For, X-Forwarded-Proto, Origin). */
async function signIn(server: TestServer, email: string, password: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email, password }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const from = (address: string) => ({ 'x-forwarded-for': address });
type Answer = Awaited<ReturnType<typeof signIn>>;

/** A 429 as promised: Retry-After in whole seconds, no more than the longest wait, and a message saying when. */
function expectLimited(res: Answer) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(Math.ceil(LIMITS.maxDelayMs! / 1000));
  expect(res.body.message).toMatch(/^Too many failed sign-ins\. Try again in \d+ (second|minute)s?\.$/);
  expect(res.headers.get('set-cookie')).toBeNull();
}

/** The answers of a burst: checked (401) and refused (429), nothing else. */
function split(answers: Answer[]) {
  const checked = answers.filter((a) => a.status === 401);
  const refused = answers.filter((a) => a.status === 429);
  expect(checked.length + refused.length).toBe(answers.length);
  refused.forEach(expectLimited);
  return { checked: checked.length, refused: refused.length };
}

describe.each(engines)('sign-in limits (%s)', (engine) => {
  // Trusts forwarded headers, so each test signs in from addresses of its own.
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine, app: { trustProxy: true, signIn: LIMITS } });
  });
  afterAll(() => server?.close());

  it('never lets a burst of made-up emails hold back a real account of the same address', async () => {
    const address = from('203.0.113.1');
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => signIn(server, `made-up-${i}@nowhere.test`, 'guess', address)));
    expect(split(answers)).toEqual({ checked: 60, refused: 0 });
    const rightful = await signIn(server, 'seller@demo.test', DEMO_PASSWORD, address);
    expect(rightful.status).toBe(200);
    expect(rightful.headers.get('set-cookie')).toMatch(/^sid=/);
  }, BURST_TIMEOUT);

  it('spaces a burst of guesses at one account like a sequence, and its right password still signs in after its turn', async () => {
    const address = from('203.0.113.2');
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => signIn(server, 'admin@demo.test', `wrong-${i}`, address)));
    const { checked } = split(answers);
    expect(checked).toBeGreaterThanOrEqual(LIMITS.freePerAccount!);
    expect(checked).toBeLessThanOrEqual(LIMITS.freePerAccount! + SPACED);
    // Held until the account's turn, then checked: the owner gets in, from this address or another.
    expect((await signIn(server, 'admin@demo.test', DEMO_PASSWORD, address)).status).toBe(200);
    expect((await signIn(server, 'ADMIN@demo.test', DEMO_PASSWORD, from('203.0.113.3'))).status).toBe(200);
    // The guesser is still spaced at the longest delay: a second burst gets few checked.
    const again = split(await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(server, 'admin@demo.test', `again-${i}`, address))));
    expect(again.checked).toBeLessThanOrEqual(AT_LONGEST);
  }, BURST_TIMEOUT);

  it('spaces password spraying over real accounts by its address, and their owners still sign in', async () => {
    const address = from('203.0.113.4');
    const emails = ['dealer', 'agent', 'user', 'support'].map((role) => `${role}@demo.test`);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => signIn(server, emails[i % emails.length], 'Summer2024', address)));
    const { checked, refused } = split(answers);
    expect(refused).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(LIMITS.freePerAddress! + SPACED);
    expect((await signIn(server, 'dealer@demo.test', DEMO_PASSWORD, address)).status).toBe(200);
    expect((await signIn(server, 'agent@demo.test', DEMO_PASSWORD, from('203.0.113.5'))).status).toBe(200);
  }, BURST_TIMEOUT);
});

describe.each(engines)('TRUST_PROXY (%s)', (engine) => {
  let trusting: TestServer;
  let direct: TestServer;
  beforeAll(async () => {
    // The setting as an address list: the test's requests come from loopback.
    // Accounts are not spaced here (their free failures are many): only the address is.
    const signIn = { ...LIMITS, freePerAccount: 1000, freePerAddress: 8 };
    trusting = await startTestServer({ engine, app: { trustProxy: readConfig({ TRUST_PROXY: 'loopback' }).trustProxy, signIn } });
    direct = await startTestServer({ engine, app: { trustProxy: false, signIn } });
  });
  afterAll(async () => {
    await trusting?.close();
    await direct?.close();
  });

  const secure = (res: { headers: Headers }) => /;\s*Secure/i.test(res.headers.get('set-cookie') ?? '');

  it("reads the setting: off by default, the proxies' addresses, or true", () => {
    expect(readConfig({}).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(readConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
    expect(() => readConfig({ TRUST_PROXY: '2' })).toThrow(/TRUST_PROXY/);
  });

  it('makes the session cookie Secure behind a TLS proxy only when the proxy is trusted', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    const behind = await signIn(trusting, 'user@demo.test', DEMO_PASSWORD, https);
    expect(behind.status).toBe(200);
    expect(secure(behind)).toBe(true);
    expect(secure(await signIn(trusting, 'user@demo.test', DEMO_PASSWORD))).toBe(false);
    const spoofed = await signIn(direct, 'user@demo.test', DEMO_PASSWORD, https);
    expect(spoofed.status).toBe(200);
    expect(secure(spoofed)).toBe(false);
  });

  // A first burst from one forwarded address, then a second from another: to a trusting server that is
  // a fresh client with its free failures; to one that does not trust, the same address, still spaced.
  const burst = (server: TestServer, n: number, address: string) =>
    Promise.all(Array.from({ length: n }, (_, i) => signIn(server, 'support@demo.test', `wrong-${i}`, from(address)))).then(split);
  const freePerAddress = 8;

  it('takes the client address from X-Forwarded-For when the proxy is trusted', async () => {
    const first = await burst(trusting, 20, '198.51.100.1');
    expect(first.refused).toBeGreaterThan(0);
    expect((await burst(trusting, freePerAddress, '198.51.100.2')).checked).toBe(freePerAddress);
  }, BURST_TIMEOUT);

  it('ignores X-Forwarded-For when the proxy is not trusted', async () => {
    const first = await burst(direct, 20, '198.51.100.1');
    expect(first.refused).toBeGreaterThan(0);
    expect((await burst(direct, freePerAddress, '198.51.100.2')).checked).toBeLessThanOrEqual(Math.min(AT_LONGEST, freePerAddress - 1));
  }, BURST_TIMEOUT);

  it("takes the app's own origin from the proxy's headers only when it is trusted", async () => {
    const proxied = { origin: 'https://admin.shop.example', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'admin.shop.example' };
    expect((await signIn(trusting, 'dealer@demo.test', DEMO_PASSWORD, proxied)).status).toBe(200);
    expect((await signIn(direct, 'dealer@demo.test', DEMO_PASSWORD, proxied)).status).toBe(403);
  });
});

describe('sign-in limiter memory', () => {
  it('stays bounded under a flood of distinct emails and addresses, and drops expired counters', () => {
    const limiter = signInLimiter({ capacity: 100 });
    const start = Date.now();
    for (let i = 0; i < 5000; i++) limiter.reserve(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, `flood-${i}@example.com`, { exists: true }, start);
    expect(limiter.accounts.size).toBeLessThanOrEqual(100);
    expect(limiter.addresses.size).toBeLessThanOrEqual(100);
    limiter.reserve('192.0.2.1', 'late@example.com', { exists: true }, start + DEFAULT_SIGN_IN_LIMITS.windowMs);
    expect(limiter.accounts.size).toBe(1);
    expect(limiter.addresses.size).toBe(1);
  });

  it('keeps IPv6 clients by their /64, and IPv4 mapped into IPv6 as IPv4', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:0db8:0001:0002:bbbb:cccc:dddd:eeee'));
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
  });
});
