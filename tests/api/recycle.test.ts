/**
 * The recycle bin through the real HTTP API: `/recycle` deletes move a record into it, an admin
 * restores it under its own id or purges it. On every engine this machine has.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { registry } from '../../resources/index.ts';
import { newId } from '../../src/server/db/id.ts';
import { removeRecord } from '../../src/server/records/writes.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

const unique = (prefix: string) => `${prefix} ${newId().slice(-10)}`;
const ids = (rows: { id: string }[]) => rows.map((x) => x.id);

describe.each(engines)('recycle bin API (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let adminId: string;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    adminId = (await server.api('GET', '/getcurrentuser', { cookie: admin })).body.id;
  });
  afterAll(() => server?.close());

  const get = (path: string, query?: Record<string, unknown>) => server.api('GET', path, { cookie: admin, query });
  const topCategory = async (name: string) => {
    const res = await server.api('POST', '/top-categories', {
      cookie: admin,
      body: { name, image: '/logo.jpg', href: '/c/x', status: 'PUBLISHED', order: 2 },
    });
    expect(res.status).toBe(201);
    return res.body as { id: string; slug: string; name: string };
  };
  const binEntryOf = async (recordId: string) =>
    (await get('/recycle-bin', { filter: { resource: 'topCategories' }, range: [0, 99] })).body.find(
      (x: { recordId: string }) => x.recordId === recordId,
    );

  it('moves a recycled top category into the bin and restores it with the same id and slug', async () => {
    const name = unique('Recycled');
    const made = await topCategory(name);
    const listed = await get('/top-categories', { filter: { q: name } });
    expect(ids(listed.body)).toEqual([made.id]);

    const removed = await server.api('DELETE', `/top-categories/${made.id}/recycle`, { cookie: admin });
    expect(removed.status).toBe(200);
    expect((await get('/top-categories', { filter: { q: name } })).body).toEqual([]);
    expect((await get(`/top-categories/${made.slug}`)).status).toBe(404);

    const bin = await get('/recycle-bin', { filter: { q: name } });
    expect(bin.status).toBe(200);
    expect(bin.body).toHaveLength(1);
    const entry = bin.body[0];
    expect(entry).toMatchObject({ title: name, resource: 'topCategories', recordId: made.id, deletedBy: adminId });
    expect(JSON.parse(entry.data)).toMatchObject({ id: made.id, name, slug: made.slug, order: 2, status: 'PUBLISHED' });

    const restored = await server.api('POST', `/recycle-bin/${entry.id}/restore`, { cookie: admin });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: made.id, slug: made.slug, name, order: 2 });
    expect(ids((await get('/top-categories', { filter: { q: name } })).body)).toEqual([made.id]);
    expect((await get(`/top-categories/${made.slug}`)).body.id).toBe(made.id);
    expect((await get('/recycle-bin', { filter: { q: name } })).body).toEqual([]);
    // Restored once: the entry is gone.
    expect((await server.api('POST', `/recycle-bin/${entry.id}/restore`, { cookie: admin })).status).toBe(404);
  });

  it('purges a recycled record for good, running its resource’s afterRemove hook only then', async () => {
    const removed: unknown[] = [];
    // The manifest's hooks, for this test: the records service reads them from the resource at each write.
    const topCategories = registry.resource('topCategories');
    topCategories.hooks = { afterRemove: ({ record }) => void removed.push(record) };
    onTestFinished(() => {
      delete topCategories.hooks;
    });
    const name = unique('Purged');
    const made = await topCategory(name);
    await server.api('DELETE', `/top-categories/${made.id}/recycle`, { cookie: admin });
    expect(removed).toEqual([]);
    const entry = await binEntryOf(made.id);
    expect(entry).toBeDefined();
    const purged = await server.api('DELETE', `/recycle-bin/${entry.id}`, { cookie: admin });
    expect(purged.status).toBe(200);
    expect(removed).toEqual([expect.objectContaining({ id: made.id, slug: made.slug })]);
    expect(await binEntryOf(made.id)).toBeUndefined();
    expect((await server.api('POST', `/recycle-bin/${entry.id}/restore`, { cookie: admin })).status).toBe(404);
    expect((await get('/top-categories', { filter: { q: name } })).body).toEqual([]);
    const rows = await server.db.selectFrom('topCategories').select('id').where('id', '=', made.id).execute();
    expect(rows).toEqual([]);
  });

  it('refuses to restore (409) when the id or a unique value is taken now, and keeps the entry', async () => {
    const name = unique('Conflict');
    const made = await topCategory(name);
    await server.api('DELETE', `/top-categories/${made.id}/recycle`, { cookie: admin });
    const entry = await binEntryOf(made.id);
    const now = new Date().toISOString();
    const base = { name: 'Squatter', image: '/logo.jpg', href: '/s', status: 'DRAFT', order: 0, createdAt: now, updatedAt: now };

    // Another record now holds its slug.
    const squatter = { ...base, id: newId(), slug: made.slug };
    await server.db.insertInto('topCategories').values(squatter).execute();
    const slugTaken = await server.api('POST', `/recycle-bin/${entry.id}/restore`, { cookie: admin });
    expect(slugTaken.status).toBe(409);
    expect(slugTaken.body.message).toBe('A top category with this slug already exists.');
    expect(await binEntryOf(made.id)).toMatchObject({ id: entry.id });
    await server.db.deleteFrom('topCategories').where('id', '=', squatter.id).execute();

    // A record with its id is there again.
    await server.db.insertInto('topCategories').values({ ...base, id: made.id, slug: `squat-${made.id}` }).execute();
    const idTaken = await server.api('POST', `/recycle-bin/${entry.id}/restore`, { cookie: admin });
    expect(idTaken.status).toBe(409);
    expect(await binEntryOf(made.id)).toMatchObject({ id: entry.id });
    const stillSquatter = await server.db.selectFrom('topCategories').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(stillSquatter.name).toBe('Squatter');
    await server.db.deleteFrom('topCategories').where('id', '=', made.id).execute();

    // Free again: it restores.
    expect((await server.api('POST', `/recycle-bin/${entry.id}/restore`, { cookie: admin })).status).toBe(200);
    expect((await get(`/top-categories/${made.slug}`)).body.name).toBe(name);
  });

  it('keeps the children rule: a recycle delete of a record with children is a 409 and moves nothing', async () => {
    const category = await server.api('POST', '/categories', { cookie: admin, body: { name: unique('Parent') } });
    await server.api('POST', '/categories/child', { cookie: admin, body: { name: 'Kid', image: '/logo.jpg', category: category.body.id } });
    const categories = registry.resource('categories');
    await expect(removeRecord(server.db, registry, categories, category.body.id, { recycle: true, actor: { id: adminId, email: 'admin@demo.test', role: 'admin' } })).rejects.toMatchObject({
      status: 409,
    });
    const inBin = await server.db.selectFrom('recycleBin').select('id').where('recordId', '=', category.body.id).execute();
    expect(inBin).toEqual([]);
    expect((await get(`/categories/${category.body.id}`)).status).toBe(200);
  });

  it('refuses to restore a record whose parent is gone', async () => {
    const category = await server.api('POST', '/categories', { cookie: admin, body: { name: unique('Gone parent') } });
    const child = await server.api('POST', '/categories/child', {
      cookie: admin,
      body: { name: unique('Orphan'), image: '/logo.jpg', category: category.body.id },
    });
    await removeRecord(server.db, registry, registry.resource('childCategories'), child.body.id, { recycle: true, actor: { id: adminId, email: 'admin@demo.test', role: 'admin' } });
    expect((await server.api('DELETE', `/categories/${category.body.id}`, { cookie: admin })).status).toBe(200);
    const entry = (await get('/recycle-bin', { filter: { resource: 'childCategories' } })).body.find(
      (x: { recordId: string }) => x.recordId === child.body.id,
    );
    const res = await server.api('POST', `/recycle-bin/${entry.id}/restore`, { cookie: admin });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/parent category no longer exists/);
  });

  it('is the admin’s alone', async () => {
    const seller = await server.login('seller');
    const made = await topCategory(unique('Guarded'));
    expect((await server.api('DELETE', `/top-categories/${made.id}/recycle`, { cookie: seller })).status).toBe(403);
    expect((await server.api('DELETE', `/top-categories/${made.id}/recycle`)).status).toBe(401);
    expect((await get(`/top-categories/${made.slug}`)).status).toBe(200);
    await server.api('DELETE', `/top-categories/${made.id}/recycle`, { cookie: admin });
    const entry = await binEntryOf(made.id);
    expect((await server.api('GET', '/recycle-bin', { cookie: seller })).status).toBe(403);
    expect((await server.api('GET', '/recycle-bin')).status).toBe(401);
    expect((await server.api('POST', `/recycle-bin/${entry.id}/restore`, { cookie: seller })).status).toBe(403);
    expect((await server.api('POST', `/recycle-bin/${entry.id}/restore`)).status).toBe(401);
    expect((await server.api('DELETE', `/recycle-bin/${entry.id}`, { cookie: seller })).status).toBe(403);
    expect(await binEntryOf(made.id)).toMatchObject({ id: entry.id });
  });
});
