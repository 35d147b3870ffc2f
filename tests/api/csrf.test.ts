/**
 * Cross-site request forgery against a real server: a request carrying the admin's cookie but sent
 * from another site (its `Origin`, or `Sec-Fetch-Site` when there is no Origin) changes nothing and is
 * answered 403; the app's own origin, origins the settings allow, and requests with neither header
 * (curl, other servers) go ahead; reads are never checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlOf } from '../../src/manifest/index.ts';
import { readConfig } from '../../src/server/config.ts';
import { DEMO_PASSWORD } from '../../src/server/seed/index.ts';
import { makePng } from '../support/png.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

const EVIL = 'http://evil.example';
const FRONT_END = 'https://admin.example.com';

interface Send {
  cookie?: string;
  origin?: string;
  site?: string;
  body?: unknown;
  form?: FormData;
}

/** A request as a browser page would send it: cookie, Origin and Sec-Fetch-Site as given. */
async function send(server: TestServer, method: string, path: string, { cookie, origin, site, body, form }: Send = {}) {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (origin !== undefined) headers.origin = origin;
  if (site) headers['sec-fetch-site'] = site;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.url}${path.startsWith('/api/') ? path : urlOf(path)}`, {
    method,
    headers,
    body: form ?? (body !== undefined ? JSON.stringify(body) : undefined),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const uploadForm = () => {
  const form = new FormData();
  form.append('endpoint', 'banners');
  form.append('files', new Blob([new Uint8Array(makePng(2, 2))], { type: 'image/png' }), 'forged.png');
  return form;
};

describe.each(engines)('cross-site writes (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let categoryId: string;
  let currencyId: string;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    const made = await server.api('POST', '/categories', { cookie: admin, body: { name: 'Kept' } });
    expect(made.status).toBe(201);
    categoryId = made.body.id;
    currencyId = (await server.api('POST', '/currencies', { cookie: admin, body: { name: 'Forgeable', symbal: 'F', code: 'XFG', rate: 2, country: { label: 'United States', value: 'USA' } } })).body.id;
    expect(currencyId).toBeTruthy();
  });
  afterAll(() => server?.close());

  const categories = async () => (await server.db.selectFrom('categories').select(['id', 'name']).execute()).map((c) => `${c.id} ${c.name}`).sort();
  const media = async () => (await server.db.selectFrom('media').select('id').execute()).length;
  const defaultCurrency = async () => (await server.api('GET', '/currencies/settings', { cookie: admin })).body.id;

  const expectRefused = (res: { status: number; body: any }) => {
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/^Cross-site request refused/);
  };

  it('refuses POST, PUT, PATCH, DELETE and an upload from a foreign Origin, writing nothing', async () => {
    const before = { categories: await categories(), media: await media(), currency: await defaultCurrency() };
    for (const origin of [EVIL, 'null', FRONT_END, 'https://evil.example:443', 'not a url']) {
      expectRefused(await send(server, 'POST', '/categories', { cookie: admin, origin, body: { name: 'Forged' } }));
      expectRefused(await send(server, 'PATCH', `/categories/${categoryId}`, { cookie: admin, origin, body: { name: 'Forged', order: '1' } }));
      expectRefused(await send(server, 'PUT', '/currencies/settings', { cookie: admin, origin, body: { id: currencyId } }));
      expectRefused(await send(server, 'DELETE', `/categories/${categoryId}`, { cookie: admin, origin }));
      expectRefused(await send(server, 'POST', '/api/s3/upload', { cookie: admin, origin, form: uploadForm() }));
    }
    const refused = await send(server, 'POST', '/categories', { cookie: admin, origin: EVIL, body: { name: 'Forged' } });
    expect(refused.body).toEqual({ message: `Cross-site request refused: origin ${EVIL} may not change data here.` });
    expect({ categories: await categories(), media: await media(), currency: await defaultCurrency() }).toEqual(before);
  });

  it('refuses a write with no Origin that the browser marks as from another site', async () => {
    const before = await categories();
    for (const site of ['cross-site', 'same-site'])
      expectRefused(await send(server, 'POST', '/categories', { cookie: admin, site, body: { name: 'Forged' } }));
    expect(await categories()).toEqual(before);
    const sameOrigin = await send(server, 'POST', '/categories', { cookie: admin, site: 'same-origin', body: { name: 'Typed in' } });
    expect(sameOrigin.status).toBe(201);
    const typed = await send(server, 'POST', '/categories', { cookie: admin, site: 'none', body: { name: 'Bookmarked' } });
    expect(typed.status).toBe(201);
  });

  it("lets the app's own origin and requests with no Origin change data", async () => {
    const own = server.url; // what a page served by the app sends: http://127.0.0.1:port
    const made = await send(server, 'POST', '/categories', { cookie: admin, origin: own, site: 'same-origin', body: { name: 'Own' } });
    expect(made.status).toBe(201);
    expect((await send(server, 'PATCH', `/categories/${made.body.id}`, { cookie: admin, origin: own, body: { name: 'Own 2', order: '1' } })).status).toBe(200);
    expect((await send(server, 'PUT', '/currencies/settings', { cookie: admin, origin: own, body: { id: currencyId } })).status).toBe(200);
    expect(await defaultCurrency()).toBe(currencyId);
    expect((await send(server, 'POST', '/api/s3/upload', { cookie: admin, origin: own, form: uploadForm() })).status).toBe(200);
    expect((await send(server, 'DELETE', `/categories/${made.body.id}`, { cookie: admin, origin: own.toUpperCase() })).status).toBe(200);
    // curl and other servers send no Origin at all.
    const plain = await send(server, 'POST', '/categories', { cookie: admin, body: { name: 'Scripted' } });
    expect(plain.status).toBe(201);
    expect((await send(server, 'DELETE', `/categories/${plain.body.id}`, { cookie: admin })).status).toBe(200);
  });

  it('never checks reads', async () => {
    const list = await send(server, 'GET', '/categories', { cookie: admin, origin: EVIL, site: 'cross-site' });
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect((await send(server, 'GET', '/getcurrentuser', { cookie: admin, origin: EVIL })).status).toBe(200);
  });

  it('refuses a sign-in from a foreign Origin (login CSRF) and sets no cookie', async () => {
    const credentials = { email: 'admin@demo.test', password: DEMO_PASSWORD };
    const forged = await send(server, 'POST', '/api/auth/login', { origin: EVIL, body: credentials });
    expectRefused(forged);
    expect(forged.headers.get('set-cookie')).toBeNull();
    const crossSite = await send(server, 'POST', '/api/auth/login', { site: 'cross-site', body: credentials });
    expectRefused(crossSite);
    const own = await send(server, 'POST', '/api/auth/login', { origin: server.url, site: 'same-origin', body: credentials });
    expect(own.status).toBe(200);
    expect(own.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    // Signing out is a write too.
    expectRefused(await send(server, 'POST', '/api/auth/logout', { cookie: admin, origin: EVIL }));
    expect((await server.api('GET', '/getcurrentuser', { cookie: admin })).status).toBe(200);
  });
});

describe('allowed origins (ALLOWED_ORIGINS)', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer({ app: { allowedOrigins: readConfig({ ALLOWED_ORIGINS: ` ${FRONT_END}/ , http://localhost:5173` }).allowedOrigins } });
    admin = await server.login('admin');
  });
  afterAll(() => server?.close());

  it('reads the setting as a comma-separated list of origins and refuses anything else', () => {
    expect(readConfig({}).allowedOrigins).toEqual([]);
    expect(readConfig({ ALLOWED_ORIGINS: 'https://Admin.Example.com:443,http://localhost:5173' }).allowedOrigins).toEqual([FRONT_END, 'http://localhost:5173']);
    for (const bad of ['admin.example.com', 'https://admin.example.com/app', 'ftp://admin.example.com', '*'])
      expect(() => readConfig({ ALLOWED_ORIGINS: bad })).toThrow(/ALLOWED_ORIGINS/);
  });

  it('lets a front end served from an allowed origin change data, and still refuses others', async () => {
    const made = await send(server, 'POST', '/categories', { cookie: admin, origin: FRONT_END, site: 'cross-site', body: { name: 'From the front end' } });
    expect(made.status).toBe(201);
    expect((await send(server, 'POST', '/api/s3/upload', { cookie: admin, origin: 'http://localhost:5173', form: uploadForm() })).status).toBe(200);
    expect((await send(server, 'DELETE', `/categories/${made.body.id}`, { cookie: admin, origin: FRONT_END })).status).toBe(200);
    expect((await send(server, 'POST', '/categories', { cookie: admin, origin: EVIL, body: { name: 'Forged' } })).status).toBe(403);
    expect((await send(server, 'POST', '/categories', { cookie: admin, origin: 'https://admin.example.com.evil.example', body: { name: 'Forged' } })).status).toBe(403);
    expect((await send(server, 'POST', '/categories', { cookie: admin, origin: server.url, body: { name: 'Own still' } })).status).toBe(201);
  });
});
