/**
 * Every change on record (issue 8 §5): each write through any route appends an audit entry in its own
 * transaction (who, when, what, the changed fields before and after); refused or rolled-back writes leave
 * none; secrets never reach it; `GET /audit-log` is the admin's, filterable and newest first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../resources/index.ts';
import { changesOf } from '../../src/server/records/audit.ts';
import { RecordsService } from '../../src/server/records/service.ts';
import { newId } from '../../src/server/db/id.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { makePng } from '../support/png.ts';

const unique = (prefix: string) => `${prefix} ${newId().slice(-10)}`;

interface Entry {
  id: string;
  at: string;
  user: string;
  userId: string;
  role: string;
  resource: string;
  recordId: string;
  action: string;
  changes: string;
}

describe.each(engines)('audit log (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let adminId: string;
  beforeAll(async () => {
    server = await startTestServer({ engine, catalogue: true });
    admin = await server.login('admin');
    adminId = (await server.api('GET', '/getcurrentuser', { cookie: admin })).body.id;
  });
  afterAll(() => server?.close());

  const historyOf = async (resource: string, recordId: string): Promise<Entry[]> => {
    const res = await server.api('GET', '/audit-log', { cookie: admin, query: { filter: { resource, recordId }, range: [0, 99] } });
    expect(res.status).toBe(200);
    return res.body;
  };
  const changes = (e: Entry) => JSON.parse(e.changes) as Record<string, { before: unknown; after: unknown }>;

  it('records create, update and delete of a category: who, what, before and after, newest first', async () => {
    const name = unique('Audited');
    const made = await server.api('POST', '/categories', { cookie: admin, body: { name } });
    expect(made.status).toBe(201);
    const renamed = unique('Renamed');
    expect((await server.api('PATCH', `/categories/${made.body.id}`, { cookie: admin, body: { name: renamed, order: '4' } })).status).toBe(200);
    expect((await server.api('DELETE', `/categories/${made.body.id}`, { cookie: admin })).status).toBe(200);

    const entries = await historyOf('categories', made.body.id);
    expect(entries.map((e) => e.action)).toEqual(['delete', 'update', 'create']);
    for (const e of entries) expect(e).toMatchObject({ user: 'admin@demo.test', userId: adminId, role: 'admin', resource: 'categories' });
    const [deleted, updated, created] = entries;
    expect(changes(created).name).toEqual({ before: null, after: name });
    // Only what changed (the slug is derived from the name once and stays); a category is created without an order.
    expect(changes(updated)).toEqual({ name: { before: name, after: renamed }, order: { before: null, after: '4' } });
    expect(changes(deleted).name).toEqual({ before: renamed, after: null });
    expect(Date.parse(created.at)).toBeLessThanOrEqual(Date.parse(deleted.at));
  });

  it('a page of the log read before a write shows its entry after it: rows, total and a search\'s total', async () => {
    // Read first, as an admin keeping the log open: the server may keep these answers and totals.
    const page = () => server.api('GET', '/audit-log', { cookie: admin, query: { range: [0, 4] } });
    const searched = () => server.api('GET', '/audit-log', { cookie: admin, query: { filter: { q: 'admin@demo' }, range: [0, 4] } });
    const total = (res: { headers: Headers }) => Number(res.headers.get('content-range')!.split('/')[1]);
    const [before, searchedBefore] = [await page(), await searched()];
    const made = await server.api('POST', '/categories', { cookie: admin, body: { name: unique('Seen in the log') } });
    expect(made.status).toBe(201);
    const [after, searchedAfter] = [await page(), await searched()];
    expect(after.body[0]).toMatchObject({ action: 'create', recordId: made.body.id });
    expect(total(after)).toBe(total(before) + 1);
    expect(searchedAfter.body[0]).toMatchObject({ action: 'create', recordId: made.body.id });
    expect(total(searchedAfter)).toBe(total(searchedBefore) + 1);
  });

  it('records recycle and restore, reorder, and the home-section switch', async () => {
    const topName = unique('Top');
    const top = await server.api('POST', '/top-categories', {
      cookie: admin,
      body: { name: topName, image: '/logo.jpg', href: '/c/top', status: 'PUBLISHED', order: 1 },
    });
    expect((await server.api('DELETE', `/top-categories/${top.body.id}/recycle`, { cookie: admin })).status).toBe(200);
    const bin = await server.api('GET', '/recycle-bin', { cookie: admin, query: { filter: { q: topName } } });
    expect((await server.api('POST', `/recycle-bin/${bin.body[0].id}/restore`, { cookie: admin })).status).toBe(200);
    expect((await historyOf('topCategories', top.body.id)).map((e) => e.action)).toEqual(['restore', 'recycle', 'create']);

    const section = await server.api('POST', '/api/home-sections', {
      cookie: admin,
      body: { name: unique('Section'), type: 'products', order: 3, isActive: true },
    });
    await server.api('PATCH', '/api/home-sections/reorder', { cookie: admin, body: { sections: [{ id: section.body.id, order: 7 }] } });
    await server.api('PUT', `/api/home-sections/${section.body.id}`, {
      cookie: admin,
      body: { name: section.body.name, type: 'products', order: 7, isActive: false },
    });
    const history = await historyOf('homeSections', section.body.id);
    expect(history.map((e) => e.action)).toEqual(['update', 'reorder', 'create']);
    expect(changes(history[0])).toEqual({ isActive: { before: 1, after: 0 } });
    expect(changes(history[1])).toEqual({ order: { before: 3, after: 7 } });
  });

  it('leaves no entry for a refused write: invalid body, a delete blocked by children, a stale version, a forbidden role', async () => {
    const parent = await server.api('POST', '/categories', { cookie: admin, body: { name: unique('Blocked parent') } });
    await server.api('POST', '/categories/child', { cookie: admin, body: { name: unique('Kid'), image: '/logo.jpg', category: parent.body.id } });
    const before = await historyOf('categories', parent.body.id);

    expect((await server.api('PATCH', `/categories/${parent.body.id}`, { cookie: admin, body: { name: 'general', order: '1' } })).status).toBe(400);
    expect((await server.api('DELETE', `/categories/${parent.body.id}`, { cookie: admin })).status).toBe(409);
    const stale = await server.api('PATCH', `/categories/${parent.body.id}`, {
      cookie: admin,
      body: { name: unique('Stale'), order: '1' },
      headers: { 'if-match': '"7"' },
    });
    expect(stale.status).toBe(412);
    const seller = await server.login('seller');
    expect((await server.api('PATCH', `/categories/${parent.body.id}`, { cookie: seller, body: { name: unique('Seller'), order: '1' } })).status).toBe(403);

    expect(await historyOf('categories', parent.body.id)).toEqual(before);
  });

  it('records hand-written writes too: an upload, a file delete, a new default currency', async () => {
    const form = new FormData();
    form.append('endpoint', 'banners');
    form.append('files', new Blob([new Uint8Array(makePng(4, 4))], { type: 'image/png' }), 'audit.png');
    const uploaded = await fetch(`${server.url}/api/s3/upload`, { method: 'POST', headers: { cookie: admin }, body: form });
    expect(uploaded.status).toBe(200);
    const row = await server.db.selectFrom('media').selectAll().where('name', '=', 'audit.png').executeTakeFirstOrThrow();
    const removed = await server.api('DELETE', '/api/local-upload/delete', { cookie: admin, query: { file: String(row.path) } });
    expect(removed.status).toBe(200);
    const history = await historyOf('media', String(row.id));
    expect(history.map((e) => e.action)).toEqual(['deleteFile', 'upload']);
    expect(changes(history[1]).name).toEqual({ before: null, after: 'audit.png' });

    const currencies = await server.api('GET', '/currencies', { cookie: admin });
    const before = (await server.api('GET', '/currencies/settings', { cookie: admin })).body.id;
    const next = (currencies.body as { id: string; status: number }[]).find((c) => c.id !== before && c.status === 1)!;
    expect((await server.api('PUT', '/currencies/settings', { cookie: admin, body: { id: next.id } })).status).toBe(200);
    const [made] = await historyOf('currencies', next.id);
    expect(made.action).toBe('setDefault');
    expect(Object.values(changes(made))).toEqual([{ before, after: next.id }]);
  });

  it('is the admin’s alone, and filters by user and action', async () => {
    const seller = await server.login('seller');
    expect((await server.api('GET', '/audit-log', { cookie: seller })).status).toBe(403);
    expect((await server.api('GET', '/audit-log')).status).toBe(401);
    const mine = await server.api('GET', '/audit-log', { cookie: admin, query: { filter: { userId: adminId, action: 'create' } } });
    expect(mine.status).toBe(200);
    expect(mine.body.length).toBeGreaterThan(0);
    for (const e of mine.body as Entry[]) expect(e).toMatchObject({ userId: adminId, action: 'create' });
    // Newest first.
    const ats = (mine.body as Entry[]).map((e) => e.at);
    expect([...ats].sort().reverse()).toEqual(ats);
  });

  // A transaction's entries are written together at its end (audit.ts `withDeferredAudit`), a bounded
  // statement at a time: more rows than one statement may bind are all kept, and one that fails keeps none.
  it('keeps every entry of a transaction that writes hundreds of records, and none of one rolled back', async () => {
    const records = new RecordsService({ db: server.db, registry });
    const names = Array.from({ length: 250 }, (_, i) => unique(`Bulk ${i}`));
    const made = await records.transaction(async (inner) => {
      const ids: string[] = [];
      for (const name of names) ids.push((await inner.create('categories', { name })).id as string);
      return ids;
    });
    const kept = await server.db.selectFrom('auditLog').select('recordId').where('resource', '=', 'categories').where('recordId', 'in', made).where('action', '=', 'create').execute();
    expect(kept).toHaveLength(250);
    const lost = unique('Rolled back');
    await expect(
      records.transaction(async (inner) => {
        await inner.create('categories', { name: lost });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await server.db.selectFrom('categories').select('id').where('name', '=', lost).execute()).toEqual([]);
    expect(await server.db.selectFrom('auditLog').select('id').where('changes', 'like', `%${lost}%`).execute()).toEqual([]);
  });

  it('never records a secret: a password is left out of the changes', () => {
    const users = registry.resource('users');
    const out = changesOf(users, { name: 'A', passwordHash: 'scrypt$old', password: 'x' }, { name: 'B', passwordHash: 'scrypt$new', password: 'y' });
    expect(out).toEqual({ name: { before: 'A', after: 'B' } });
    expect(JSON.stringify(out)).not.toMatch(/scrypt|password/);
  });
});
