/**
 * `GET /flowchart/agents` and `GET /flowchart/users` (spec §7, admin): who brought whom, as trees, on
 * every engine this machine has; and the tree's own rules (each account once, circles, bounds).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferralNode } from '../../resources/referrals.ts';
import { newId } from '../../src/server/db/id.ts';
import { MAX_TREE_ACCOUNTS, MAX_TREE_DEPTH, referralForest } from '../../src/server/front/referral-tree.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

/** A tree as `name(children…)`, for comparing shapes at a glance. */
const shape = (nodes: ReferralNode[]): string[] =>
  nodes.map((n) => (n.children.length ? `${n.name}(${shape(n.children).join(' ')})` : String(n.name)));

describe.each(engines)('referral flowchart API (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  const ids: Record<string, string> = {};

  /** Accounts are made in order, so their time-ordered ids are too (children are listed as they joined). */
  let clock = Date.now();
  async function account(name: string, role: string, referredBy?: string) {
    const now = new Date().toISOString();
    const id = newId((clock += 1000));
    await server.db
      .insertInto('users')
      .values({ id, name, email: `${name.toLowerCase()}@tree.test`, role, referredBy: referredBy ?? null, createdAt: now, updatedAt: now, version: 1 })
      .execute();
    ids[name] = id;
    return id;
  }

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    const ann = await account('Ann', 'agent');
    const sam = await account('Sam', 'seller', ann);
    await account('Uma', 'user', sam);
    const ali = await account('Ali', 'agent', ann); // an agent under an agent
    await account('Vic', 'user', ali);
    await account('Bea', 'agent'); // an agent who brought nobody
    const xen = await account('Xen', 'user'); // a buyer who brought a buyer
    await account('Yui', 'user', xen);
  });
  afterAll(() => server?.close());

  it("answers the agents' trees: every agent, each account once", async () => {
    const res = await server.api('GET', '/flowchart/agents', { cookie: admin });
    expect(res.status).toBe(200);
    const names = shape(res.body.data).filter((s) => !s.startsWith('Demo'));
    expect(names).toEqual(['Ann(Sam(Uma) Ali(Vic))', 'Bea']);
    expect(res.body.truncated).toBe(false);
    const ann = res.body.data.find((n: ReferralNode) => n.name === 'Ann');
    expect(ann).toMatchObject({ id: ids.Ann, role: 'agent', email: 'ann@tree.test', descendants: 4 });
    expect(JSON.stringify(res.body)).not.toMatch(/password/i);
  });

  it('answers every referral from the accounts nobody referred', async () => {
    const res = await server.api('GET', '/flowchart/users', { cookie: admin });
    expect(res.status).toBe(200);
    expect(shape(res.body.data)).toEqual(['Ann(Sam(Uma) Ali(Vic))', 'Xen(Yui)']);
    expect(res.body.total).toBe(7);
  });

  it('is for the admin only', async () => {
    for (const path of ['/flowchart/agents', '/flowchart/users']) {
      expect((await server.api('GET', path)).status).toBe(401);
      for (const role of ['user', 'agent', 'seller', 'dealer', 'support'] as const)
        expect((await server.api('GET', path, { cookie: await server.login(role) })).status, `${path} as ${role}`).toBe(403);
    }
  });
});

describe('referral tree rules', () => {
  const a = (id: string, referredBy?: string, role = 'user') => ({ id, name: id, role, referredBy });

  it('breaks a circle that old data may hold, placing each account once', () => {
    const tree = referralForest([a('p', 'r'), a('q', 'p'), a('r', 'q'), a('s')], 'users');
    expect(shape(tree.data)).toEqual(['p(q(r))']);
    const agents = referralForest([a('p', 'q', 'agent'), a('q', 'p', 'agent')], 'agents');
    expect(shape(agents.data)).toEqual(['p(q)']);
  });

  it('treats an unknown referrer or one’s own id as none', () => {
    expect(shape(referralForest([a('p', 'gone'), a('q', 'q'), a('r', 'p')], 'users').data)).toEqual(['p(r)']);
  });

  it('cuts a chain at the depth bound and a crowd at the size bound, and says so', () => {
    const chain = Array.from({ length: MAX_TREE_DEPTH + 10 }, (_, i) => a(`n${i}`, i ? `n${i - 1}` : undefined));
    const deep = referralForest(chain, 'users');
    expect(deep.truncated).toBe(true);
    let depth = 0;
    for (let node = deep.data[0]; node.children.length; node = node.children[0]) depth++;
    expect(depth).toBe(MAX_TREE_DEPTH - 1);
    const crowd = [a('root'), ...Array.from({ length: MAX_TREE_ACCOUNTS + 5 }, (_, i) => a(`c${i}`, 'root'))];
    const wide = referralForest(crowd, 'users');
    expect(wide.truncated).toBe(true);
    expect(wide.total).toBe(MAX_TREE_ACCOUNTS);
    // JSON can hold the deepest answer.
    expect(() => JSON.stringify(deep)).not.toThrow();
  });
});
