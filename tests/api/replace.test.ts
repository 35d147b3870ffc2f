/**
 * Replacing an agent or a dealer (spec §5 "Replacement", §7 `PATCH /agents/replace/{id}`,
 * `PATCH /dealers/replace/{id}`) through the real HTTP API, on every engine: the account is handed over
 * (the old person's sessions end at once and its password stops working, the new one works), the spec's
 * messages, and nothing of a password ever answered, stored in the clear or emailed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentIdOf } from '../../src/domain/names.ts';
import { DEMO_PASSWORD } from '../../src/server/seed/index.ts';
import { SECOND_DEALER_EMAIL } from '../../src/server/seed/people.ts';
import { REPLACEMENT_EMAIL_KIND } from '../../src/server/accounts/replace.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { expectNoSecrets } from '../support/secrets.ts';


const WEEK = 'Password is so week. Please enter minimum 6 letter.';
const BIG = 'Password is so big, Please enter password maximum 12 letters.';

describe.each(engines)('replacing agents and dealers (%s)', (engine) => {
  let server: TestServer;
  let admin: string;

  const signIn = async (email: string, password: string) => {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    return { status: res.status, cookie: res.headers.get('set-cookie')?.split(';')[0] ?? '', body: await res.json().catch(() => undefined) };
  };
  const profileOf = async (table: 'agents' | 'dealers', email: string) => {
    const user = await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    return (await server.db.selectFrom(table).selectAll().where('userId', '=', user.id).executeTakeFirstOrThrow()) as Record<string, unknown>;
  };

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
  });
  afterAll(() => server?.close());

  it('answers 400 with the specification messages, per field', async () => {
    const agent = await profileOf('agents', 'agent@demo.test');
    const path = `/agents/replace/${agent.id}`;
    const valid = { name: 'Nadia Karim', image: '/avatar.png', email: 'nadia@example.com', password: 'secret12' };
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [{}, { name: ['Name is required!'], image: ['Image is required!'], email: ['enter a valid email'], password: [WEEK] }],
      [{ ...valid, password: 'abcde' }, { password: [WEEK] }],
      [{ ...valid, password: 'abcdefghijklm' }, { password: [BIG] }],
      [{ ...valid, name: 'general' }, { name: ["Name cannot be 'general'"] }],
      [{ ...valid, name: ' General ' }, { name: ["Name cannot be 'general'"] }],
      [{ ...valid, image: 'ab' }, { image: ['Image is required!'] }],
      [{ ...valid, image: 'javascript:alert(1)' }, { image: ['Image must be an http(s) URL or a path on this site.'] }],
      [{ ...valid, email: 'a@b' }, { email: ['enter a valid email'] }],
      [{ ...valid, email: 'nadia-at-example.com' }, { email: ['enter a valid email'] }],
      [{ ...valid, role: 'admin' }, { role: ["Field 'role' is not allowed."] }],
    ];
    for (const [body, errors] of cases) {
      const res = await server.api('PATCH', path, { cookie: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors, JSON.stringify(body)).toEqual(errors);
    }
    // Nothing changed: the demo agent still signs in.
    expect((await signIn('agent@demo.test', DEMO_PASSWORD)).status).toBe(200);
  });

  it('hands an agent account to a new person: old sessions and password end, the new ones work', async () => {
    const agent = await profileOf('agents', 'agent@demo.test');
    const old = await signIn('agent@demo.test', DEMO_PASSWORD);
    expect(old.status).toBe(200);
    expect((await server.api('GET', '/getcurrentuser', { cookie: old.cookie })).status).toBe(200);

    const res = await server.api('PATCH', `/agents/replace/${agent.id}`, {
      cookie: admin,
      body: { name: 'Nadia Karim', image: '/assets/images/nadia.png', email: 'Nadia.Karim@Example.com', password: 'n3w-Pass!' },
    });
    expect(res.status).toBe(200);
    expectNoSecrets(res.body);
    const agentId = agentIdOf({ name: 'Nadia Karim', city: String(agent.city), district: String(agent.district), country: String(agent.country) });
    expect(res.body).toMatchObject({ id: agent.id, name: 'Nadia Karim', email: 'nadia.karim@example.com', image: '/assets/images/nadia.png', agentId, userId: agent.userId });

    // The old person is out at once, and its password no longer opens the account.
    expect((await server.api('GET', '/getcurrentuser', { cookie: old.cookie })).status).toBe(401);
    expect((await signIn('agent@demo.test', DEMO_PASSWORD)).status).toBe(401);
    expect((await signIn('nadia.karim@example.com', DEMO_PASSWORD)).status).toBe(401);
    // The new person signs in with the new password, and is asked to choose one of its own.
    const fresh = await signIn('nadia.karim@example.com', 'n3w-Pass!');
    expect(fresh.status).toBe(200);
    expectNoSecrets(fresh.body);
    expect(fresh.body).toMatchObject({ id: agent.userId, name: 'Nadia Karim', mustChangePassword: true });

    const account = await server.db.selectFrom('users').selectAll().where('id', '=', String(agent.userId)).executeTakeFirstOrThrow();
    expect(account).toMatchObject({ name: 'Nadia Karim', email: 'nadia.karim@example.com', image: '/assets/images/nadia.png', role: 'agent' });
    expect(JSON.stringify(account)).not.toContain('n3w-Pass!');

    // Kept as a replacement: from whom, to whom; never the password.
    const history = await server.api('GET', '/replacements', { cookie: admin });
    expect(history.status).toBe(200);
    expectNoSecrets(history.body);
    expect(history.body[0]).toMatchObject({ role: 'agent', account: agent.userId, name: 'Nadia Karim', previousName: 'Demo Agent', previousEmail: 'agent@demo.test' });
    const stored = await server.db.selectFrom('accountReplacements').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain('n3w-Pass!');
    expect(stored.every((row) => row.passwordHash === null)).toBe(true);

    // The new person is told by email how to sign in, without the password.
    const mails = await server.db.selectFrom('emailHistory').selectAll().where('kind', '=', REPLACEMENT_EMAIL_KIND).execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'nadia.karim@example.com' });
    expect(String(mails[0].text)).toContain('/agent');
    expect(JSON.stringify(mails)).not.toContain('n3w-Pass!');
  });

  it('hands a dealer account over the same way, and keeps its team', async () => {
    const dealer = await profileOf('dealers', 'dealer@demo.test');
    const old = await signIn('dealer@demo.test', DEMO_PASSWORD);
    const res = await server.api('PATCH', `/dealers/replace/${dealer.id}`, {
      cookie: admin,
      body: { name: 'Kamal Traders', image: '/avatar.png', email: 'kamal@example.com', password: 'dealer-99' },
    });
    expect(res.status).toBe(200);
    expectNoSecrets(res.body);
    expect(res.body).toMatchObject({ id: dealer.id, name: 'Kamal Traders', image: '/avatar.png', commission: dealer.commission });
    expect(res.body.dealerId).toBe(agentIdOf({ name: 'Kamal Traders', city: String(dealer.city), district: String(dealer.district), country: String(dealer.country) }));
    expect((await server.api('GET', '/getcurrentuser', { cookie: old.cookie })).status).toBe(401);
    expect((await signIn('dealer@demo.test', DEMO_PASSWORD)).status).toBe(401);
    expect((await signIn('kamal@example.com', 'dealer-99')).status).toBe(200);
    // The sellers under the account stay under it.
    const team = await server.db.selectFrom('users').select('email').where('dealerId', '=', String(dealer.userId)).execute();
    expect(team.map((u) => u.email)).toContain('seller@demo.test');
  });

  it('refuses an email another account holds, and changes nothing', async () => {
    const dealer = await profileOf('dealers', SECOND_DEALER_EMAIL);
    const old = await signIn(SECOND_DEALER_EMAIL, DEMO_PASSWORD);
    const res = await server.api('PATCH', `/dealers/replace/${dealer.id}`, {
      cookie: admin,
      body: { name: 'Someone', image: '/avatar.png', email: 'seller@demo.test', password: 'whatever1' },
    });
    expect(res.status).toBe(409);
    expect(Object.keys(res.body.errors)).toEqual(['email']);
    expect((await server.api('GET', '/getcurrentuser', { cookie: old.cookie })).status).toBe(200);
    expect((await signIn(SECOND_DEALER_EMAIL, DEMO_PASSWORD)).status).toBe(200);
    expect((await profileOf('dealers', SECOND_DEALER_EMAIL)).name).toBe(dealer.name);
  });

  it('is for admins only, and answers 404 for a profile that is not there', async () => {
    const dealer = await profileOf('dealers', SECOND_DEALER_EMAIL);
    const body = { name: 'Intruder', image: '/avatar.png', email: 'intruder@example.com', password: 'intrude1' };
    const own = (await signIn(SECOND_DEALER_EMAIL, DEMO_PASSWORD)).cookie;
    expect((await server.api('PATCH', `/dealers/replace/${dealer.id}`, { cookie: own, body })).status).toBe(403);
    expect((await server.api('PATCH', `/dealers/replace/${dealer.id}`, { body })).status).toBe(401);
    expect((await server.api('PATCH', '/agents/replace/ffffffffffffffffffffffff', { cookie: admin, body })).status).toBe(404);
    // An agent's id is not a dealer's.
    const agent = await server.db.selectFrom('agents').select('id').executeTakeFirstOrThrow();
    expect((await server.api('PATCH', `/dealers/replace/${agent.id}`, { cookie: admin, body })).status).toBe(404);
  });
});
