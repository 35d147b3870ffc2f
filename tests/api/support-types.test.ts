/**
 * Support types and urgency levels (issue 53.2) through the real HTTP API on every engine: the spec's
 * paths and methods (§7), the name rule, an urgency level's response targets (whole minutes, above 0,
 * the first reply not later than the resolution), unknown fields, who may read and write, and the
 * single reads' 404 with §8's texts. Texts are read from the manifests, where they are declared once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../resources/index.ts';
import {
  DEFAULT_FIRST_REPLY_MINUTES,
  DEFAULT_RESOLVE_MINUTES,
  FIRST_REPLY_AFTER_RESOLVE,
  RESPONSE_TARGET_MAX_MINUTES,
} from '../../resources/support.ts';
import { ruleOf, type CreateDialog, type UpdateDialog, type OneRead, type Role } from '../../src/manifest/index.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

const TYPES = '/support-panel/manage/types';
const URGENCY = '/support-panel/manage/urgency';

const types = registry.resource('supportTypes');
const urgencies = registry.resource('supportUrgencies');
/** The message a field's rule gives for `value`. */
const messageOf = (resource: typeof types, name: string, value: unknown) =>
  ruleOf(resource.fields.find((f) => f.name === name)!).safeParse(value).error!.issues[0]!.message;
const notFoundOf = (resource: typeof types) => (resource.reads.one as OneRead).notFound!;

const cases = [
  { what: 'types', base: TYPES, resource: types, create: 'createSupportOrHelpType', update: 'updateSupportOrHelpType' },
  { what: 'urgency', base: URGENCY, resource: urgencies, create: 'createSupportOrHelpUrgency', update: 'updateSupportOrHelpUrgency' },
] as const;

