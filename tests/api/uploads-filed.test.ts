/**
 * Uploads filed where they belong (issue 51 point 7), on every engine: each form's file field names its
 * own upload endpoint (src/manifest/uploads.ts), and an upload to it lands under that endpoint's folder
 * and URL; the server holds every upload to what its endpoint declares (types, size, count), answering
 * a refusal with the declared texts, and keeps nothing of a refused upload.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../resources/index.ts';
import { ASSETS_PATH, isPrivateEndpoint, uploadEndpointOf, uploadMessages, type UploadEndpoint } from '../../src/manifest/uploads.ts';
import type { LocalStorage } from '../../src/server/uploads/storage.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/** The endpoint a form's field uploads to, as its manifest declares it (and the widget sends it). */
const endpointOfField = (resource: string, field: string): UploadEndpoint => {
  const upload = registry.resource(resource).fields.find((f) => f.name === field)?.upload;
  if (!upload) throw new Error(`${resource}.${field} does not upload`);
  return upload.endpoint;
};

/** The forms the issue names, and the endpoint each is to file its files under. */
const FILED: { resource: string; field: string; endpoint: UploadEndpoint; role: 'admin' | 'seller' }[] = [
  { resource: 'products', field: 'images', endpoint: 'products', role: 'seller' },
  { resource: 'childCategories', field: 'image', endpoint: 'childcategories', role: 'admin' },
  { resource: 'subCategories', field: 'image', endpoint: 'subcategories', role: 'admin' },
  { resource: 'topCategories', field: 'image', endpoint: 'topcategories', role: 'admin' },
  // A seller's National ID card or trade licence: the account documents' private endpoint.
  { resource: 'sellerDocuments', field: 'file', endpoint: 'documents', role: 'seller' },
];

describe.each(engines)('uploads filed under their own endpoint (%s)', (engine) => {
  let server: TestServer;
  let root: string;
  const cookies: Record<'admin' | 'seller', string> = {} as never;

  beforeAll(async () => {
    server = await startTestServer({ engine });
    root = (server.app.uploads as LocalStorage).root;
    cookies.admin = await server.login('admin');
    cookies.seller = await server.login('seller');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  /** Sends `files` to `endpoint`; with `endpointLast` the endpoint comes after the files. */
  const upload = async (cookie: string, endpoint: string, files: { name: string; bytes: Uint8Array }[], endpointLast = false) => {
    const form = new FormData();
    if (!endpointLast) form.append('endpoint', endpoint);
    for (const f of files) form.append('files', new Blob([new Uint8Array(f.bytes)]), f.name);
    if (endpointLast) form.append('endpoint', endpoint);
    const res = await fetch(`${server.url}/api/s3/upload`, { method: 'POST', headers: { cookie }, body: form });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  /** Every stored file, as paths relative to the uploads folder. */
  const stored = (): string[] =>
    existsSync(root) ? (readdirSync(root, { recursive: true }) as string[]).filter((p) => /\.\w+$/.test(p)).sort() : [];

  it.each(FILED.map((x) => [`${x.resource}.${x.field} → ${x.endpoint}`, x] as const))('%s: the file lands under its endpoint', async (_, { resource, field, endpoint, role }) => {
    expect(endpointOfField(resource, field)).toBe(endpoint);
    const { status, body } = await upload(cookies[role], endpoint, [{ name: 'picture.png', bytes: PNG }]);
    expect(status).toBe(200);
    const [url] = body as string[];
    const path = new URL(url).pathname.slice(ASSETS_PATH.length + 1);
    expect(new URL(url).pathname).toMatch(new RegExp(`^${ASSETS_PATH}/${endpoint}/[0-9a-f]{24}\\.png$`));
    expect(existsSync(join(root, path))).toBe(true);
    const row = await server.db.selectFrom('media').selectAll().where('path', '=', path).executeTakeFirstOrThrow();
    expect(row.endpoint).toBe(endpoint);
    // Public endpoints serve the file to anyone; the documents' only to who may read them.
    const anyone = await fetch(url);
    expect(anyone.status).toBe(isPrivateEndpoint(endpoint) ? 404 : 200);
    const uploader = await fetch(url, { headers: { cookie: cookies[role] } });
    expect(uploader.status).toBe(200);
    expect(Buffer.from(await uploader.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('refuses a type, a size and a count its endpoint does not take, with the declared texts, and keeps nothing', async () => {
    const before = stored();
    const endpoint = endpointOfField('products', 'images');
    const { types, maxBytes, maxFiles } = uploadEndpointOf(endpoint);
    expect(maxFiles).toBe(1);

    const pdf = await upload(cookies.seller, endpoint, [{ name: 'spec.pdf', bytes: PDF }]);
    expect(pdf).toEqual({ status: 400, body: { message: 'File Validation error', errors: { files: [uploadMessages.badType('spec.pdf', types)] } } });
    expect(pdf.body.errors.files).toEqual(['spec.pdf: only webp, png, jpg files are allowed.']);

    const big = Buffer.concat([PNG, Buffer.alloc(maxBytes + 1 - PNG.length)]);
    const large = await upload(cookies.seller, endpoint, [{ name: 'huge.png', bytes: big }]);
    expect(large).toEqual({ status: 413, body: { message: 'File Validation error', errors: { files: ['huge.png is larger than 5 MB.'] } } });

    const spec = { message: 'File Validation error', errors: { files: ['Total files cannot exceed 1.', 'You can only upload up to 1 files.'] } };
    const two = [{ name: 'a.png', bytes: PNG }, { name: 'b.png', bytes: PNG }];
    expect(await upload(cookies.seller, endpoint, two)).toEqual({ status: 400, body: spec });
    // Files sent before the endpoint are held to it once it is known.
    expect(await upload(cookies.seller, endpoint, two, true)).toEqual({ status: 400, body: spec });
    // The gallery's endpoint takes the spec's default of 5 (§9).
    const six = Array.from({ length: 6 }, (_, i) => ({ name: `${i}.png`, bytes: PNG }));
    expect(await upload(cookies.admin, 'pagefile', six)).toEqual({
      status: 400,
      body: { message: 'File Validation error', errors: { files: ['Total files cannot exceed 5.', 'You can only upload up to 5 files.'] } },
    });

    const unknown = await upload(cookies.seller, 'product', [{ name: 'a.png', bytes: PNG }]);
    expect(unknown).toEqual({ status: 400, body: { message: "Unknown upload endpoint 'product'.", errors: { endpoint: ["Unknown upload endpoint 'product'."] } } });

    const none = await upload(cookies.seller, endpoint, []);
    expect(none).toEqual({ status: 400, body: { message: 'Validation Error', errors: { files: ['Please selected files'] } } });
    expect(stored()).toEqual(before);
  });

  it('no form field files its uploads under another form’s endpoint', () => {
    // Product, category and top-category images were once filed under the blog's `blogcategory`.
    const owners = new Map<string, string[]>();
    for (const r of registry.resources)
      for (const f of r.fields)
        if (f.upload) owners.set(f.upload.endpoint, [...(owners.get(f.upload.endpoint) ?? []), `${r.name}.${f.name}`]);
    expect(owners.get('blogcategory')?.sort()).toEqual(['blogCategories.image', 'blogMessages.image']);
    for (const { endpoint } of FILED.filter((x) => x.endpoint !== 'documents'))
      expect(owners.get(endpoint)).toHaveLength(1);
  });
});
