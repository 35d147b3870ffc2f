/**
 * Issue 51, point 6, through the real HTTP API on every engine: each action means what it says.
 * - One pending document per kind: a second of the same kind for the same owner is refused (409, the
 *   message under `kind`), also in a burst of parallel uploads and when a rejected one is sent again;
 *   another kind, another owner, or the same kind once the first was reviewed, are taken.
 * - What a list offers a role, the server does not refuse that role (the client asks `authorize` as the
 *   guard does): every create, Edit, More-actions entry and Delete offered, called, answers anything but 403.
 * - A seller is not offered, and may not call, Delete on its own shop (spec §6: an admin function).
 * - Countries and cities, once made, can be changed; a sub-child category's update moves it under another parent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../resources/index.ts';
import { listDialogs } from '../../src/client/generate/list-dialogs.ts';
import { mayList } from '../../src/client/generate/access.ts';
import { fillPath, parseCall, ROLES, type Call, type Role } from '../../src/manifest/index.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { account } from './fixtures/catalogue.ts';

/** An id no record has (ids are 24 hex digits). */
const NO_SUCH_ID = 'ffffffffffffffffffffffff';
const nationalId = { kind: 'NATIONAL_ID', file: '/assets/images/id.png' };
const PENDING_MESSAGE = 'National ID card is already waiting for review. Wait for its review, or delete it to upload another.';

