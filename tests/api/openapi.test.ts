/**
 * The API described (`GET /api/openapi.json`, `GET /api/docs`): a valid OpenAPI 3.1 document holding
 * exactly the routes the running app registers, whose bodies and roles are what the server enforces.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../resources/index.ts';
import { categories } from '../../resources/catalog.ts';
import { listOptions } from '../../src/manifest/index.ts';
import { buildApp } from '../../src/server/app.ts';
import { connect, type Database } from '../../src/server/db/connect.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import {
  escapeHtml,
  openApiDocument,
  recordRoutes,
  renderDocsPage,
  type OpenApiDocument,
  type RegisteredRoute,
} from '../../src/server/openapi/index.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

/** The document, its operations read loosely (the test looks into them as JSON). */
type Doc = Omit<OpenApiDocument, 'paths'> & { paths: Record<string, Record<string, any>> };

/** A route's path in OpenAPI's syntax: `:id` is `{id}`, and a wildcard is documented as `{path}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}').replace(/\/\*$/, '/{path}');

/**
 * Which registered routes the document misses and which documented ones do not exist. Fastify's own
 * HEAD twins of GET routes are not routes of ours; `ignored` leaves out the client's static files.
 */
function compare(routes: readonly RegisteredRoute[], doc: Doc, ignored: (route: RegisteredRoute) => boolean = () => false) {
  const autoHead = (r: RegisteredRoute) => r.method === 'HEAD' && routes.some((g) => g.method === 'GET' && g.url === r.url);
  const registered = new Set(routes.filter((r) => !autoHead(r) && !ignored(r)).map((r) => `${r.method} ${openApiPath(r.url)}`));
  const documented = new Set(
    Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`)),
  );
  return {
    undocumented: [...registered].filter((x) => !documented.has(x)).sort(),
    notRegistered: [...documented].filter((x) => !registered.has(x)).sort(),
  };
}

/** Every operation of the document, with its method and path. */
function operations(doc: Doc) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
}

/** A path with its parameters filled with a well-formed id nobody has. */
const filled = (path: string) => path.replace(/\{\w+\}/g, '0123456789abcdef01234567');

describe.each(engines)('API document (%s)', (engine) => {
  let server: TestServer;
  let clientDir: string;
  let user: string;
  let admin: string;
  let doc: Doc;
  /** The client's static files: routes of the bundle, not of the API. */
  const isClientFile = (route: RegisteredRoute) => route.url === '/' || existsSync(join(clientDir, route.url));

  beforeAll(async () => {
    clientDir = mkdtempSync(join(tmpdir(), 'marketplace-client-'));
    mkdirSync(join(clientDir, 'assets'));
    writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(clientDir, 'assets', 'app.js'), 'export {};');
    server = await startTestServer({ engine, clientDir });
    user = await server.login('user');
    admin = await server.login('admin');
    const res = await server.api('GET', '/api/openapi.json', { cookie: user });
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(async () => {
    await server?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('is a valid OpenAPI 3.1 document, served to a session only', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect((await server.api('GET', '/api/openapi.json')).status).toBe(401);
    expect((await server.api('GET', '/api/docs')).status).toBe(401);
  });

  it('describes every route the app registers, and nothing else', () => {
    const routes = server.app.registeredRoutes;
    // The collector saw the client's files and the hand-written routes too, so ignoring works on real input.
    expect(routes.some(isClientFile)).toBe(true);
    expect(routes.some((r) => r.url === '/api/auth/login')).toBe(true);
    expect(compare(routes, doc, isClientFile)).toEqual({ undocumented: [], notRegistered: [] });
  });

  it('names the roles each route lets in, as the server enforces them', async () => {
    const status = async (method: string, path: string, cookie?: string) => {
      const res = await fetch(`${server.url}${filled(path)}`, { method, headers: cookie ? { cookie } : {} });
      await res.arrayBuffer();
      return res.status;
    };
    const secured = operations(doc).filter(({ op }) => op.security.length);
    expect(secured.length).toBeGreaterThan(50);
    for (const { method, path, op } of secured) {
      expect(op.security, `${method} ${path}`).toEqual([{ sid: [] }]);
      expect(Array.isArray(op['x-roles']), `${method} ${path}`).toBe(true);
      // Without a session every one of them refuses.
      expect(await status(method, path), `${method} ${path} without a session`).toBe(401);
      const asUser = await status(method, path, user);
      if (!op['x-roles'].includes('user')) expect(asUser, `${method} ${path} as user`).toBe(403);
      // Reads the document opens to the role answer it (writes are not sent: they would write).
      else if (method === 'GET') expect([401, 403], `${method} ${path} as user`).not.toContain(asUser);
    }
    expect(doc.paths['/api/admin/v1/categories'].get['x-roles']).toEqual(['admin', 'seller', 'dealer', 'agent', 'user', 'support']);
    expect(doc.paths['/api/admin/v1/categories'].post['x-roles']).toEqual(['admin']);
    expect(doc.paths['/api/auth/login'].post.security).toEqual([]);
    expect(doc.paths['/api/auth/login'].post['x-roles']).toBeUndefined();
    expect(doc.components.securitySchemes.sid).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'sid' });
  });

  it('gives a create the body its dialog sends, from the manifest’s own rule', async () => {
    const op = doc.paths['/api/admin/v1/categories'].post;
    expect(op['x-dialog']).toBe('createCategory');
    const body = op.requestBody.content['application/json'].schema;
    expect(body).toMatchObject({ type: 'object', required: ['name'], additionalProperties: false });
    expect(Object.keys(body.properties)).toEqual(['name']);
    const name = body.properties.name;
    expect(name).toMatchObject({ type: 'string', minLength: 1, title: 'Name' });
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403']));

    // The limits the document states are the ones the manifest's rule and the server hold.
    const rule = categories.fields.find((f) => f.name === 'name')!.rule!;
    expect(rule.safeParse('a'.repeat(name.minLength)).success).toBe(true);
    expect(rule.safeParse('a'.repeat(name.minLength - 1)).success).toBe(false);
    const tooShort = await server.api('POST', '/categories', { cookie: admin, body: { name: '' } });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.errors.name).toEqual(['Category name is required!']);
    if (name.maxLength !== undefined) {
      expect(rule.safeParse('a'.repeat(name.maxLength)).success).toBe(true);
      const tooLong = await server.api('POST', '/categories', { cookie: admin, body: { name: 'a'.repeat(name.maxLength + 1) } });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.errors.name).toHaveLength(1);
    }
    const extra = await server.api('POST', '/categories', { cookie: admin, body: { name: 'Garden', order: '2' } });
    expect(extra.status).toBe(400);
    expect(extra.body.errors.order).toBeDefined();

    // A select's options, an optional field of one dialog and an option-shaped reference come through too.
    const banner = doc.paths['/api/admin/v1/banners/{id}'].patch.requestBody.content['application/json'].schema;
    expect(banner.required).not.toContain('url');
    const currency = doc.paths['/api/admin/v1/currencies'].post.requestBody.content['application/json'].schema;
    expect(currency.properties.country).toMatchObject({ type: 'object', required: ['label', 'value'] });
  });

  it('documents versions: If-Match and 412 on updates, ETag on one-record reads, conflicts where they can happen', () => {
    const update = doc.paths['/api/admin/v1/categories/{id}'].patch;
    expect(update.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'id', in: 'path', required: true }), expect.objectContaining({ name: 'If-Match', in: 'header' })]),
    );
    expect(update.responses['412'].content['application/json'].schema.properties.current).toEqual({ $ref: '#/components/schemas/categories' });
    expect(update.responses['412'].headers.ETag).toBeDefined();
    expect(doc.paths['/api/admin/v1/categories/{id}'].get.responses['200'].headers.ETag).toBeDefined();
    // Categories have children: deleting one can conflict; a QR code has none and nothing unique.
    expect(doc.paths['/api/admin/v1/categories/{id}'].delete.responses['409']).toBeDefined();
    expect(doc.paths['/api/admin/v1/qr-codes/{id}'].delete.responses['409']).toBeUndefined();
    expect(doc.paths['/api/admin/v1/countries'].post.responses['409']).toBeDefined();
  });

  it('gives lists the query their dialect takes', () => {
    const list = doc.paths['/api/admin/v1/categories'].get;
    const param = (op: any, name: string) => op.parameters.find((p: any) => p.name === name);
    expect(param(list, 'sort').content['application/json'].schema.prefixItems[0].enum).toEqual(listOptions(categories).sorts);
    expect(param(list, 'range')).toBeDefined();
    expect(param(list, 'filter').content['application/json'].schema.properties).toHaveProperty('q');
    expect(list.responses['200'].headers['Content-Range']).toBeDefined();
    const gallery = doc.paths['/api/gallery'].get;
    expect(param(gallery, 'page').schema).toMatchObject({ type: 'integer', minimum: 1 });
    expect(param(gallery, 'limit').schema).toMatchObject({ type: 'integer', maximum: 100 });
    expect(param(gallery, 'range')).toBeUndefined();
    // A list narrowed by a query parameter names it.
    expect(param(doc.paths['/api/admin/v1/countries'].get, 'status').in).toBe('query');
  });

  it('renders the document as a page with no script, each route under its resource', async () => {
    const res = await fetch(`${server.url}/api/docs`, { headers: { cookie: user } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/script-src|unsafe-inline/);
    const html = await res.text();
    expect(html).not.toMatch(/<script/i);
    const section = html.slice(html.indexOf('<section id="tag-Categories">'), html.indexOf('</section>', html.indexOf('<section id="tag-Categories">')));
    expect(section).toContain('<span class="method post">POST</span><code>/api/admin/v1/categories</code>');
    expect(section).toContain('Signed in as <code>admin</code>.');
    expect(section).toMatch(/<code>name<\/code><\/td><td>string \((at least 1 character|1 to \d+ characters)/);
    expect(html).toContain('Any signed-in role.');
    expect(html).toContain('<code>/api/auth/login</code>');
  });
});

describe('the route check', () => {
  let dir: string;
  let database: Database;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'marketplace-openapi-'));
    database = await connect({ file: join(dir, 'test.sqlite') });
    await migrate(database, registry);
  });
  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails when a route is added without being documented, or documented without existing', async () => {
    const app = await buildApp({ database, registry, uploadsDir: join(dir, 'uploads') });
    app.get('/api/admin/v1/not-documented', async () => ({}));
    await app.register(async (child) => {
      child.post('/api/admin/v1/from-a-plugin', async () => ({}));
    });
    await app.ready();
    const doc = openApiDocument(registry) as unknown as Doc;
    expect(compare(app.registeredRoutes, doc)).toEqual({
      undocumented: ['GET /api/admin/v1/not-documented', 'POST /api/admin/v1/from-a-plugin'],
      notRegistered: [],
    });
    doc.paths['/api/admin/v1/ghost'] = { get: {} };
    expect(compare(app.registeredRoutes, doc).notRegistered).toEqual(['GET /api/admin/v1/ghost']);
    await app.close();
  });

  it('records routes of plugins registered after it', async () => {
    const app = Fastify();
    recordRoutes(app);
    await app.register(async (child) => {
      child.route({ method: ['PUT', 'PATCH'], url: '/x/:id', handler: async () => ({}) });
    });
    await app.ready();
    expect(app.registeredRoutes).toEqual([
      { method: 'PUT', url: '/x/:id' },
      { method: 'PATCH', url: '/x/:id' },
    ]);
    await app.close();
  });
});

describe('the docs page', () => {
  it('escapes everything the document says', () => {
    const doc = openApiDocument(registry) as unknown as Doc;
    const evil = '<script>alert(1)</script>"\'&';
    doc.info.title = evil;
    doc.paths['/api/admin/v1/categories'].post.summary = evil;
    doc.paths['/api/admin/v1/categories'].post.requestBody.content['application/json'].schema.properties.name.description = `\`${evil}\``;
    doc.tags.push({ name: evil });
    doc.paths[`/x/${evil}`] = { get: { ...doc.paths['/api/docs'].get, tags: [evil], operationId: evil } };
    const html = renderDocsPage(doc as unknown as OpenApiDocument, '/api/openapi.json?a="b"');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('"b"');
    expect(html).toContain(escapeHtml(evil));
    expect(html).toContain(`<code>${escapeHtml(evil)}</code>`);
    expect(escapeHtml(`<a href="x">'&`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;');
  });
});
