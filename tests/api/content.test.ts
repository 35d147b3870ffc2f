/**
 * Site content and places through the real HTTP API (resources/content.ts, resources/places.ts), on
 * every engine this machine has. The seeds may have put demo content in the tables: every test makes
 * its own rows and asserts on those.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { registry } from '../../resources/index.ts';
import * as content from '../../resources/content.ts';
import * as places from '../../resources/places.ts';
import Fastify from 'fastify';
import { z } from 'zod';
import {
  createRegistry,
  defineResource,
  field,
  fillPath,
  operation,
  parseCall,
  urlOf,
  type HandlerName,
  type ResourceDef,
} from '../../src/manifest/index.ts';
import type { Db } from '../../src/server/db/types.ts';
import { ReadCache } from '../../src/server/db/read-cache.ts';
import { HttpError } from '../../src/server/errors.ts';
import { registerManifestRoutes } from '../../src/server/routes/index.ts';
import { newId } from '../../src/server/db/id.ts';
import { removeRecord } from '../../src/server/records/writes.ts';
import type { Handlers } from '../../src/server/routes/handlers.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

const manifests = [...Object.values(content), ...Object.values(places)].filter(
  (x): x is ResourceDef => typeof x === 'object' && x !== null && 'fields' in x && 'name' in x,
);
const NO_ID = 'ffffffffffffffffffffffff';
const stamp = () => {
  const now = new Date().toISOString();
  return { createdAt: now, updatedAt: now };
};
/** A name no seed uses, so a search finds exactly what a test made. */
const unique = (prefix: string) => `${prefix} ${newId().slice(-10)}`;
const ids = (rows: { id: string }[]) => rows.map((x) => x.id);