describe.each(engines)('each action means what it says (%s)', (engine) => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
  });
  afterAll(() => server?.close());

  describe('one pending document per kind', () => {
    it('refuses a second pending one of a kind, and takes another kind or another owner', async () => {
      const { cookie } = await account(server, 'seller');
      const other = await account(server, 'seller');
      expect((await server.api('POST', '/sellers/documents', { cookie, body: nationalId })).status).toBe(201);
      const second = await server.api('POST', '/sellers/documents', { cookie, body: { ...nationalId, file: '/assets/images/id-2.png' } });
      expect(second.status).toBe(409);
      expect(second.body).toEqual({ message: PENDING_MESSAGE, errors: { kind: [PENDING_MESSAGE] } });
      expect((await server.api('POST', '/sellers/documents', { cookie, body: { kind: 'PASSPORT', file: '/assets/images/p.png' } })).status).toBe(201);
      expect((await server.api('POST', '/sellers/documents', { cookie: other.cookie, body: nationalId })).status).toBe(201);
    });

    it('takes the kind again once the pending one was reviewed, and refuses sending a rejected one again beside a pending one', async () => {
      const { cookie } = await account(server, 'agent');
      const first = await server.api('POST', '/agents/documents', { cookie, body: nationalId });
      const rejected = await server.api('PATCH', `/agents/documents/${first.body.id}`, { cookie: admin, body: { status: 'REJECTED', note: 'Blurred.' } });
      expect(rejected.body.status).toBe('REJECTED');
      const next = await server.api('POST', '/agents/documents', { cookie, body: nationalId });
      expect(next.status).toBe(201);
      // The rejected one sent again would be a second pending National ID.
      const again = await server.api('PATCH', `/agents/documents/${first.body.id}/resubmit`, { cookie, body: nationalId });
      expect(again.status).toBe(409);
      expect(again.body.errors).toEqual({ kind: [PENDING_MESSAGE] });
      // Once the pending one is gone, it may.
      expect((await server.api('DELETE', `/agents/documents/${next.body.id}`, { cookie })).status).toBe(200);
      expect((await server.api('PATCH', `/agents/documents/${first.body.id}/resubmit`, { cookie, body: nationalId })).status).toBe(200);
    });

    it('lets one of a burst of parallel uploads of a kind through', async () => {
      const { cookie, id } = await account(server, 'dealer');
      const answers = await Promise.all(Array.from({ length: 6 }, () => server.api('POST', '/dealers/documents', { cookie, body: nationalId })));
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      const kept = await server.db.selectFrom('dealerDocuments').select('id').where('userId', '=', id).execute();
      expect(kept).toHaveLength(1);
    });
  });

  describe('what a list offers a role, the server lets it call', () => {
    /** Calls `call` as `cookie` for a row that does not exist (or with an empty body): anything but a refusal of the role. */
    const callAs = (cookie: string, call: Call) => {
      const { method, path } = parseCall(call);
      return server.api(method, fillPath(path, { id: NO_SUCH_ID }), { cookie, body: method === 'DELETE' || method === 'GET' ? undefined : {} });
    };
    const cases = ROLES.flatMap((role) =>
      registry.resources
        .filter((r) => r.reads.list && mayList(r, role))
        .flatMap((r) => {
          const offered = listDialogs(registry, r, role);
          return [...offered.creates, offered.edit, ...offered.more, offered.remove]
            .filter((o) => o !== undefined && 'call' in o.dialog)
            .map((o) => ({ role, resource: r.name, type: o!.type, call: (o!.dialog as { call: Call }).call }));
        }),
    );

    it('some role is offered something on some list (the check below is not empty)', () => expect(cases.length).toBeGreaterThan(40));

    it.each(ROLES)('as %s', async (role: Role) => {
      const cookie = await server.login(role);
      const refused: string[] = [];
      for (const c of cases.filter((x) => x.role === role)) {
        const { status } = await callAs(cookie, c.call);
        if (status === 401 || status === 403) refused.push(`${c.resource}.${c.type} (${c.call}): ${status}`);
      }
      expect(refused).toEqual([]);
    });
  });

  it("does not offer a seller, nor let it, delete its own shop; an admin may", async () => {
    expect(listDialogs(registry, registry.resource('sellers'), 'seller').remove).toBeUndefined();
    expect(listDialogs(registry, registry.resource('sellers'), 'admin').remove?.type).toBe('deleteSeller');
    const seller = await server.login('seller');
    const [shop] = (await server.api('GET', '/sellers/', { cookie: seller })).body as { id: string }[];
    expect(shop).toBeDefined();
    expect((await server.api('DELETE', `/sellers/${shop.id}`, { cookie: seller })).status).toBe(403);
    expect((await server.api('GET', `/sellers/${shop.id}`, { cookie: seller })).status).toBe(200);
  });

  it('changes a country and a city once made', async () => {
    const country = await server.api('POST', '/countries', { cookie: admin, body: { name: 'Atlantis', code: 'ZZ', code3: 'ZZZ', status: 1 } });
    expect(country.status, JSON.stringify(country.body)).toBe(201);
    const changed = await server.api('PATCH', `/countries/${country.body.id}`, { cookie: admin, body: { name: 'Atlantis', code: 'ZZ', code3: 'ZZZ', status: 0 } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.status).toBe(0);
    const city = await server.api('POST', '/cities', { cookie: admin, body: { name: 'Poseidonia', country: 'ZZ' } });
    expect(city.status, JSON.stringify(city.body)).toBe(201);
    const moved = await server.api('PATCH', `/cities/${city.body.id}`, { cookie: admin, body: { name: 'New Poseidonia', country: 'ZZ' } });
    expect(moved.body.name).toBe('New Poseidonia');
    expect((await server.api('PATCH', `/countries/${country.body.id}`, { cookie: await server.login('seller'), body: { status: 1 } })).status).toBe(403);
  });

  it("moves a sub-child category under another sub category, as its create chose one", async () => {
    const tree = async (name: string) => {
      const top = await server.api('POST', '/categories', { cookie: admin, body: { name } });
      const child = await server.api('POST', '/categories/child', { cookie: admin, body: { name: `${name} child`, image: '/logo.jpg', category: top.body.id } });
      return (await server.api('POST', '/categories/sub', { cookie: admin, body: { name: `${name} sub`, image: '/logo.jpg', category: child.body.id } })).body.id as string;
    };
    const [first, second] = [await tree('Garden'), await tree('Kitchen')];
    const made = await server.api('POST', '/categories/sub-child', { cookie: admin, body: { name: 'Hoses', category: first } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const moved = await server.api('PATCH', `/categories/sub-child/${made.body.id}`, { cookie: admin, body: { name: 'Hoses', slug: '', category: second } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.category).toBe(second);
    // The spec's body (name and slug) is still taken, and leaves the parent as it is.
    const renamed = await server.api('PATCH', `/categories/sub-child/${made.body.id}`, { cookie: admin, body: { name: 'Garden hoses', slug: '' } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Garden hoses', category: second });
  });
});
