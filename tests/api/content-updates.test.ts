/**
 * Site settings, notices, pages and footer menus have update dialogs of our own (beyond the spec):
 * through the real HTTP API on every engine, each changes the record, refuses a bad body with the
 * field's message, is refused to a role that may not write, and leaves the spec's reads working.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../resources/index.ts';
import { createSampler } from '../../src/domain/sample.ts';
import { fillPath, parseCall, pickedFields, ruleOf, type UpdateDialog } from '../../src/manifest/index.ts';
import { createRecord } from '../../src/server/records/writes.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

type Row = Record<string, unknown>;
const RESOURCES = ['siteSettings', 'notices', 'pages', 'footerMenus'];

const cases = RESOURCES.map((name) => {
  const r = registry.resource(name);
  const found = Object.entries(r.dialogs).find(([, d]) => d.kind === 'update') as [string, UpdateDialog] | undefined;
  return [name, r, found] as const;
});

describe.each(engines)('update dialogs of site content (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let seller: string;
  const sampler = createSampler({ seed: 12, uniqueNames: true });
  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    seller = await server.login('seller');
  });
  afterAll(() => server?.close());

  it.each(cases)('%s', async (_name, r, found) => {
    expect(found, `${r.name} declares an update dialog`).toBeDefined();
    const [, update] = found!;
    const record = await createRecord(server.db, registry, r, sampler.record(r));
    const { method, path } = parseCall(update.call);
    const url = fillPath(path, { id: record.id });

    // A valid body changes the record, and answers it.
    const body = sampler.body(r, update);
    const ok = await server.api(method, url, { cookie: admin, body });
    expect(ok.status).toBe(200);
    const stored = (await server.db.selectFrom(r.name).selectAll().where('id', '=', record.id as string).executeTakeFirst()) as Row;
    for (const f of pickedFields(r, update)) expect(stored[f.name], f.name).toEqual(ruleOf(f).parse(body[f.name]));

    // A field left empty that must hold something is refused with its own message, and nothing changes.
    const required = pickedFields(r, update).find((f) => !ruleOf(f).safeParse('').success);
    if (required) {
      const message = ruleOf(required).safeParse('').error!.issues[0]!.message;
      const bad = await server.api(method, url, { cookie: admin, body: { ...body, [required.name]: '' } });
      expect(bad).toMatchObject({ status: 400, body: { errors: { [required.name]: [message] } } });
    }
    // An unknown field (mass assignment) is refused.
    expect((await server.api(method, url, { cookie: admin, body: { ...body, id: 'x' } })).status).toBe(400);
    // A role that may not write is refused, and the record stays.
    expect((await server.api(method, url, { cookie: seller, body })).status).toBe(403);
    const after = (await server.db.selectFrom(r.name).selectAll().where('id', '=', record.id as string).executeTakeFirst()) as Row;
    expect(after).toEqual(stored);
  });

  it("pages: a slug another page holds is refused under Slug, and the spec's read by slug still answers", async () => {
    const r = registry.resource('pages');
    const a = await createRecord(server.db, registry, r, { title: 'A', slug: 'page-a', content: '<p>a</p>' });
    await createRecord(server.db, registry, r, { title: 'B', slug: 'page-b', content: '<p>b</p>' });
    const taken = await server.api('PATCH', `/pages/${a.id}`, { cookie: admin, body: { title: 'A', slug: 'page-b', content: '<p>a</p>' } });
    expect(taken).toMatchObject({ status: 409, body: { errors: { slug: ['A page with this slug already exists.'] } } });
    const bad = await server.api('PATCH', `/pages/${a.id}`, { cookie: admin, body: { title: 'A', slug: 'Not a slug!', content: '<p>a</p>' } });
    expect(bad).toMatchObject({ status: 400, body: { errors: { slug: ['A slug has lower-case letters, digits and hyphens only.'] } } });
    expect((await server.api('PATCH', `/pages/${a.id}`, { cookie: admin, body: { title: 'A2', slug: 'page-a2', content: '<p>a2</p>' } })).status).toBe(200);
    const read = await server.api('GET', '/pages/page-a2', { cookie: seller });
    expect(read).toMatchObject({ status: 200, body: { id: a.id, title: 'A2', content: '<p>a2</p>' } });
  });

  it('site settings: the value changes, the name (what code looks it up by) cannot', async () => {
    const r = registry.resource('siteSettings');
    const s = await createRecord(server.db, registry, r, { name: 'test-setting', value: 'one' });
    expect((await server.api('PATCH', `/site-settings/${s.id}`, { cookie: admin, body: { value: 'two' } })).status).toBe(200);
    expect((await server.api('PATCH', `/site-settings/${s.id}`, { cookie: admin, body: { name: 'other', value: 'x' } })).status).toBe(400);
    expect((await server.api('GET', `/site-settings/${s.id}`, { cookie: admin })).body).toMatchObject({ name: 'test-setting', value: 'two' });
  });
});
