/**
 * Ownership, generated from the manifests: for every resource that declares an `owner`, and every role
 * it lets reach only its own rows (or its team's), one account of that role cannot list, read, export,
 * update, recycle, delete or act on another's record: each answers as if the record did not exist
 * (404), and the record is left as it was. A dealer reaches its team's rows and not another team's. On
 * every engine this machine has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../resources/index.ts';
import { parseCall, fillPath, urlOf, type ResourceDef, type Role } from '../../src/manifest/index.ts';
import { hashPassword } from '../../src/server/auth/password.ts';
import { newId } from '../../src/server/db/id.ts';
import { VERSION } from '../../src/server/db/tables.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

const owned = registry.resources.filter((r) => r.access.owner);
const PASSWORD = 'matrix-pass-1';
const allowed = (access: ResourceDef['access']['read'], role: Role) => access === 'signedIn' || access.includes(role);

/** The roles a resource lets reach only some rows, with how (own or a team field). */
function narrowRoles(r: ResourceDef): { role: Role; team?: string }[] {
  return Object.entries(r.access.owner!.roles).flatMap(([role, reach]) =>
    reach === 'own' ? [{ role: role as Role }] : reach && typeof reach === 'object' && 'team' in reach ? [{ role: role as Role, team: reach.team }] : [],
  );
}

it('the manifests declare owned resources (the matrix below is not empty)', () => {
  expect(owned.length).toBeGreaterThan(0);
});

describe.each(engines)('ownership matrix (%s)', (engine) => {
  let server: TestServer;
  const now = new Date().toISOString();
  const stamp = { createdAt: now, updatedAt: now };

  beforeAll(async () => {
    server = await startTestServer({ engine });
  });
  afterAll(() => server?.close());

  /** A new account of a role (optionally under a dealer), signed in: its id and session cookie. */
  async function account(role: Role, under?: { field: string; id: string }) {
    const id = newId();
    const email = `${role}-${id.slice(-8)}@matrix.test`;
    await server.db
      .insertInto('users')
      .values({ id, name: `Matrix ${role}`, email, role, passwordHash: await hashPassword(PASSWORD), ...(under ? { [under.field]: under.id } : {}), ...stamp, [VERSION]: 1 })
      .execute();
    const res = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
    expect(res.status, `sign in as ${email}`).toBe(200);
    return { id, cookie: res.headers.get('set-cookie')!.split(';')[0] };
  }

  /** A row of `r` owned by `ownerId`, written straight to the table (through its `via` record if any). */
  async function ownedRow(r: ResourceDef, ownerId: string): Promise<string> {
    const owner = r.access.owner!;
    const id = newId();
    let values: Record<string, unknown> = { id, ...stamp, [VERSION]: 1 };
    if (owner.via) {
      const target = registry.resource(r.fields.find((f) => f.name === owner.via)!.reference!);
      const targetId = newId();
      await server.db.insertInto(target.name).values({ id: targetId, [owner.field]: ownerId, ...stamp, [VERSION]: 1 }).execute();
      values = { ...values, [owner.via]: targetId };
    } else values = { ...values, [owner.field]: ownerId };
    // A title to find it by in lists, where the title is text.
    const title = r.fields.find((f) => f.name === r.title);
    if (title && ['text', 'email', 'textarea'].includes(title.kind) && !(title.name in values)) values[title.name] = `Matrix ${id.slice(-6)}`;
    await server.db.insertInto(r.name).values(values).execute();
    return id;
  }

  const exists = async (r: ResourceDef, id: string) => !!(await server.db.selectFrom(r.name).select('id').where('id', '=', id).executeTakeFirst());

  for (const r of owned) {
    for (const { role, team } of narrowRoles(r)) {
      it(`${r.name}: ${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role} reaches its own rows${team ? ' and its team’s' : ''}, never another’s`, async () => {
        // Two of the role; with a team, each leads its own team of one account of every other role.
        const mine = await account(role);
        const theirs = await account(role);
        const myRow = await ownedRow(r, mine.id);
        const theirRow = await ownedRow(r, theirs.id);
        const teamRows: string[] = [];
        const otherTeamRows: string[] = [];
        if (team) {
          const member = await account('seller', { field: team, id: mine.id });
          const stranger = await account('seller', { field: team, id: theirs.id });
          teamRows.push(await ownedRow(r, member.id));
          otherTeamRows.push(await ownedRow(r, stranger.id));
        }
        const as = (method: string, path: string, body?: unknown, query?: Record<string, unknown>) =>
          server.api(method, path, { cookie: mine.cookie, body, query });
        const reached = [myRow, ...teamRows];
        const unreached = [theirRow, ...otherTeamRows];

        {
          for (const read of Object.values(r.reads)) {
            if (!allowed(read.access ?? r.access.read, role)) continue;
            const { path, params } = parseCall(read.call);
            if (read.kind === 'list' && !params.length && !read.scope) {
              const res = await as('GET', path, undefined, read.paging === 'page' ? { limit: 100 } : { range: [0, 999] });
              expect(res.status, read.call).toBe(200);
              const ids = (read.paging === 'page' ? res.body.data : res.body).map((x: { id: string }) => x.id);
              for (const id of reached) expect(ids, `${read.call} lists its own ${id}`).toContain(id);
              for (const id of unreached) expect(ids, `${read.call} hides ${id}`).not.toContain(id);
              const csv = await fetch(`${server.url}${urlOf(path)}?format=csv`, { headers: { cookie: mine.cookie } });
              const text = await csv.text();
              expect(csv.status).toBe(200);
              for (const id of reached) expect(text).toContain(id);
              for (const id of unreached) expect(text, `${read.call} exports ${id}`).not.toContain(id);
            }
            if (read.kind === 'one' && (read.by ?? 'id') === 'id' && params.length === 1) {
              for (const id of reached) {
                const own = await as('GET', fillPath(path, { [params[0]]: id }));
                expect(own.status, `${read.call} own`).toBe(200);
                // The record itself (read as the database writes it, within the user's reach), with its version.
                expect(own.body.id, `${read.call} own`).toBe(id);
                expect(own.headers.get('etag'), `${read.call} own`).toMatch(/^"\d+"$/);
              }
              for (const id of unreached) expect((await as('GET', fillPath(path, { [params[0]]: id }))).status, `${read.call} another’s`).toBe(404);
            }
          }
        }
        const writes = [
          // A dialog acting on another resource's record (`on`: applying, on a job) is that resource's to judge.
          ...Object.values(r.dialogs).filter((d) => 'call' in d && d.kind !== 'create' && !(d.kind === 'action' && d.on && d.on !== r.name)).map((d) => ({ call: (d as { call: string }).call, access: d.access ?? r.access.write })),
          ...Object.values(r.operations).map((op) => ({ call: op.call, access: op.access ?? r.access.write })),
        ];
        for (const w of writes) {
          const { method, path, params } = parseCall(w.call as `GET /${string}`);
          if (!params.includes('id') || !allowed(w.access, role)) continue;
          for (const id of unreached) {
            const res = await as(method, fillPath(path, { id }), method === 'GET' || method === 'DELETE' ? undefined : {});
            expect(res.status, `${w.call} on another’s record`).toBe(404);
            expect(await exists(r, id), `${w.call} left another’s record`).toBe(true);
          }
        }
      });
    }
  }
});

