/**
 * `POST /api/admin/v1/affiliate` (spec §7): records who referred an account (`users.referredBy`) from
 * the referrer's invite code, once, on every engine this machine has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { affiliateMessages } from '../../resources/referrals.ts';
import { ROLES } from '../../src/manifest/index.ts';
import { newId } from '../../src/server/db/id.ts';
import { demoEmail } from '../../src/server/seed/index.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

describe.each(engines)('affiliate API (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let buyer: string;
  /** Ids of the demo accounts (`<role>@demo.test`) by role. */
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    buyer = await server.login('user');
    for (const role of ROLES)
      ids[role] = (await server.db.selectFrom('users').select('id').where('email', '=', demoEmail(role)).executeTakeFirstOrThrow()).id as string;
  });
  afterAll(() => server?.close());

  /** An account of `role` made for one test, with its own invite code. */
  async function account(role = 'user', code = `CODE-${newId().slice(-8)}`) {
    const now = new Date().toISOString();
    const id = newId();
    await server.db
      .insertInto('users')
      .values({ id, name: `Someone ${code}`, email: `${code.toLowerCase()}@demo.test`, role, inviteCode: code, createdAt: now, updatedAt: now, version: 1 })
      .execute();
    return { id, code };
  }
  const referrerOf = async (id: string) =>
    (await server.db.selectFrom('users').select('referredBy').where('id', '=', id).executeTakeFirstOrThrow()).referredBy;
  const affiliate = (body: unknown, cookie = buyer) => server.api('POST', '/affiliate', { cookie, body });

  it('lets a user record its own referral once, audited, and answers without secrets', async () => {
    const res = await affiliate({ bhrfc: 'DEMO-SELLER', userId: ids.user });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: ids.user, referredBy: ids.seller });
    expect(await referrerOf(ids.user)).toBe(ids.seller);
    const entry = await server.db.selectFrom('auditLog').selectAll().where('recordId', '=', ids.user).where('action', '=', 'affiliate').executeTakeFirst();
    expect(JSON.parse(String(entry?.changes))).toEqual({ referredBy: { before: null, after: ids.seller } });
    expect(entry?.user).toBe('user@demo.test');

    // The same referral again is answered as recorded; another referrer never replaces it.
    expect((await affiliate({ bhrfc: 'DEMO-SELLER', userId: ids.user })).status).toBe(200);
    const other = await affiliate({ bhrfc: 'DEMO-AGENT', userId: ids.user });
    expect(other.status).toBe(409);
    expect(other.body.message).toBe(affiliateMessages.taken);
    expect(await referrerOf(ids.user)).toBe(ids.seller);
  });

  it("refuses a user recording another account's referral, as if the account did not exist", async () => {
    const someone = await account();
    const res = await affiliate({ bhrfc: 'DEMO-AGENT', userId: someone.id });
    expect(res.status).toBe(404);
    expect(await referrerOf(someone.id)).toBeNull();
    // The admin records anyone's.
    const byAdmin = await affiliate({ bhrfc: 'DEMO-AGENT', userId: someone.id }, admin);
    expect(byAdmin.status).toBe(200);
    expect(await referrerOf(someone.id)).toBe(ids.agent);
    expect((await affiliate({ bhrfc: 'DEMO-AGENT', userId: newId() }, admin)).status).toBe(404);
  });

  it('refuses an unknown code, its own code and a circle with 400', async () => {
    const a = await account();
    const b = await account();
    const unknown = await affiliate({ bhrfc: 'NOBODY-HAS-THIS', userId: a.id }, admin);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual({ bhrfc: [affiliateMessages.unknownCode] });
    const own = await affiliate({ bhrfc: a.code, userId: a.id }, admin);
    expect(own.status).toBe(400);
    expect(own.body.errors).toEqual({ bhrfc: [affiliateMessages.ownCode] });
    // b brought a in; a cannot then have brought b in.
    expect((await affiliate({ bhrfc: b.code, userId: a.id }, admin)).status).toBe(200);
    const circle = await affiliate({ bhrfc: a.code, userId: b.id }, admin);
    expect(circle.status).toBe(400);
    expect(circle.body.errors).toEqual({ bhrfc: [affiliateMessages.circle] });
    expect(await referrerOf(b.id)).toBeNull();
    // Codes are matched as they are: a code's case is part of it.
    expect((await affiliate({ bhrfc: b.code.toLowerCase(), userId: b.id }, admin)).status).toBe(400);
  });

  it('judges the body with the manifest rule: required, strict, bounded', async () => {
    const c = await account();
    for (const body of [{}, { bhrfc: '' , userId: c.id }, { bhrfc: 'DEMO-AGENT' }, { bhrfc: 5, userId: c.id }, { bhrfc: 'x'.repeat(65), userId: c.id }, { bhrfc: 'DEMO-AGENT', userId: c.id, referredBy: ids.admin }, [], 'text']) {
      const res = await affiliate(body, admin);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await affiliate({ userId: c.id }, admin)).body.errors.bhrfc).toEqual([affiliateMessages.codeRequired]);
    expect(await referrerOf(c.id)).toBeNull();
    expect((await server.api('POST', '/affiliate', { body: { bhrfc: 'DEMO-AGENT', userId: c.id } })).status).toBe(401);
  });

  it('lets exactly one of two racing referrals win', async () => {
    const d = await account();
    const results = await Promise.all([
      affiliate({ bhrfc: 'DEMO-AGENT', userId: d.id }, admin),
      affiliate({ bhrfc: 'DEMO-DEALER', userId: d.id }, admin),
      affiliate({ bhrfc: 'DEMO-SUPPORT', userId: d.id }, admin),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409]);
    const winner = results.find((r) => r.status === 200)!;
    expect(await referrerOf(d.id)).toBe(winner.body.referredBy);
  });
});