describe.each(engines)('content and places API (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let seller: string;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    seller = await server.login('seller');
  });
  afterAll(() => server?.close());

  /** A request to a full URL (`/api/home-sections`), as JSON. */
  const call = async (method: string, url: string, options: { cookie?: string; body?: unknown; query?: Record<string, unknown> } = {}) => {
    const qs = options.query
      ? '?' + new URLSearchParams(Object.entries(options.query).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))
      : '';
    const res = await fetch(`${server.url}${url}${qs}`, {
      method,
      headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
  const as = (cookie: string) => ({
    get: (path: string, query?: Record<string, unknown>) => server.api('GET', path, { cookie, query }),
    post: (path: string, body: unknown) => server.api('POST', path, { cookie, body }),
    patch: (path: string, body: unknown) => server.api('PATCH', path, { cookie, body }),
    put: (path: string, body: unknown) => server.api('PUT', path, { cookie, body }),
    del: (path: string) => server.api('DELETE', path, { cookie }),
  });
  const a = () => as(admin);
  /** Expects a 400 whose errors are exactly `errors`. */
  const invalid = async (res: Promise<{ status: number; body: any }>, errors: Record<string, string[]>) => {
    const { status, body } = await res;
    expect(status, JSON.stringify(body)).toBe(400);
    expect(body).toEqual({ message: 'Validation failed.', errors });
  };

  it('guards every write with the manifest’s access: 401 without a session, 403 for a seller, nothing written', async () => {
    const writes: { method: string; url: string }[] = [];
    for (const r of manifests) {
      for (const d of Object.values(r.dialogs))
        if ('call' in d) {
          const { method, path } = parseCall(d.call);
          writes.push({ method, url: urlOf(fillPath(path, { id: NO_ID })) });
        }
      if (r.defaultRecord) writes.push({ method: parseCall(r.defaultRecord.write).method, url: urlOf(parseCall(r.defaultRecord.write).path) });
      if (r.list?.reorder) writes.push({ method: parseCall(r.list.reorder.call).method, url: urlOf(parseCall(r.list.reorder.call).path) });
    }
    expect(writes.length).toBeGreaterThan(25);
    for (const { method, url } of writes) {
      const body = method === 'DELETE' ? undefined : { name: 'Seller made' };
      expect((await call(method, url, { body })).status, `${method} ${url}`).toBe(401);
      expect((await call(method, url, { cookie: seller, body })).status, `${method} ${url}`).toBe(403);
    }
    const sellerMade = await a().get('/qr-codes', { filter: { q: 'Seller made' } });
    expect(sellerMade.body).toEqual([]);
    // Reads: signed-in roles may read content, admin menus are the admin's alone.
    expect((await as(seller).get('/banners')).status).toBe(200);
    expect((await as(seller).get('/admin-menus/')).status).toBe(403);
    expect((await call('GET', '/api/admin/v1/banners')).status).toBe(401);
    expect((await call('GET', '/api/home-sections')).status).toBe(401);
  });

  it('QR codes: create, update, list, delete, with the spec messages', async () => {
    await invalid(a().post('/qr-codes', {}), { title: ['QrCode name is required!'], qrcode: ['qrcode is required!'] });
    await invalid(a().post('/qr-codes', { title: ' ', qrcode: 'x' }), { title: ['QrCode name is required!'], qrcode: ['qrcode is required!'] });
    const title = unique('Shop door');
    const created = await a().post('/qr-codes', { title, qrcode: '/images/qr/door.png' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title, qrcode: '/images/qr/door.png' });
    const updated = await a().patch(`/qr-codes/${created.body.id}`, { title: `${title} 2`, qrcode: '/images/qr/door2.png' });
    expect(updated.body).toMatchObject({ id: created.body.id, title: `${title} 2`, qrcode: '/images/qr/door2.png' });
    await invalid(a().patch(`/qr-codes/${created.body.id}`, { title: '', qrcode: '/q.png' }), { title: ['QrCode name is required!'] });
    const listed = await a().get('/qr-codes', { filter: { q: title } });
    expect(listed.body).toEqual([expect.objectContaining({ id: created.body.id, title: `${title} 2` })]);
    expect((await a().del(`/qr-codes/${created.body.id}`)).status).toBe(200);
    expect((await a().get('/qr-codes', { filter: { q: title } })).body).toEqual([]);
    expect((await a().del(`/qr-codes/${created.body.id}`)).status).toBe(404);
  });

  it('top categories: listed by order, highest first; read by slug; spec messages', async () => {
    await invalid(a().post('/top-categories', {}), {
      name: ['Top category name is required!'],
      image: ['Image is required!'],
      href: ['href is required!'],
      status: ['Status must be PUBLISHED or DRAFT.'],
      order: ['Order must be a number.'],
    });
    await invalid(a().post('/top-categories', { name: 'Shoes', image: '/a', href: 'abc', status: 'LIVE', order: '1' }), {
      image: ['Image is required!'],
      href: ['href is required!'],
      status: ['Status must be PUBLISHED or DRAFT.'],
      order: ['Order must be a number.'],
    });
    const tag = unique('Topcat');
    const made = [];
    for (const order of [5, 9, 1]) {
      const res = await a().post('/top-categories', { name: `${tag} ${order}`, image: '/logo.jpg', href: `/c/${order}`, status: 'PUBLISHED', order });
      expect(res.status).toBe(201);
      made.push(res.body);
    }
    const listed = await a().get('/top-categories', { filter: { q: tag } });
    expect(listed.body.map((x: { order: number }) => x.order)).toEqual([9, 5, 1]);
    const bySlug = await a().get(`/top-categories/${made[0].slug}`);
    expect(bySlug.status).toBe(200);
    expect(bySlug.body).toMatchObject({ id: made[0].id, name: `${tag} 5` });
    expect((await a().get('/top-categories/no-such-slug')).body).toEqual({ message: 'Top category not found.' });
    const updated = await a().patch(`/top-categories/${made[2].id}`, { name: `${tag} 1`, image: '/logo.jpg', href: '/c/1', status: 'DRAFT', order: 20 });
    expect(updated.body).toMatchObject({ status: 'DRAFT', order: 20, slug: made[2].slug });
    const relisted = await a().get('/top-categories', { filter: { q: tag, status: 'DRAFT' } });
    expect(ids(relisted.body)).toEqual([made[2].id]);
  });

  it('banners: listed by position; an empty link is the host root; an update may keep the image', async () => {
    await invalid(a().post('/banners', { href: 'javascript:alert(1)', url: 'not a url' }), {
      href: ['Inavlid URL.'],
      url: ['Inavlid Image URL.'],
      position: ['Position is required!'],
    });
    await invalid(a().post('/banners', { url: 'javascript:alert(1)', position: 1 }), { url: ['Inavlid Image URL.'] });
    const tag = unique('Banner');
    const root = `${server.url}/`;
    const third = await a().post('/banners', { name: `${tag} c`, href: '', url: 'https://cdn.example.com/c.png', position: 3 });
    expect(third.status).toBe(201);
    expect(third.body.href).toBe(root);
    const first = await a().post('/banners', { name: `${tag} a`, url: 'https://cdn.example.com/a.png', position: 1 });
    expect(first.body.href).toBe(root);
    const second = await a().post('/banners', { name: `${tag} b`, href: 'https://shop.example.com/sale', url: 'https://cdn.example.com/b.png', position: 2 });
    expect(second.body.href).toBe('https://shop.example.com/sale');
    const listed = await a().get('/banners', { filter: { q: tag } });
    expect(ids(listed.body)).toEqual([first.body.id, second.body.id, third.body.id]);

    // The image URL is required on create only: sent empty on update, the stored one stays.
    await invalid(a().post('/banners', { name: 'x', url: '', position: 0 }), { url: ['Inavlid Image URL.'] });
    const kept = await a().patch(`/banners/${second.body.id}`, { name: `${tag} b2`, href: 'https://shop.example.com/new', url: '', position: 2 });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ name: `${tag} b2`, url: 'https://cdn.example.com/b.png', href: 'https://shop.example.com/new' });
    // A link sent empty on update becomes the host root; one not sent stays.
    const emptied = await a().patch(`/banners/${second.body.id}`, { href: '', position: 2 });
    expect(emptied.body).toMatchObject({ href: root, url: 'https://cdn.example.com/b.png', name: `${tag} b2` });
    const untouched = await a().patch(`/banners/${first.body.id}`, { position: 4 });
    expect(untouched.body).toMatchObject({ href: root, position: 4 });
    await invalid(a().patch(`/banners/${first.body.id}`, { url: 'ftp://x.example/a.png', position: 4 }), { url: ['Inavlid Image URL.'] });
    const stored = await server.db.selectFrom('banners').selectAll().where('id', '=', second.body.id).executeTakeFirstOrThrow();
    expect(stored.url).toBe('https://cdn.example.com/b.png');

    expect((await a().del(`/banners/${third.body.id}`)).status).toBe(200);
    expect(ids((await a().get('/banners', { filter: { q: tag } })).body)).toEqual([second.body.id, first.body.id]);
  });

  it('social links: spec messages, filtered by ?type=, updated', async () => {
    await invalid(a().post('/social-links', {}), {
      name: ['Name is required.'],
      link: ['Link / Number is required.'],
      type: ['Social Media Type is required.'],
    });
    await invalid(a().post('/social-links', { name: 'ab', link: 'x', type: 'myspace' }), {
      name: ['Name is required.'],
      link: ['Link / Number is required.'],
      type: ['Social Media Type is required.'],
    });
    const tag = unique('Social');
    const wa = await a().post('/social-links', { name: `${tag} wa`, link: '+8801700000000', type: 'whatsapp' });
    const yt = await a().post('/social-links', { name: `${tag} yt`, link: 'https://youtube.com/@shop', type: 'youtube' });
    expect(wa.status).toBe(201);
    expect(yt.status).toBe(201);
    const whatsapp = await call('GET', '/api/admin/v1/social-links', { cookie: admin, query: { type: 'whatsapp', filter: { q: tag } } });
    expect(ids(whatsapp.body)).toEqual([wa.body.id]);
    const slashed = await a().get('/social-links/', { type: 'youtube', filter: { q: tag } });
    expect(ids(slashed.body)).toEqual([yt.body.id]);
    const all = await a().get('/social-links/', { filter: { q: tag } });
    expect(ids(all.body).sort()).toEqual([wa.body.id, yt.body.id].sort());
    const updated = await a().patch(`/social-links/${wa.body.id}`, { name: `${tag} wa`, link: '+8801800000000', type: 'youtube' });
    expect(updated.body).toMatchObject({ link: '+8801800000000', type: 'youtube' });
    expect((await a().get('/social-links/', { type: 'whatsapp', filter: { q: tag } })).body).toEqual([]);
  });

  it('admin menus: spec messages, create, update, list', async () => {
    await invalid(a().post('/admin-menus/', { name: '', group: 'ab', href: 'ab' }), {
      name: ['Menu name is required!'],
      group: ['Group is required!'],
      href: ['href is required!'],
    });
    await invalid(a().post('/admin-menus/', { name: 'General', group: 'Shop', href: '/banners' }), { name: ["Menu name cannot be 'general'"] });
    const name = unique('Menu');
    const created = await a().post('/admin-menus/', { name, group: 'Shop', href: '/banners' });
    expect(created.status).toBe(201);
    const updated = await a().patch(`/admin-menus/${created.body.id}`, { name, group: 'Marketing', href: '/top-categories' });
    expect(updated.body).toMatchObject({ group: 'Marketing', href: '/top-categories' });
    const listed = await a().get('/admin-menus/', { filter: { q: name, group: 'Marketing' } });
    expect(ids(listed.body)).toEqual([created.body.id]);
    expect(ids((await a().get('/admin-menus', { filter: { q: name } })).body)).toEqual([created.body.id]);
  });

  it('blog categories and messages: spec messages, create, update, list', async () => {
    await invalid(a().post('/blogs/categories', { name: 'general', image: '/a.p', status: 'LIVE' }), {
      name: ["Blog category cannot be 'general'"],
      image: ['Image is required!'],
      status: ['Status must be ACTIVE or INACTIVE.'],
    });
    await invalid(a().post('/blogs/categories', {}), {
      name: ['Blog category name is required!'],
      image: ['Image is required!'],
      status: ['Status must be ACTIVE or INACTIVE.'],
    });
    const name = unique('Guides');
    const category = await a().post('/blogs/categories', { name, image: '/logo.jpg', status: 'ACTIVE' });
    expect(category.status).toBe(201);
    const updatedCategory = await a().patch(`/blogs/categories/${category.body.id}`, { name, image: '/logo.jpg', status: 'INACTIVE' });
    expect(updatedCategory.body.status).toBe('INACTIVE');
    expect(ids((await a().get('/blogs/categories', { filter: { q: name, status: 'INACTIVE' } })).body)).toEqual([category.body.id]);

    await invalid(a().post('/blogs/messages', {}), {
      name: ['Name is required!'],
      designation: ['Designation is required!'],
      image: ['Image is required!'],
      message: ['Message is required!'],
    });
    await invalid(a().post('/blogs/messages', { name: 'GENERAL', designation: 'CEO', image: '/logo.jpg', message: 'Hi!' }), {
      name: ["Name cannot be 'general'"],
    });
    const author = unique('Ayesha');
    const message = await a().post('/blogs/messages', { name: author, designation: 'Founder', image: '/logo.jpg', message: 'Welcome aboard.' });
    expect(message.status).toBe(201);
    const updatedMessage = await a().put(`/blogs/messages/${message.body.id}`, { name: author, designation: 'CEO', image: '/logo.jpg', message: 'Hello again.' });
    expect(updatedMessage.body).toMatchObject({ designation: 'CEO', message: 'Hello again.' });
    expect((await a().patch(`/blogs/messages/${message.body.id}`, {})).status).toBe(404);
    expect(ids((await a().get('/blogs/messages', { filter: { q: author } })).body)).toEqual([message.body.id]);
  });

  it('comments: listed by blog slug, updated, deleted', async () => {
    const blog = unique('post').replace(' ', '-');
    const rows = [
      { id: newId(), blog, name: 'Rafi', content: 'Great post', ...stamp() },
      { id: newId(), blog, name: 'Mina', content: 'Thanks!', ...stamp() },
      { id: newId(), blog: `${blog}-other`, name: 'Omar', content: 'Elsewhere', ...stamp() },
    ];
    await server.db.insertInto('comments').values(rows).execute();
    const byBlog = await a().get(`/comments/blogs/${blog}`);
    expect(byBlog.status).toBe(200);
    expect(ids(byBlog.body).sort()).toEqual([rows[0].id, rows[1].id].sort());
    expect(byBlog.headers.get('content-range')).toMatch(/\/2$/);
    await invalid(a().put(`/comments/${rows[0].id}`, { content: '' }), { content: ['Comment is required!'] });
    await invalid(a().put(`/comments/${rows[0].id}`, { content: 'x', name: 'Hacker' }), { name: ["Field 'name' is not allowed."] });
    const updated = await a().put(`/comments/${rows[0].id}`, { content: 'Great post, edited' });
    expect(updated.body).toMatchObject({ id: rows[0].id, content: 'Great post, edited', name: 'Rafi', blog });
    expect((await a().del(`/comments/${rows[1].id}`)).status).toBe(200);
    expect(ids((await a().get(`/comments/blogs/${blog}`)).body)).toEqual([rows[0].id]);
    expect(ids((await a().get('/comments', { filter: { blog: `${blog}-other` } })).body)).toEqual([rows[2].id]);
  });

  it('home sections: CRUD under /api, isActive as a boolean, toggled by PUT with the row', async () => {
    const invalidBody = await call('POST', '/api/home-sections', { cookie: admin, body: { type: 'products' } });
    expect(invalidBody.status).toBe(400);
    expect(invalidBody.body.errors).toMatchObject({ name: ['Section name is required!'], order: ['Order must be a number.'] });
    expect(invalidBody.body.errors.isActive).toHaveLength(1);
    const name = unique('Section');
    const created = await call('POST', '/api/home-sections', { cookie: admin, body: { name, type: 'products', order: 3, isActive: true } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name, type: 'products', order: 3, isActive: true });
    const stored = await server.db.selectFrom('homeSections').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(Number(stored.isActive)).toBe(1);

    const row = (await call('GET', `/api/home-sections/${created.body.id}`, { cookie: admin })).body;
    expect(row.isActive).toBe(true);
    const { name: n, type, order } = row;
    const off = await call('PUT', `/api/home-sections/${created.body.id}`, { cookie: admin, body: { name: n, type, order, isActive: false } });
    expect(off.status).toBe(200);
    expect(off.body.isActive).toBe(false);
    expect((await call('GET', `/api/home-sections/${created.body.id}`, { cookie: admin })).body.isActive).toBe(false);
    const offRow = await server.db.selectFrom('homeSections').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(Number(offRow.isActive)).toBe(0);
    // Filters on a boolean take true/false and 1/0; anything else is a 400.
    for (const value of [false, 'false', 0, '0']) {
      const listed = await call('GET', '/api/home-sections', { cookie: admin, query: { filter: { q: name, isActive: value } } });
      expect(listed.body, String(value)).toEqual([expect.objectContaining({ id: created.body.id, isActive: false })]);
    }
    for (const value of [true, 1]) {
      const listed = await call('GET', '/api/home-sections', { cookie: admin, query: { filter: { q: name, isActive: value } } });
      expect(listed.body).toEqual([]);
    }
    expect((await call('GET', '/api/home-sections', { cookie: admin, query: { filter: { isActive: 'maybe' } } })).status).toBe(400);
    const notBoolean = await call('PUT', `/api/home-sections/${created.body.id}`, { cookie: admin, body: { name: n, type, order, isActive: 'yes' } });
    expect(notBoolean.status).toBe(400);

    expect((await call('DELETE', `/api/home-sections/${created.body.id}`, { cookie: admin })).status).toBe(200);
    expect((await call('GET', `/api/home-sections/${created.body.id}`, { cookie: admin })).status).toBe(404);
  });

  it('home sections: reorder in one transaction, 400 with nothing changed for an unknown id', async () => {
    const tag = unique('Reorder');
    const made: { id: string }[] = [];
    for (const [i, label] of ['a', 'b', 'c'].entries()) {
      const res = await call('POST', '/api/home-sections', { cookie: admin, body: { name: `${tag} ${label}`, order: i, isActive: true } });
      made.push(res.body);
    }
    const [sa, sb, sc] = made.map((x) => x.id);
    const listOrder = async () =>
      ids((await call('GET', '/api/home-sections', { cookie: admin, query: { filter: { q: tag } } })).body);
    expect(await listOrder()).toEqual([sa, sb, sc]);
    const reordered = await call('PATCH', '/api/home-sections/reorder', {
      cookie: admin,
      body: { sections: [{ id: sc, order: 0 }, { id: sa, order: 1 }, { id: sb, order: 2 }] },
    });
    expect(reordered.status).toBe(200);
    expect(reordered.body.map((x: { id: string; order: number; isActive: boolean }) => [x.id, x.order, x.isActive])).toEqual([
      [sc, 0, true],
      [sa, 1, true],
      [sb, 2, true],
    ]);
    expect(await listOrder()).toEqual([sc, sa, sb]);

    const refused = await call('PATCH', '/api/home-sections/reorder', {
      cookie: admin,
      body: { sections: [{ id: sa, order: 0 }, { id: NO_ID, order: 1 }, { id: sc, order: 2 }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.sections).toEqual([`Home section '${NO_ID}' does not exist.`]);
    expect(await listOrder()).toEqual([sc, sa, sb]);
    for (const body of [
      { sections: [{ id: sa, order: 0 }, { id: sa, order: 1 }] },
      { sections: [{ id: sa, order: 1.5 }] },
      { sections: [{ id: 5, order: 1 }] },
      { sections: [{ id: sa, order: 1, name: 'x' }] },
      { sections: [{ id: sa, order: 1 }], extra: true },
      { sections: Array.from({ length: 1001 }, (_, i) => ({ id: String(i), order: i })) },
      {},
    ]) {
      const res = await call('PATCH', '/api/home-sections/reorder', { cookie: admin, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    expect(await listOrder()).toEqual([sc, sa, sb]);
  });

  it('footer menus: create, list, read one, grouped footer-info, delete', async () => {
    await invalid(a().post('/footer-menus/', {}), {
      name: ['Name is required!'],
      href: ['href is required!'],
      group: ['Group is required!'],
      order: ['Order must be a number.'],
    });
    const about = unique('About');
    const help = unique('Help');
    const mk = async (name: string, group: string, order: number) => {
      const res = await a().post('/footer-menus/', { name, href: `/${name.replace(/\W+/g, '-')}`, group, order });
      expect(res.status).toBe(201);
      return res.body;
    };
    const team = await mk('Team', about, 2);
    const story = await mk('Story', about, 1);
    const faq = await mk('FAQ', help, 1);
    const info = await a().get('/footer-menus/footer-info');
    expect(info.status).toBe(200);
    expect(ids(info.body[about])).toEqual([story.id, team.id]);
    expect(ids(info.body[help])).toEqual([faq.id]);
    expect((await a().get(`/footer-menus/${team.id}`)).body).toMatchObject({ name: 'Team', group: about });
    expect(ids((await a().get('/footer-menus/', { filter: { group: about } })).body)).toEqual([story.id, team.id]);
    expect((await a().del(`/footer-menus/${story.id}`)).status).toBe(200);
    const after = await a().get('/footer-menus/footer-info');
    expect(ids(after.body[about])).toEqual([team.id]);
  });

  it("footer-info groups menus named like an object's own properties as any others", async () => {
    // Group names are users' text: found by the fuzz test, a group named `constructor` answered 500.
    const made: Record<string, string> = {};
    for (const group of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const res = await a().post('/footer-menus/', { name: unique('Odd'), href: '/odd', group, order: 1 });
      expect(res.status).toBe(201);
      made[group] = res.body.id;
    }
    const info = await a().get('/footer-menus/footer-info');
    expect(info.status).toBe(200);
    const text = JSON.stringify(info.body);
    for (const [group, id] of Object.entries(made)) {
      expect(Object.prototype.hasOwnProperty.call(info.body, group), `${group} in ${text.slice(0, 200)}`).toBe(true);
      expect(ids(info.body[group])).toContain(id);
    }
    for (const id of Object.values(made)) expect((await a().del(`/footer-menus/${id}`)).status).toBe(200);
  });

  it('pages, notices and site settings: read by slug, by type, and the delivery-time notice', async () => {
    const slug = unique('terms').replace(' ', '-');
    const page = { id: newId(), title: 'Terms', slug, content: '<p>Be nice.</p>', ...stamp() };
    await server.db.insertInto('pages').values(page).execute();
    expect((await a().get(`/pages/${slug}`)).body).toMatchObject({ id: page.id, title: 'Terms', content: '<p>Be nice.</p>' });
    expect((await a().get('/pages/no-such-page')).body).toEqual({ message: 'Page not found.' });
    expect(ids((await a().get('/pages', { filter: { q: 'Terms' } })).body)).toContain(page.id);

    const type = unique('alert').replace(' ', '-');
    const notices = [
      { id: newId(), type, title: 'Maintenance', message: 'Sunday 2am', ...stamp() },
      { id: newId(), type: `${type}-x`, title: 'Other', message: 'Other', ...stamp() },
    ];
    await server.db.insertInto('notices').values(notices).execute();
    expect(ids((await a().get(`/notices/type/${type}`)).body)).toEqual([notices[0].id]);
    expect(ids((await a().get('/notices/', { filter: { type: `${type}-x` } })).body)).toEqual([notices[1].id]);
    expect(ids((await a().get('/notices', { filter: { type } })).body)).toEqual([notices[0].id]);

    // Independent of the seeds: take the notice out, then put our own in.
    await server.db.deleteFrom('siteSettings').where('name', '=', 'delivery-time-notice').execute();
    const missing = await a().get('/site-settings/delivery-time-notice');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Site setting not found.' });
    const setting = { id: newId(), name: 'delivery-time-notice', value: 'Orders ship in 2-3 days.', ...stamp() };
    await server.db.insertInto('siteSettings').values(setting).execute();
    const notice = await as(seller).get('/site-settings/delivery-time-notice');
    expect(notice.status).toBe(200);
    expect(notice.body).toMatchObject({ id: setting.id, value: 'Orders ship in 2-3 days.' });
    expect((await a().get(`/site-settings/${setting.id}`)).body).toMatchObject({ name: 'delivery-time-notice' });
    expect(ids((await a().get('/site-settings', { filter: { q: 'delivery-time' } })).body)).toEqual([setting.id]);
  });

  it('countries: create with the spec messages, ?status=1 lists the active ones', async () => {
    await invalid(a().post('/countries', {}), {
      name: ['Country name is required!'],
      code: ['Country code is required!'],
      code3: ['Country code is required!'],
      status: ['Status must be 1 (active) or 0.'],
    });
    await invalid(a().post('/countries', { name: 'Qland', code: 'QZX', code3: 'QZXY', status: 2 }), {
      code: ['Country code has 2 letters.'],
      code3: ['Country code has 3 letters.'],
      status: ['Status must be 1 (active) or 0.'],
    });
    const active = await a().post('/countries', { name: 'Qzland', code: 'QZ', code3: 'QZZ', status: 1 });
    expect(active.status).toBe(201);
    expect(active.body).toMatchObject({ code: 'QZ', code3: 'QZZ', status: 1 });
    const inactive = await a().post('/countries', { name: 'Xqland', code: 'XQ', code3: 'XQQ', status: 0 });
    expect(inactive.status).toBe(201);
    expect((await a().post('/countries', { name: 'Qzland again', code: 'QZ', code3: 'QZY', status: 1 })).status).toBe(409);

    const search = { filter: { q: 'land' } };
    const onlyActive = ids((await a().get('/countries', { status: '1', ...search })).body);
    expect(onlyActive).toContain(active.body.id);
    expect(onlyActive).not.toContain(inactive.body.id);
    const onlyInactive = ids((await a().get('/countries', { status: '0', ...search })).body);
    expect(onlyInactive).toContain(inactive.body.id);
    expect(onlyInactive).not.toContain(active.body.id);
    const all = ids((await a().get('/countries', search)).body);
    expect(all).toEqual(expect.arrayContaining([active.body.id, inactive.body.id]));
    const bad = await a().get('/countries', { status: 'active' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("'status' must be a number.");
  });

  it('cities: reference a country by its code; an unknown code is a 400; the country keeps its cities', async () => {
    const country = await a().post('/countries', { name: 'Cityland', code: 'QY', code3: 'QYY', status: 1 });
    expect(country.status).toBe(201);
    await invalid(a().post('/cities', {}), { name: ['City name is required!'], country: ['Country is required!'] });
    await invalid(a().post('/cities', { name: 'Nowhere', country: 'QW' }), { country: ['Country does not exist.'] });
    // The id is not what a city holds: the code is.
    await invalid(a().post('/cities', { name: 'Nowhere', country: country.body.id }), { country: ['Country does not exist.'] });
    const city = await a().post('/cities', { name: 'Qyville', country: 'QY' });
    expect(city.status).toBe(201);
    expect(city.body).toMatchObject({ name: 'Qyville', country: 'QY' });
    expect(ids((await a().get('/cities', { filter: { country: 'QY' } })).body)).toEqual([city.body.id]);
    // Children that hold the code count against deleting the country (no delete call declares it; the write layer decides).
    await expect(removeRecord(server.db, registry, registry.resource('countries'), country.body.id)).rejects.toMatchObject({
      status: 409,
      message: "Country 'Cityland' still has 1 city. Delete or move them first.",
    });
    expect((await server.db.selectFrom('countries').select('id').where('id', '=', country.body.id).execute()).length).toBe(1);
  });

  it('currencies: country sent as an option on add and as a string on update, ?status=1, the default currency', async () => {
    const country = await a().post('/countries', { name: 'Moneyland', code: 'XM', code3: 'XMM', status: 1 });
    expect(country.status).toBe(201);
    await invalid(a().post('/currencies', { country: {} }), {
      name: ['Currency name is required!'],
      symbal: ['Symbol is required!'],
      code: ['Currency code is required!'],
      rate: ['Rate is required!'],
      country: ['Country is required!'],
    });
    await invalid(a().post('/currencies', { name: 'Mark', symbal: 'M', code: 'XMK', rate: 0, country: { label: 'Moneyland', value: 'XMM' } }), {
      rate: ['Rate must be more than 0.'],
    });
    // Add sends the country as { label, value }: a bare string is refused (zod's own message: the
    // option wrapper of `wire` carries none of its own).
    const bare = await a().post('/currencies', { name: 'Mark', symbal: 'M', code: 'XMK', rate: 2, country: 'XMM' });
    expect(bare.status).toBe(400);
    expect(Object.keys(bare.body.errors)).toEqual(['country']);
    await invalid(a().post('/currencies', { name: 'Mark', symbal: 'M', code: 'XMK', rate: 2, country: { label: 'Mo', value: 'XM' } }), {
      country: ['Country is required!'],
    });
    await invalid(a().post('/currencies', { name: 'Mark', symbal: 'M', code: 'XMK', rate: 2, country: { label: 'Nowhere', value: 'NOP' } }), {
      country: ['Country does not exist.'],
    });
    const name = unique('Mark');
    const mark = await a().post('/currencies', { name, symbal: 'M', code: 'XMK', rate: 2.5, country: { label: 'Moneyland', value: 'XMM' } });
    expect(mark.status).toBe(201);
    expect(mark.body).toMatchObject({ name, symbal: 'M', code: 'XMK', rate: 2.5, country: 'XMM' });
    const stored = await server.db.selectFrom('currencies').selectAll().where('id', '=', mark.body.id).executeTakeFirstOrThrow();
    expect(stored.country).toBe('XMM');

    await invalid(a().patch(`/currencies/${mark.body.id}`, { name, symbal: 'M', code: 'XMK', rate: 2.5, country: { label: 'Moneyland', value: 'XMM' }, status: 1 }), {
      country: ['Country is required!'],
    });
    const active = await a().patch(`/currencies/${mark.body.id}`, { name, symbal: 'M', code: 'XMK', rate: 3, country: 'XMM', status: 1 });
    expect(active.status).toBe(200);
    expect(active.body).toMatchObject({ rate: 3, country: 'XMM', status: 1 });
    const other = await a().post('/currencies', { name: `${name} old`, symbal: 'm', code: 'XMO', rate: 9, country: { label: 'Moneyland', value: 'XMM' } });
    await a().patch(`/currencies/${other.body.id}`, { name: `${name} old`, symbal: 'm', code: 'XMO', rate: 9, country: 'XMM', status: 0 });
    const activeOnes = ids((await a().get('/currencies', { status: '1', filter: { q: name } })).body);
    expect(activeOnes).toEqual([mark.body.id]);
    expect(ids((await a().get('/currencies', { filter: { q: name } })).body).sort()).toEqual([mark.body.id, other.body.id].sort());
    expect((await a().get('/currencies', { status: 'x' })).status).toBe(400);

    // The default currency: read by any signed-in role, written by the admin, checked.
    const before = await as(seller).get('/currencies/settings');
    expect(before.status).toBe(200);
    expect(Object.keys(before.body).sort()).toEqual(['id', 'record']);
    const set = await a().put('/currencies/settings', { id: mark.body.id });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ id: mark.body.id, record: expect.objectContaining({ id: mark.body.id, name, rate: 3 }) });
    expect((await as(seller).get('/currencies/settings')).body).toEqual(set.body);
    await invalid(a().put('/currencies/settings', { id: NO_ID }), { id: ['Currency does not exist.'] });
    expect((await a().put('/currencies/settings', { id: 5 })).status).toBe(400);
    expect((await a().put('/currencies/settings', { id: mark.body.id, extra: 1 })).status).toBe(400);
    expect((await a().put('/currencies/settings', {})).status).toBe(400);
    expect((await as(seller).put('/currencies/settings', { id: other.body.id })).status).toBe(403);
    expect((await a().get('/currencies/settings')).body.id).toBe(mark.body.id);
    // A change of the record shows in the setting's answer (no stale cache).
    await a().patch(`/currencies/${mark.body.id}`, { name, symbal: 'M', code: 'XMK', rate: 4, country: 'XMM', status: 1 });
    expect((await a().get('/currencies/settings')).body.record.rate).toBe(4);
    // An inactive currency cannot be the default (issue 9): made active first, it can.
    const inactive = await a().put('/currencies/settings', { id: other.body.id });
    expect(inactive).toMatchObject({ status: 400, body: { errors: { id: [places.currencies.defaultRecord!.requires!.refused] } } });
    await a().patch(`/currencies/${other.body.id}`, { name: `${name} old`, symbal: 'm', code: 'XMO', rate: 9, country: 'XMM', status: 1 });
    const moved = await a().put('/currencies/settings', { id: other.body.id });
    expect(moved.body.id).toBe(other.body.id);
    expect((await a().get('/currencies/settings')).body).toEqual(moved.body);
  });

  it('lists with page paging (the media gallery): ?page&limit, sort and filter, { data, total, page, limit }', async () => {
    const tag = unique('gallery');
    const rows = Array.from({ length: 25 }, (_, i) => ({
      id: newId(Date.now() + i * 1000),
      url: `/images/assets/x/${i}.png`,
      name: `${tag} ${String(i).padStart(2, '0')}.png`,
      endpoint: 'pagefile',
      type: 'image/png',
      size: 100 + i,
      path: `${tag.replace(' ', '-')}/${i}.png`,
      uploadedBy: null,
      ...stamp(),
    }));
    await server.db.insertInto('media').values(rows).execute();
    const search = { filter: { q: tag } };
    const first = await call('GET', '/api/gallery', { cookie: admin, query: search });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 25, page: 1, limit: 20 });
    expect(first.body.data).toHaveLength(20);
    // Newest first (the resource's sort: id DESC).
    expect(first.body.data[0].id).toBe(rows[24].id);
    expect(first.headers.get('content-range')).toBe('media 0-19/25');
    const second = await call('GET', '/api/gallery', { cookie: admin, query: { page: '2', limit: '20', ...search } });
    expect(ids(second.body.data)).toEqual(rows.slice(0, 5).map((x) => x.id).reverse());
    expect(second.body).toMatchObject({ total: 25, page: 2, limit: 20 });
    const sorted = await call('GET', '/api/gallery', { cookie: admin, query: { page: '3', limit: '2', sort: ['name', 'ASC'], ...search } });
    expect(sorted.body.data.map((x: { name: string }) => x.name)).toEqual([rows[4].name, rows[5].name]);
    for (const query of [{ page: '0' }, { page: 'x' }, { limit: '0' }, { limit: '101' }, { page: '1.5' }, { limit: '-1' }]) {
      const res = await call('GET', '/api/gallery', { cookie: admin, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
    }
    expect((await call('GET', '/api/gallery', { cookie: seller })).status).toBe(403);
  });

  it('runs afterRemove hooks in the delete’s transaction', async () => {
    const seen: string[] = [];
    let fail = false;
    // The manifest's hooks, for this test: the records service reads them from the resource at each write.
    const qrCodes = registry.resource('qrCodes');
    qrCodes.hooks = {
      afterRemove: async ({ record }) => {
        seen.push(record.id as string);
        if (fail) throw new Error('storage down');
      },
    };
    onTestFinished(() => {
      delete qrCodes.hooks;
    });
    const one = await a().post('/qr-codes', { title: unique('Hooked'), qrcode: '/q.png' });
    expect((await a().del(`/qr-codes/${one.body.id}`)).status).toBe(200);
    expect(seen).toEqual([one.body.id]);
    fail = true;
    const two = await a().post('/qr-codes', { title: unique('Hooked'), qrcode: '/q.png' });
    expect((await a().del(`/qr-codes/${two.body.id}`)).status).toBe(500);
    const still = await server.db.selectFrom('qrCodes').select('id').where('id', '=', two.body.id).execute();
    expect(still).toHaveLength(1);
  });
});

describe('operations', () => {
  const probe = (operations: ResourceDef['operations']) =>
    defineResource({
      name: 'probes',
      label: 'Probe',
      plural: 'Probes',
      access: { read: 'signedIn', write: ['admin'] },
      fields: [field.text('name')],
      operations,
    });
  const appFor = (resource: ResourceDef, handlers: Handlers = {}, role = 'admin') => {
    const app = Fastify();
    // As the app answers its errors (src/server/app.ts).
    app.setErrorHandler((error, _request, reply) =>
      error instanceof HttpError
        ? reply.code(error.status).send(error.errors ? { message: error.message, errors: error.errors } : { message: error.message })
        : reply.send(error),
    );
    app.addHook('onRequest', async (request) => {
      if (request.headers['x-role']) request.user = { id: 'u1', role: request.headers['x-role'] ?? role };
    });
    registerManifestRoutes(app, {} as Db, createRegistry([resource]), new ReadCache(), handlers);
    return app;
  };

  it('fails at startup when a manifest names a handler nobody registered', () => {
    // @ts-expect-error: the type checker refuses a name the server's map does not hold, as start-up does.
    const resource = probe({ x: operation('POST /probes/x', 'noSuchHandler') });
    expect(() => appFor(resource)).toThrow("No server handler registered for: operation probes.x → 'noSuchHandler'");
  });

  it('registers the call with its access, judges the body, calls the handler with params, query and reply', async () => {
    const handlers: Handlers = {
      probeEcho: async ({ params, query, body, resource }) => ({ id: params.id, q: query.q, body, resource: resource.name }),
      probeFile: async ({ reply }) => reply.code(202).type('text/plain').send('made by the handler'),
      probeNothing: async () => undefined,
    };
    // The probe's own handlers, not the server's map: their names are cast past the checker.
    const named = (name: keyof typeof handlers) => name as HandlerName;
    const app = appFor(
      probe({
        echo: operation('POST /probes/{id}/echo', named('probeEcho'), { body: z.strictObject({ n: z.number({ error: 'n is required.' }) }) }),
        file: operation('GET /api/probes/file', named('probeFile'), { access: 'signedIn' }),
        nothing: operation('DELETE /probes/nothing', named('probeNothing')),
      }),
      handlers,
    );
    const echo = (headers: Record<string, string>, payload: unknown) =>
      app.inject({ method: 'POST', url: '/api/admin/v1/probes/abc/echo?q=hi', headers, payload: payload as object });
    const ok = await echo({ 'x-role': 'admin' }, { n: 3 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ id: 'abc', q: 'hi', body: { n: 3 }, resource: 'probes' });
    const bad = await echo({ 'x-role': 'admin' }, { n: 'x', m: 1 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'Validation failed.', errors: { n: ['n is required.'], m: ["Field 'm' is not allowed."] } });
    expect((await echo({ 'x-role': 'seller' }, { n: 3 })).statusCode).toBe(403);
    expect((await echo({}, { n: 3 })).statusCode).toBe(401);
    const file = await app.inject({ method: 'GET', url: '/api/probes/file', headers: { 'x-role': 'seller' } });
    expect(file.statusCode).toBe(202);
    expect(file.body).toBe('made by the handler');
    const nothing = await app.inject({ method: 'DELETE', url: '/api/admin/v1/probes/nothing', headers: { 'x-role': 'admin' } });
    expect(nothing.statusCode).toBe(204);
    await app.close();
  });
});
