/**
 * Password guessing against a real server: every attempt is counted before its password is checked,
 * so a parallel burst is limited exactly like a sequence; one client address is limited across
 * accounts too (spraying); refusals are 429 with Retry-After. And TRUST_PROXY: forwarded headers
 * decide the client address and https only when the proxy is trusted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ADDRESS,
  SIGN_IN_WINDOW_MS,
  addressKey,
  signInLimiter,
} from '../../src/server/auth/limiter.ts';
import { readConfig } from '../../src/server/config.ts';
import { DEMO_PASSWORD } from '../../src/server/seed/index.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

const ADMIN = 'admin@demo.test';

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

/** A 429 as promised: Retry-After in whole seconds within the window, and a message saying when. */
function expectLimited(res: { status: number; headers: Headers; body: any }) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_WINDOW_MS / 1000);
  expect(res.body.message).toMatch(/^Too many failed sign-ins\. Try again in \d+ minutes?\.$/);
}

describe.each(engines)('sign-in limits (%s)', (engine) => {
  // Trusts forwarded headers, so each test signs in from addresses of its own.
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine, app: { trustProxy: true } });
  });
  afterAll(() => server?.close());

  it('limits a parallel burst of guesses exactly like a sequence, the right password included', async () => {
    const address = from('203.0.113.1');
    const guesses = Array.from({ length: 60 }, (_, i) => signIn(server, ADMIN, `wrong-${i}`, address));
    // The right password, sent while the burst is still being checked (after its first answer).
    const right = Promise.race(guesses).then(() => signIn(server, ADMIN, DEMO_PASSWORD, address));
    const answers = await Promise.all(guesses);
    const checked = answers.filter((a) => a.status === 401);
    const refused = answers.filter((a) => a.status === 429);
    expect(checked.length).toBeLessThanOrEqual(MAX_FAILURES_PER_ACCOUNT);
    expect(checked.length + refused.length).toBe(60);
    refused.forEach(expectLimited);
    const late = await right;
    expectLimited(late);
    expect(late.headers.get('set-cookie')).toBeNull();
    // Still refused afterwards, also with the right password; the owner elsewhere is not locked out.
    expectLimited(await signIn(server, ADMIN, DEMO_PASSWORD, address));
    expectLimited(await signIn(server, 'ADMIN@demo.test', 'again', address));
    expect((await signIn(server, ADMIN, DEMO_PASSWORD, from('203.0.113.2'))).status).toBe(200);
  });

  it('forgets an account’s failures from an address once it signs in', async () => {
    const address = from('203.0.113.3');
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT - 1; i++) expect((await signIn(server, ADMIN, `wrong-${i}`, address)).status).toBe(401);
    expect((await signIn(server, ADMIN, DEMO_PASSWORD, address)).status).toBe(200);
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) expect((await signIn(server, ADMIN, `again-${i}`, address)).status).toBe(401);
    expectLimited(await signIn(server, ADMIN, `one-more`, address));
  });

  it('limits one address across accounts (password spraying)', async () => {
    const address = from('203.0.113.4');
    const emails = Array.from({ length: MAX_FAILURES_PER_ADDRESS + 10 }, (_, i) => `sprayed-${i}@demo.test`);
    const answers = await Promise.all(emails.map((email) => signIn(server, email, DEMO_PASSWORD, address)));
    expect(answers.filter((a) => a.status === 401)).toHaveLength(MAX_FAILURES_PER_ADDRESS);
    answers.filter((a) => a.status !== 401).forEach(expectLimited);
    // Every account is closed to that address now, the real ones included; other addresses are not affected.
    expectLimited(await signIn(server, 'seller@demo.test', DEMO_PASSWORD, address));
    expect((await signIn(server, 'seller@demo.test', DEMO_PASSWORD, from('203.0.113.5'))).status).toBe(200);
  });

  it('gives a successful sign-in back to the address, so a busy shared address is not shut out by its users', async () => {
    const address = from('203.0.113.6');
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS + 5; i++) expect((await signIn(server, 'agent@demo.test', DEMO_PASSWORD, address)).status).toBe(200);
  });
});

describe.each(engines)('TRUST_PROXY (%s)', (engine) => {
  let trusting: TestServer;
  let direct: TestServer;
  beforeAll(async () => {
    // The setting as an address list: the test's requests come from loopback.
    trusting = await startTestServer({ engine, app: { trustProxy: readConfig({ TRUST_PROXY: 'loopback' }).trustProxy } });
    direct = await startTestServer({ engine, app: { trustProxy: false } });
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

  it('takes the client address from X-Forwarded-For only when the proxy is trusted', async () => {
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) {
      expect((await signIn(trusting, 'support@demo.test', `wrong-${i}`, from('198.51.100.1'))).status).toBe(401);
      expect((await signIn(direct, 'support@demo.test', `wrong-${i}`, from('198.51.100.1'))).status).toBe(401);
    }
    // Trusted: another forwarded address is another client. Not trusted: the header changes nothing.
    expectLimited(await signIn(trusting, 'support@demo.test', 'next', from('198.51.100.1')));
    expect((await signIn(trusting, 'support@demo.test', DEMO_PASSWORD, from('198.51.100.2'))).status).toBe(200);
    expectLimited(await signIn(direct, 'support@demo.test', DEMO_PASSWORD, from('198.51.100.2')));
    expectLimited(await signIn(direct, 'support@demo.test', DEMO_PASSWORD));
  });

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
    for (let i = 0; i < 5000; i++) limiter.reserve(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, `flood-${i}@example.com`, start);
    expect(limiter.accounts.size).toBeLessThanOrEqual(100);
    expect(limiter.addresses.size).toBeLessThanOrEqual(100);
    limiter.reserve('192.0.2.1', 'late@example.com', start + SIGN_IN_WINDOW_MS);
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