describe.each(engines)('support types and urgency levels (%s)', (engine) => {
  let server: TestServer;
  const as: Partial<Record<Role, string>> = {};
  const cookie = (role: Role) => as[role]!;
  let seq = 0;
  const unique = (prefix: string) => `${prefix} ${++seq}`;
  const count = async (table: string) => Number((await server.db.selectFrom(table).select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    server = await startTestServer({ engine });
    for (const role of ['admin', 'support', 'seller', 'user', 'dealer', 'agent'] as const) as[role] = await server.login(role);
  });
  afterAll(() => server?.close());

  it('the dialogs declare the spec calls and §8 failure text', () => {
    for (const c of cases) {
      const create = registry.dialog(c.create)!.dialog as CreateDialog;
      const update = registry.dialog(c.update)!.dialog as UpdateDialog;
      expect(create.call).toBe(`POST ${c.base}`);
      expect(update.call).toBe(`PUT ${c.base}/{id}`);
      expect(create.failure).toBe('Something went wrong... Please Try again later.');
      expect(update.failure).toBe('Something went wrong... Please Try again later.');
    }
    expect(notFoundOf(types)).toBe('Unable to fetch single Types');
    expect(notFoundOf(urgencies)).toBe('Unable to fetch single Urgency');
  });

  it.each(cases)('$what: the admin creates (POST), reads (GET with and without ?isUpdate=1, and the list) and updates (PUT)', async ({ base, resource }) => {
    const admin = cookie('admin');
    const name = unique('Billing');
    const created = await server.api('POST', base, { cookie: admin, body: { name } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name });
    const id = String(created.body.id);

    const forUpdate = await server.api('GET', `${base}/${id}`, { cookie: admin, query: { isUpdate: '1' } });
    expect(forUpdate).toMatchObject({ status: 200, body: { id: created.body.id, name } });
    expect(forUpdate.headers.get('etag')).toBeTruthy();
    expect((await server.api('GET', `${base}/${id}`, { cookie: admin })).body).toMatchObject({ name });

    const renamed = unique('Payments');
    const updated = await server.api('PUT', `${base}/${id}`, { cookie: admin, body: { name: renamed } });
    expect(updated).toMatchObject({ status: 200, body: { id: created.body.id, name: renamed } });
    const stored = await server.db.selectFrom(resource.name).selectAll().where('id', '=', id as never).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ name: renamed });

    const list = await server.api('GET', base, { cookie: admin, query: { range: [0, 99] } });
    expect(list.status).toBe(200);
    expect(list.body.map((r: { name: string }) => r.name)).toContain(renamed);
    // The spec's verb is PUT: PATCH on the same path is no call of ours.
    expect((await server.api('PATCH', `${base}/${id}`, { cookie: admin, body: { name: 'x' } })).status).toBe(404);
  });

  it.each(cases)('$what: an empty name is refused with the declared message, on create and update; nothing written', async ({ base, resource }) => {
    const admin = cookie('admin');
    const message = messageOf(resource, 'name', '');
    const before = await count(resource.name);
    for (const name of ['', '   ']) {
      const bad = await server.api('POST', base, { cookie: admin, body: { name } });
      expect(bad).toMatchObject({ status: 400, body: { errors: { name: [message] } } });
    }
    expect((await server.api('POST', base, { cookie: admin, body: {} })).status).toBe(400);
    expect(await count(resource.name)).toBe(before);
    const { body } = await server.api('POST', base, { cookie: admin, body: { name: unique('Named') } });
    const bad = await server.api('PUT', `${base}/${body.id}`, { cookie: admin, body: { name: '' } });
    expect(bad).toMatchObject({ status: 400, body: { errors: { name: [message] } } });
    expect((await server.api('GET', `${base}/${body.id}`, { cookie: admin })).body.name).toBe(body.name);
  });

  it.each(cases)('$what: a name already used is refused (409), not doubled', async ({ base, resource }) => {
    const admin = cookie('admin');
    const name = unique('Twice');
    expect((await server.api('POST', base, { cookie: admin, body: { name } })).status).toBe(201);
    const before = await count(resource.name);
    expect((await server.api('POST', base, { cookie: admin, body: { name } })).status).toBe(409);
    expect(await count(resource.name)).toBe(before);
  });

  it.each(cases)('$what: unknown fields are refused (400), on create and update', async ({ base, resource }) => {
    const admin = cookie('admin');
    const before = await count(resource.name);
    for (const extra of [{ id: 'x' }, { version: 9 }, { createdAt: '2020-01-01T00:00:00.000Z' }, { isUpdate: 1 }])
      expect((await server.api('POST', base, { cookie: admin, body: { name: unique('Extra'), ...extra } })).status).toBe(400);
    expect(await count(resource.name)).toBe(before);
    const { body } = await server.api('POST', base, { cookie: admin, body: { name: unique('Kept') } });
    expect((await server.api('PUT', `${base}/${body.id}`, { cookie: admin, body: { name: 'Other', id: 'y' } })).status).toBe(400);
    expect((await server.api('GET', `${base}/${body.id}`, { cookie: admin })).body.name).toBe(body.name);
  });

  it.each(cases)('$what: a seller, a buyer, a dealer or an agent reads and writes nothing (403); nobody signed in gets 401', async ({ base, resource }) => {
    const { body } = await server.api('POST', base, { cookie: cookie('admin'), body: { name: unique('Private') } });
    const before = await count(resource.name);
    for (const role of ['seller', 'user', 'dealer', 'agent'] as const) {
      const c = cookie(role);
      expect((await server.api('GET', base, { cookie: c })).status, role).toBe(403);
      expect((await server.api('GET', `${base}/${body.id}`, { cookie: c, query: { isUpdate: '1' } })).status, role).toBe(403);
      expect((await server.api('POST', base, { cookie: c, body: { name: unique('Nope') } })).status, role).toBe(403);
      expect((await server.api('PUT', `${base}/${body.id}`, { cookie: c, body: { name: 'Nope' } })).status, role).toBe(403);
    }
    expect((await server.api('GET', base)).status).toBe(401);
    expect((await server.api('POST', base, { body: { name: 'Anon' } })).status).toBe(401);
    expect(await count(resource.name)).toBe(before);
    expect((await server.api('GET', `${base}/${body.id}`, { cookie: cookie('admin') })).body.name).toBe(body.name);
  });

  it.each(cases)('$what: support staff read the list and one record, and write nothing', async ({ base, resource }) => {
    const { body } = await server.api('POST', base, { cookie: cookie('admin'), body: { name: unique('Shared') } });
    const support = cookie('support');
    const list = await server.api('GET', base, { cookie: support, query: { range: [0, 999] } });
    expect(list.status).toBe(200);
    expect(list.body.map((r: { id: unknown }) => r.id)).toContain(body.id);
    expect(await server.api('GET', `${base}/${body.id}`, { cookie: support, query: { isUpdate: '1' } })).toMatchObject({ status: 200, body: { name: body.name } });
    const before = await count(resource.name);
    expect((await server.api('POST', base, { cookie: support, body: { name: unique('Staff') } })).status).toBe(403);
    expect((await server.api('PUT', `${base}/${body.id}`, { cookie: support, body: { name: 'Staff' } })).status).toBe(403);
    expect(await count(resource.name)).toBe(before);
  });

  it.each(cases)("$what: an unknown id answers 404 with §8's text on the single read; odd ids never a 5xx", async ({ base, resource }) => {
    const admin = cookie('admin');
    const { body } = await server.api('POST', base, { cookie: admin, body: { name: unique('Gone') } });
    const missing = `${String(body.id).replace(/\d$/, (d) => String((Number(d) + 1) % 10))}9999`;
    for (const role of ['admin', 'support'] as const) {
      const read = await server.api('GET', `${base}/${missing}`, { cookie: cookie(role), query: { isUpdate: '1' } });
      expect(read, role).toMatchObject({ status: 404, body: { message: notFoundOf(resource) } });
    }
    expect((await server.api('PUT', `${base}/${missing}`, { cookie: admin, body: { name: 'Nobody' } })).status).toBe(404);
    for (const odd of ['0', '-1', 'abc', '1.5', '99999999999999999999999', 'x'.repeat(300), '%E2%9C%93', "1'%20OR%20'1'%3D'1"]) {
      const read = await server.api('GET', `${base}/${odd}`, { cookie: admin, query: { isUpdate: '1' } });
      // 400 (not an id), 404 (no such record) or 414 (an address too long): never a 5xx.
      expect(read.status, odd).toBeGreaterThanOrEqual(400);
      expect(read.status, odd).toBeLessThan(500);
      const put = await server.api('PUT', `${base}/${odd}`, { cookie: admin, body: { name: 'Odd' } });
      expect(put.status, odd).toBeLessThan(500);
    }
  });

  it('urgency: created with a name only (the spec body), it promises the default targets; its targets can be set and changed', async () => {
    const admin = cookie('admin');
    const plain = await server.api('POST', URGENCY, { cookie: admin, body: { name: unique('Normal') } });
    expect(plain).toMatchObject({ status: 201, body: { firstReplyMinutes: DEFAULT_FIRST_REPLY_MINUTES, resolveMinutes: DEFAULT_RESOLVE_MINUTES } });

    const urgent = await server.api('POST', URGENCY, { cookie: admin, body: { name: unique('Urgent'), firstReplyMinutes: 15, resolveMinutes: 120 } });
    expect(urgent).toMatchObject({ status: 201, body: { firstReplyMinutes: 15, resolveMinutes: 120 } });
    // Equal targets are allowed: the first reply may be the resolution.
    expect((await server.api('POST', URGENCY, { cookie: admin, body: { name: unique('Same'), firstReplyMinutes: 60, resolveMinutes: 60 } })).status).toBe(201);

    const id = urgent.body.id;
    // The spec's update sends the name only: the targets stay.
    expect(await server.api('PUT', `${URGENCY}/${id}`, { cookie: admin, body: { name: unique('Critical') } })).toMatchObject({
      status: 200,
      body: { firstReplyMinutes: 15, resolveMinutes: 120 },
    });
    expect(await server.api('PUT', `${URGENCY}/${id}`, { cookie: admin, body: { name: unique('Critical'), resolveMinutes: 90 } })).toMatchObject({
      status: 200,
      body: { firstReplyMinutes: 15, resolveMinutes: 90 },
    });
    expect(await server.api('GET', `${URGENCY}/${id}`, { cookie: cookie('support'), query: { isUpdate: '1' } })).toMatchObject({
      status: 200,
      body: { firstReplyMinutes: 15, resolveMinutes: 90 },
    });
  });

  it('urgency: a first reply due after the resolution is refused (400 under firstReplyMinutes), on create and on update; nothing written', async () => {
    const admin = cookie('admin');
    const before = await count('supportUrgencies');
    const refused = { status: 400, body: { errors: { firstReplyMinutes: [FIRST_REPLY_AFTER_RESOLVE] } } };
    expect(await server.api('POST', URGENCY, { cookie: admin, body: { name: unique('Backwards'), firstReplyMinutes: 121, resolveMinutes: 120 } })).toMatchObject(refused);
    // Against the default resolve target (a day).
    expect(await server.api('POST', URGENCY, { cookie: admin, body: { name: unique('Late'), firstReplyMinutes: DEFAULT_RESOLVE_MINUTES + 1 } })).toMatchObject(refused);
    expect(await count('supportUrgencies')).toBe(before);

    const { body } = await server.api('POST', URGENCY, { cookie: admin, body: { name: unique('High'), firstReplyMinutes: 30, resolveMinutes: 240 } });
    // One target sent, judged against the other as stored.
    expect(await server.api('PUT', `${URGENCY}/${body.id}`, { cookie: admin, body: { name: body.name, firstReplyMinutes: 241 } })).toMatchObject(refused);
    expect(await server.api('PUT', `${URGENCY}/${body.id}`, { cookie: admin, body: { name: body.name, resolveMinutes: 29 } })).toMatchObject(refused);
    const stored = await server.api('GET', `${URGENCY}/${body.id}`, { cookie: admin });
    expect(stored.body).toMatchObject({ name: body.name, firstReplyMinutes: 30, resolveMinutes: 240 });
    expect(stored.body.version).toBe(body.version);
  });

  it('urgency: each target is a whole number of minutes above 0 and at most a year, with its own message', async () => {
    const admin = cookie('admin');
    const before = await count('supportUrgencies');
    const bad: unknown[] = [0, -5, 1.5, RESPONSE_TARGET_MAX_MINUTES + 1, '60', null, true, [], {}, Number.MAX_SAFE_INTEGER * 4];
    for (const field of ['firstReplyMinutes', 'resolveMinutes'] as const)
      for (const value of bad) {
        const res = await server.api('POST', URGENCY, { cookie: admin, body: { name: unique('Bad'), [field]: value } });
        expect(res.status, `${field}=${JSON.stringify(value)}`).toBe(400);
        // The field's own message, also for a wrong type (not a union's bare 'Invalid input').
        expect(res.body.errors[field], `${field}=${JSON.stringify(value)}`).toContain(messageOf(urgencies, field, value));
        expect(res.body.errors[field][0]).toMatch(field === 'firstReplyMinutes' ? /^First reply within/ : /^Resolved within/);
      }
    expect(await count('supportUrgencies')).toBe(before);
    const zero = await server.api('POST', URGENCY, { cookie: admin, body: { name: unique('Zero'), firstReplyMinutes: 0, resolveMinutes: 60 } });
    expect(zero).toMatchObject({ status: 400, body: { errors: { firstReplyMinutes: [messageOf(urgencies, 'firstReplyMinutes', 0)] } } });
    expect(messageOf(urgencies, 'firstReplyMinutes', 0)).toBe('First reply within must be more than 0 minutes.');
    const fraction = await server.api('POST', URGENCY, { cookie: admin, body: { name: unique('Fraction'), resolveMinutes: 90.5 } });
    expect(fraction).toMatchObject({ status: 400, body: { errors: { resolveMinutes: [messageOf(urgencies, 'resolveMinutes', 90.5)] } } });
  });
});