describe.each(engines)('a list scoped through the account (%s)', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
  });
  afterAll(() => server?.close());

  it('GET /sellers/?dealerId= lists the sellers whose account works under that dealer, and only those', async () => {
    const admin = await server.login('admin');
    const idOf = async (email: string) => (await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id as string;
    const [dealer, dealer2, seller, seller2] = await Promise.all(['dealer@demo.test', 'dealer2@demo.test', 'seller@demo.test', 'seller2@demo.test'].map(idOf));
    const accountsUnder = async (dealerId: string) =>
      (await server.api('GET', '/sellers/', { cookie: admin, query: { dealerId, range: [0, 99] } })).body.map((x: { userId: string }) => x.userId);
    expect(await accountsUnder(dealer)).toEqual([seller]);
    expect(await accountsUnder(dealer2)).toEqual([seller2]);
    expect(await accountsUnder('nobody-at-all')).toEqual([]);
    // With no dealer named, every seller; and the dealer itself still reaches only its team.
    const all = (await server.api('GET', '/sellers/', { cookie: admin, query: { range: [0, 99] } })).body.map((x: { userId: string }) => x.userId);
    expect(all).toEqual(expect.arrayContaining([seller, seller2]));
    const asDealer = await server.login('dealer');
    const mine = await server.api('GET', '/sellers/', { cookie: asDealer, query: { dealerId: dealer2, range: [0, 99] } });
    expect(mine.body).toEqual([]);
  });
});
