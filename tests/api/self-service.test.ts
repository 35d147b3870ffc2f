/**
 * The accounts' self-service through the real HTTP API, on every engine this machine has, with a real
 * SMTP server in this process (tests/support/smtp.ts): a buyer signs up (with a referral code, or not)
 * and signs in; a forgotten password is reset by the emailed link, which works once, expires, and is
 * asked for with the same answer whether or not the email has an account, within per-email and
 * per-address limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { resetLinkOf, startSmtp, type TestSmtp } from '../support/smtp.ts';
import { expectNoSecrets } from '../support/secrets.ts';
import { closeTransports, MASK } from '../../src/server/email/index.ts';
import { PASSWORD_RESETS } from '../../src/server/db/migrate.ts';
import { RESETS_PER_ACCOUNT, RESETS_PER_ADDRESS } from '../../src/server/auth/self-service-config.ts';
import { PASSWORD_MESSAGES } from '../../resources/people.ts';
import { INVALID_EMAIL } from '../../resources/accounts.ts';
import { affiliateMessages } from '../../resources/referrals.ts';
import { RESET_PATH, RESET_REQUEST_PATH, SELF_SERVICE_MESSAGES, SIGN_UP_PATH } from '../../resources/self-service.ts';
import { DEMO_PASSWORD } from '../../src/server/seed/index.ts';

describe.each(engines)('accounts people manage themselves (%s)', (engine) => {
  let server: TestServer;
  let smtp: TestSmtp;
  const saved = process.env.SMTP_URL;

  const post = (path: string, body: unknown, cookie?: string) => server.api('POST', path, { body, cookie });
  async function signIn(email: string, password: string) {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    return { status: res.status, body: await res.json(), cookie: res.headers.get('set-cookie')?.split(';')[0] };
  }
  /** The one reset link mailed to `email` after `before` mails had reached it. */
  async function linkMailedTo(email: string, before: number) {
    await expect.poll(() => smtp.to(email).length).toBe(before + 1);
    const link = resetLinkOf(smtp.to(email)[before]);
    expect(link, smtp.to(email)[before]?.text).toBeDefined();
    return { link: link!, token: new URL(link!.replace('#/', '')).searchParams.get('token')! };
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    // Read by the email layer at each send: this file's server hands its emails to `smtp`.
    process.env.SMTP_URL = smtp.url;
    server = await startTestServer({ engine });
  });
  afterAll(async () => {
    // Closing the server waits for the emails it is still handing over.
    await server?.close();
    if (saved === undefined) delete process.env.SMTP_URL;
    else process.env.SMTP_URL = saved;
    closeTransports();
    await smtp?.close();
  });

  it('signs a buyer up, who then signs in; a taken email and bad input are refused with their messages', async () => {
    const made = await post(SIGN_UP_PATH, { name: 'Nadia Rahman', email: ' Nadia@Example.com ', password: 'Buyer#2025' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ name: 'Nadia Rahman', email: 'nadia@example.com', role: 'user', referredBy: null });
    expect(made.body.inviteCode).toMatch(/^[A-Z2-9]{10}$/);
    expectNoSecrets(made.body);
    const stored = await server.db.selectFrom('users').selectAll().where('email', '=', 'nadia@example.com').executeTakeFirstOrThrow();
    expect(String(stored.passwordHash)).toMatch(/^scrypt\$/);
    // No session from signing up: the person signs in.
    expect(made.headers.get('set-cookie')).toBeNull();
    const signedIn = await signIn('nadia@example.com', 'Buyer#2025');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ role: 'user', mustChangePassword: false });

    const again = await post(SIGN_UP_PATH, { name: 'Someone Else', email: 'nadia@example.com', password: 'Other#2025' });
    expect(again.status).toBe(409);
    expect(Object.keys(again.body.errors)).toEqual(['email']);

    const short = await post(SIGN_UP_PATH, { name: 'Short Pass', email: 'short@example.com', password: 'abc' });
    expect(short.status).toBe(400);
    expect(short.body.errors.password).toEqual([PASSWORD_MESSAGES.short]);
    const long = await post(SIGN_UP_PATH, { name: 'Long Pass', email: 'long@example.com', password: 'abcdefghijklm' });
    expect(long.body.errors.password).toEqual([PASSWORD_MESSAGES.long]);
    const email = await post(SIGN_UP_PATH, { name: 'No Email', email: 'not-an-email', password: 'Buyer#2025' });
    expect(email.body.errors.email).toEqual([INVALID_EMAIL]);
    // No mass assignment: a role (or any field the form does not send) is refused, not taken.
    const admin = await post(SIGN_UP_PATH, { name: 'Would Be Admin', email: 'boss@example.com', password: 'Buyer#2025', role: 'admin' });
    expect(admin.status).toBe(400);
    for (const body of [null, [], 'text', { name: 'x'.repeat(300), email: 'x@example.com', password: 'Buyer#2025' }])
      expect((await post(SIGN_UP_PATH, body)).status, JSON.stringify(body)).toBe(400);
    expect(await server.db.selectFrom('users').select('email').where('email', 'in', ['short@example.com', 'boss@example.com']).execute()).toEqual([]);
  });

  it('records the referral a code names, and refuses an unknown code', async () => {
    const referrer = await server.db.selectFrom('users').select(['id', 'inviteCode']).where('email', '=', 'agent@demo.test').executeTakeFirstOrThrow();
    const made = await post(SIGN_UP_PATH, { name: 'Referred Buyer', email: 'referred@example.com', password: 'Buyer#2025', bhrfc: referrer.inviteCode });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.referredBy).toBe(referrer.id);
    const tree = await server.api('GET', '/flowchart/agents', { cookie: await server.login('admin') });
    expect(JSON.stringify(tree.body)).toContain('referred@example.com');

    const unknown = await post(SIGN_UP_PATH, { name: 'Lost Code', email: 'lost@example.com', password: 'Buyer#2025', bhrfc: 'NO-SUCH-CODE' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.bhrfc).toEqual([affiliateMessages.unknownCode]);
    // An empty code is no code.
    const none = await post(SIGN_UP_PATH, { name: 'No Code', email: 'nocode@example.com', password: 'Buyer#2025', bhrfc: '' });
    expect(none.status).toBe(201);
    expect(none.body.referredBy).toBeNull();
  });

  it('emails a one-time link that sets a new password once, ends the sessions, and is masked in the history', async () => {
    const before = await signIn('seller@demo.test', DEMO_PASSWORD);
    expect(before.status).toBe(200);

    const known = await post(RESET_REQUEST_PATH, { email: 'Seller@demo.test' });
    const unknown = await post(RESET_REQUEST_PATH, { email: 'nobody@demo.test' });
    // The same answer whether or not an account has the email.
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(known.body).toEqual({ message: SELF_SERVICE_MESSAGES.resetRequested });
    expect(unknown.body).toEqual(known.body);

    const { link, token } = await linkMailedTo('seller@demo.test', 0);
    expect(link.startsWith(`${server.url}/#/reset-password?token=`)).toBe(true);
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(smtp.to('nobody@demo.test')).toEqual([]);
    // Only the token's digest is stored.
    const rows = await server.db.selectFrom(PASSWORD_RESETS).selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    // The history row is written once the mail server has answered, which is after our SMTP server holds
    // the mail (CI's run of 002a487 read the history in between on PostgreSQL).
    const adminCookie = await server.login('admin');
    const readHistory = () => server.api('GET', '/email-history', { cookie: adminCookie, query: { filter: { kind: 'password-reset' } } });
    await expect.poll(async () => (await readHistory()).body.data.length, { timeout: 10_000 }).toBe(1);
    const history = await readHistory();
    expect(history.body.data[0]).toMatchObject({ to: 'seller@demo.test', status: 'sent' });
    expect(history.body.data[0].text).toContain(MASK);
    expect(JSON.stringify(history.body)).not.toContain(token);

    const short = await post(RESET_PATH, { token, password: 'abc' });
    expect(short.body.errors.password).toEqual([PASSWORD_MESSAGES.short]);
    const done = await post(RESET_PATH, { token, password: 'Reset#2025' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toEqual({ message: SELF_SERVICE_MESSAGES.resetDone });

    expect((await signIn('seller@demo.test', DEMO_PASSWORD)).status).toBe(401);
    expect((await signIn('seller@demo.test', 'Reset#2025')).status).toBe(200);
    // The session of the old password ended.
    expect((await server.api('GET', '/getcurrentuser', { cookie: before.cookie })).status).toBe(401);
    // Once only.
    const twice = await post(RESET_PATH, { token, password: 'Again#2025' });
    expect(twice.status).toBe(400);
    expect(twice.body.errors.token).toEqual([SELF_SERVICE_MESSAGES.badToken]);
    expect((await signIn('seller@demo.test', 'Again#2025')).status).toBe(401);
    // A token nobody was sent, and no token at all.
    expect((await post(RESET_PATH, { token: 'x'.repeat(43), password: 'Reset#2025' })).status).toBe(400);
    expect((await post(RESET_PATH, { password: 'Reset#2025' })).body.errors.token).toEqual([SELF_SERVICE_MESSAGES.badToken]);
  });

  it('refuses an expired link, and of two links only the newer works', async () => {
    await post(RESET_REQUEST_PATH, { email: 'dealer@demo.test' });
    const first = await linkMailedTo('dealer@demo.test', 0);
    await post(RESET_REQUEST_PATH, { email: 'dealer@demo.test' });
    const second = await linkMailedTo('dealer@demo.test', 1);
    expect((await post(RESET_PATH, { token: first.token, password: 'Dealer#2025' })).status).toBe(400);

    // Its time passed: moved into the past in the database, as the clock would.
    await server.db.updateTable(PASSWORD_RESETS).set({ expiresAt: new Date(Date.now() - 1000).toISOString() }).execute();
    const expired = await post(RESET_PATH, { token: second.token, password: 'Dealer#2025' });
    expect(expired.status).toBe(400);
    expect(expired.body.errors.token).toEqual([SELF_SERVICE_MESSAGES.badToken]);
    expect((await signIn('dealer@demo.test', DEMO_PASSWORD)).status).toBe(200);
  });

  it('limits links per email (known or not, alike) and per address', async () => {
    for (const email of ['support@demo.test', 'ghost@demo.test']) {
      const answers = await Promise.all(Array.from({ length: RESETS_PER_ACCOUNT + 1 }, () => post(RESET_REQUEST_PATH, { email })));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses, email).toEqual([...Array(RESETS_PER_ACCOUNT).fill(202), 429]);
      const refused = answers.find((a) => a.status === 429)!;
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body.message).toMatch(/^Too many reset links asked for\. Try again in \d+ minutes?\.$/);
    }
    await expect.poll(() => smtp.to('support@demo.test').length).toBe(RESETS_PER_ACCOUNT);
    // Links given from this address so far: 2 and 2 in the tests above, and RESETS_PER_ACCOUNT per email here
    // (a refused one is not counted). Fresh emails are answered until the address's limit, then refused.
    const given = 4 + 2 * RESETS_PER_ACCOUNT;
    const statuses: number[] = [];
    for (let n = given; n <= RESETS_PER_ADDRESS; n++) statuses.push((await post(RESET_REQUEST_PATH, { email: `someone${n}@demo.test` })).status);
    expect(statuses).toEqual([...Array(Math.max(0, RESETS_PER_ADDRESS - given)).fill(202), 429]);
    // Bad input is a 400 before any limit.
    for (const body of [{}, { email: '' }, { email: 'x'.repeat(400) }, { email: 'a@b.c', more: 1 }, []])
      expect((await post(RESET_REQUEST_PATH, body)).status, JSON.stringify(body)).toBe(400);
  });
});
