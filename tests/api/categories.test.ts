/** The category tree through the real HTTP API, on every engine this machine has. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

describe.each(engines)('category tree API (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
  });
  afterAll(() => server?.close());

  const create = (path: string, body: unknown) => server.api('POST', path, { cookie: admin, body });

  it('creates, reads, updates and deletes every level', async () => {
    const category = await create('/categories', { name: 'Electronics' });
    expect(category.status).toBe(201);
    expect(category.body).toMatchObject({ name: 'Electronics', order: null });
    expect(category.body.id).toMatch(/^[0-9a-f]{24}$/);
    expect(category.body.slug).toMatch(/^electronics-[0-9a-z]+$/);

    const child = await create('/categories/child', { name: 'Phones', image: '/logo.jpg', category: category.body.id });
    expect(child.status).toBe(201);
    expect(child.body.category).toBe(category.body.id);
    const sub = await create('/categories/sub', { name: 'Android', image: '/logo.jpg', category: child.body.id });
    expect(sub.status).toBe(201);
    const subChild = await create('/categories/sub-child', { name: 'Pixel', category: sub.body.id });
    expect(subChild.status).toBe(201);

    const updated = await server.api('PATCH', `/categories/${category.body.id}`, {
      cookie: admin,
      body: { name: 'Consumer Electronics', order: '3' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Consumer Electronics', order: '3', slug: category.body.slug });
    const one = await server.api('GET', `/categories/${category.body.id}`, { cookie: admin });
    expect(one.body.name).toBe('Consumer Electronics');
    const bySlug = await server.api('GET', `/categories/${category.body.slug}/slug`, { cookie: admin });
    expect(bySlug.body.id).toBe(category.body.id);

    const childUpdate = await server.api('PATCH', `/categories/child/${child.body.id}`, {
      cookie: admin,
      body: { name: 'Mobile Phones', image: '/logo.jpg', slug: 'Mobile Phones!', category: category.body.id },
    });
    expect(childUpdate.body.slug).toBe('mobile-phones');
    const subChildUpdate = await server.api('PATCH', `/categories/sub-child/${subChild.body.id}`, {
      cookie: admin,
      body: { name: 'Pixel 9', slug: '' },
    });
    expect(subChildUpdate.body.slug).toMatch(/^pixel-9-[0-9a-z]+$/);

    const subList = await server.api('GET', '/categories/sub', { cookie: admin, query: { filter: { id: [sub.body.id] } } });
    expect(subList.body[0].childcategory).toMatchObject({ id: child.body.id, name: 'Mobile Phones' });
    expect(subList.body[0].childcategory.category).toMatchObject({ id: category.body.id, name: 'Consumer Electronics' });

    const forProduct = await server.api('GET', '/categories/create-product', { cookie: admin, query: { slug: category.body.slug } });
    expect(forProduct.body.map((c: { id: string }) => c.id)).toEqual([child.body.id]);
    const subs = await server.api('GET', `/categories/create-product/${child.body.id}/sub`, { cookie: admin });
    expect(subs.body.map((c: { id: string }) => c.id)).toEqual([sub.body.id]);
    const subChildren = await server.api('GET', `/categories/create-product/${sub.body.id}/subchild`, { cookie: admin });
    expect(subChildren.body.map((c: { id: string }) => c.id)).toEqual([subChild.body.id]);

    // Leaves first: each delete succeeds once nothing points at the record any more.
    for (const [path, id] of [
      ['/categories/sub-child', subChild.body.id],
      ['/categories/sub', sub.body.id],
      ['/categories/child', child.body.id],
      ['/categories', category.body.id],
    ]) {
      const res = await server.api('DELETE', `${path}/${id}`, { cookie: admin });
      expect(res.status, path).toBe(200);
    }
    expect((await server.api('GET', `/categories/${category.body.id}`, { cookie: admin })).status).toBe(404);
  });

  it('refuses to delete a parent that still has children, and deletes nothing', async () => {
    const parent = await create('/categories', { name: 'Books' });
    await create('/categories/child', { name: 'Novels', image: '/logo.jpg', category: parent.body.id });
    const res = await server.api('DELETE', `/categories/${parent.body.id}`, { cookie: admin });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("Category 'Books' still has 1 child category. Delete or move them first.");
    expect((await server.api('GET', `/categories/${parent.body.id}`, { cookie: admin })).status).toBe(200);
  });

  it('answers 400 with the specification messages, per field', async () => {
    const cases: [string, unknown, Record<string, string[]>][] = [
      ['/categories', {}, { name: ['Category name is required!'] }],
      ['/categories', { name: '' }, { name: ['Category name is required!'] }],
      ['/categories', { name: 'general' }, { name: ["Category cannot be 'general'"] }],
      ['/categories', { name: ' General ' }, { name: ["Category cannot be 'general'"] }],
      ['/categories/child', { name: '', image: 'ab', category: 'x' }, {
        name: ['Child Category name is required!'],
        image: ['Image is required!'],
        category: ['Parent category is required!'],
      }],
      ['/categories/sub', { name: 'GENERAL', image: '/a.png', category: 'abcd' }, { name: ["Category cannot be 'general'"] }],
      // Valid input whose parent is not there: checked in the write's transaction.
      ['/categories/sub', { name: 'Tablets', image: '/a.png', category: 'ffffffffffffffffffffffff' }, { category: ['Parent category does not exist.'] }],
      ['/categories/sub-child', { category: '' }, { name: ['Sub Child Category name is required!'], category: ['Parent category is required!'] }],
    ];
    for (const [path, body, errors] of cases) {
      const res = await create(path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body).toEqual({ message: 'Validation failed.', errors });
    }
    const created = await create('/categories', { name: 'Garden' });
    const badOrder = await server.api('PATCH', `/categories/${created.body.id}`, { cookie: admin, body: { name: 'Garden', order: '' } });
    expect(badOrder.body.errors).toEqual({ order: ['Order must be 1 letter.'] });
  });

  it('refuses unknown fields instead of storing them', async () => {
    const res = await create('/categories', { name: 'Music', id: 'ffffffffffffffffffffffff', slug: 'mine' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ id: ["Field 'id' is not allowed."], slug: ["Field 'slug' is not allowed."] });
  });

  it('checks the session and the role', async () => {
    expect((await server.api('GET', '/categories')).status).toBe(401);
    expect((await server.api('POST', '/categories', { body: { name: 'X' } })).status).toBe(401);
    const seller = await server.login('seller');
    expect((await server.api('GET', '/categories', { cookie: seller })).status).toBe(200);
    const denied = await server.api('POST', '/categories', { cookie: seller, body: { name: 'Seller made' } });
    expect(denied.status).toBe(403);
    const list = await server.api('GET', '/categories', { cookie: admin, query: { filter: { q: 'Seller made' } } });
    expect(list.body).toEqual([]);
    const existing = await create('/categories', { name: 'Protected' });
    expect((await server.api('DELETE', `/categories/${existing.body.id}`, { cookie: seller })).status).toBe(403);
    expect((await server.api('PATCH', `/categories/${existing.body.id}`, { cookie: seller, body: { name: 'Y', order: '1' } })).status).toBe(403);
  });

  it('lists in the simple-rest dialect: sort, range, filter and Content-Range', async () => {
    const parent = await create('/categories', { name: 'Paging parent' });
    const names = Array.from({ length: 30 }, (_, i) => `Page item ${String(i).padStart(2, '0')}`);
    for (const name of names) await create('/categories/child', { name, image: '/logo.jpg', category: parent.body.id });
    const page = await server.api('GET', '/categories/child', {
      cookie: admin,
      query: { sort: ['name', 'DESC'], range: [5, 9], filter: { category: parent.body.id } },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-range')).toBe('childCategories 5-9/30');
    expect(page.body.map((c: { name: string }) => c.name)).toEqual(names.slice().reverse().slice(5, 10));
    const search = await server.api('GET', '/categories/child', { cookie: admin, query: { filter: { q: 'ITEM 1' } } });
    expect(search.headers.get('content-range')).toMatch(/\/10$/);
    const huge = await server.api('GET', '/categories/child', { cookie: admin, query: { range: [0, 999] } });
    expect(huge.body.length).toBeLessThanOrEqual(100);
    expect((await server.api('GET', '/categories', { cookie: admin, query: { sort: ['createdAt; drop', 'ASC'] } })).status).toBe(400);
    expect((await server.api('GET', '/categories', { cookie: admin, query: { filter: { secret: 1 } } })).status).toBe(400);
    expect((await server.api('GET', '/categories', { cookie: admin, query: { range: 'nope' } })).status).toBe(400);
  });
});
