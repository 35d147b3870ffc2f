/**
 * Uploads against a real server (spec §5 Upload, §7 Uploads and downloads, §8 File validation): real
 * multipart requests, files judged by content, all or nothing, stored files served back, and deletes
 * that never leave the uploads folder.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSETS_PATH, MAX_FILE_BYTES } from '../../src/manifest/uploads.ts';
import type { LocalStorage } from '../../src/server/uploads/storage.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// Real image files (1x1 pixel each).
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);
const WEBP = Buffer.from('UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const HTML = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');

interface Upload {
  name: string;
  bytes: Uint8Array;
  type?: string;
}

describe('uploads API', () => {
  let server: TestServer;
  let root: string;
  let admin: string;
  let seller: string;
  // The folder the uploads folder sits in, with a file a traversal would reach.
  let outside: string;
  const envDir = mkdtempSync(join(tmpdir(), 'marketplace-uploads-'));
  const previousEnv = process.env.UPLOADS_DIR;

  beforeAll(async () => {
    // Honoured when tests/support/server.ts passes no `uploadsDir` of its own; either way the test
    // asks the app where its uploads folder is.
    process.env.UPLOADS_DIR = join(envDir, 'uploads');
    server = await startTestServer();
    root = (server.app.uploads as LocalStorage).root;
    outside = dirname(root);
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'sentinel.txt'), 'keep me');
    writeFileSync(join(outside, 'x'), 'keep me too');
    admin = await server.login('admin');
    seller = await server.login('seller');
  });
  afterAll(async () => {
    await server?.close();
    if (previousEnv === undefined) delete process.env.UPLOADS_DIR;
    else process.env.UPLOADS_DIR = previousEnv;
    rmSync(envDir, { recursive: true, force: true });
  });

  const upload = async (cookie: string | undefined, endpoint: string | undefined, files: Upload[]) => {
    const form = new FormData();
    if (endpoint !== undefined) form.append('endpoint', endpoint);
    for (const f of files) form.append('files', new Blob([new Uint8Array(f.bytes)], { type: f.type ?? 'application/octet-stream' }), f.name);
    const res = await fetch(`${server.url}/api/s3/upload`, { method: 'POST', headers: cookie ? { cookie } : {}, body: form });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  const remove = async (cookie: string | undefined, query: string) => {
    const res = await fetch(`${server.url}/api/local-upload/delete?${query}`, { method: 'DELETE', headers: cookie ? { cookie } : {} });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  /** Every file under the uploads folder, as paths relative to it. */
  const stored = (): string[] => {
    if (!existsSync(root)) return [];
    return (readdirSync(root, { recursive: true }) as string[]).filter((p) => /\.\w+$/.test(p)).sort();
  };
  const mediaRows = () => server.db.selectFrom('media').selectAll().execute();
  const pathOf = (url: string) => new URL(url).pathname.slice(ASSETS_PATH.length + 1);

  it('stores PNG, JPEG and WEBP under names it chooses and serves them back byte-identical', async () => {
    const res = await upload(admin, 'banners', [
      { name: 'a.png', bytes: PNG, type: 'image/png' },
      { name: 'b.jpeg', bytes: JPEG, type: 'image/jpeg' },
      { name: 'c.webp', bytes: WEBP, type: 'image/webp' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(3);
    const [png, jpg, webp] = res.body as string[];
    expect(png).toMatch(new RegExp(`^${server.url}${ASSETS_PATH}/banners/[0-9a-f]{24}\\.png$`));
    expect(jpg).toMatch(/\/banners\/[0-9a-f]{24}\.jpg$/);
    expect(webp).toMatch(/\/banners\/[0-9a-f]{24}\.webp$/);

    for (const [url, bytes, type] of [
      [png, PNG, 'image/png'],
      [jpg, JPEG, 'image/jpeg'],
      [webp, WEBP, 'image/webp'],
    ] as const) {
      const got = await fetch(url);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe(type);
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      expect(got.headers.get('content-disposition')).toBeNull();
      expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
      expect(readFileSync(join(root, pathOf(url))).equals(bytes)).toBe(true);
    }

    const rows = await mediaRows();
    const row = rows.find((r) => r.url === png)!;
    const adminUser = await server.db.selectFrom('users').select('id').where('email', '=', 'admin@demo.test').executeTakeFirst();
    expect(row).toMatchObject({ name: 'a.png', endpoint: 'banners', type: 'image/png', size: PNG.length, path: pathOf(png), uploadedBy: adminUser!.id });
    expect(row.id).toMatch(/^[0-9a-f]{24}$/);
    expect(row.createdAt).toBeTruthy();
  });

  it('answers ?download=1 as an attachment under the original name', async () => {
    const { body } = await upload(admin, 'pagefile', [{ name: 'Invoice März.pdf', bytes: PDF, type: 'application/pdf' }]);
    const got = await fetch(`${body[0]}?download=1`);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="Invoice M_rz.pdf"; filename*=UTF-8''Invoice%20M%C3%A4rz.pdf`);
    expect(Buffer.from(await got.arrayBuffer()).equals(PDF)).toBe(true);
  });

  it('goes by content, not by name or declared type', async () => {
    const renamed = await upload(admin, 'banners', [{ name: 'photo.pdf', bytes: PNG, type: 'application/pdf' }]);
    expect(renamed.status).toBe(200);
    expect(renamed.body[0]).toMatch(/\.png$/);
    expect((await fetch(renamed.body[0])).headers.get('content-type')).toBe('image/png');

    const before = stored();
    const html = await upload(admin, 'banners', [{ name: 'innocent.png', bytes: HTML, type: 'image/png' }]);
    expect(html.status).toBe(400);
    expect(html.body).toEqual({ message: 'File Validation error', errors: { files: ['innocent.png: only webp, png, jpg files are allowed.'] } });
    expect(stored()).toEqual(before);
  });

  it('takes PDFs only where documents are filed', async () => {
    const banner = await upload(admin, 'banners', [{ name: 'doc.pdf', bytes: PDF, type: 'application/pdf' }]);
    expect(banner.status).toBe(400);
    expect(banner.body.errors.files[0]).toBe('doc.pdf: only webp, png, jpg files are allowed.');
    const page = await upload(admin, 'pagefile', [{ name: 'doc.pdf', bytes: PDF, type: 'application/pdf' }]);
    expect(page.status).toBe(200);
    expect(page.body[0]).toMatch(/\/pagefile\/[0-9a-f]{24}\.pdf$/);
  });

  it('keeps nothing when one file of several is refused', async () => {
    const before = stored();
    const rows = (await mediaRows()).length;
    const res = await upload(admin, 'banners', [
      { name: 'ok.png', bytes: PNG },
      { name: 'bad.png', bytes: HTML },
    ]);
    expect(res.status).toBe(400);
    expect(stored()).toEqual(before);
    expect(await mediaRows()).toHaveLength(rows);
  });

  it('refuses a file over the size limit with 413 and stores nothing', async () => {
    const before = stored();
    const rows = (await mediaRows()).length;
    const big = Buffer.alloc(MAX_FILE_BYTES + 1);
    PNG.copy(big);
    const res = await upload(admin, 'banners', [
      { name: 'small.png', bytes: PNG },
      { name: 'big.png', bytes: big },
    ]);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'File Validation error', errors: { files: ['big.png is larger than 5 MB.'] } });
    expect(stored()).toEqual(before);
    expect(await mediaRows()).toHaveLength(rows);
    // The connection the refusal closed does not hurt the next request.
    expect((await upload(admin, 'banners', [{ name: 'after.png', bytes: PNG }])).status).toBe(200);
  });

  it('refuses more than 5 files and none at all, with the spec texts', async () => {
    const before = stored();
    const six = Array.from({ length: 6 }, (_, i) => ({ name: `${i}.png`, bytes: PNG }));
    const many = await upload(admin, 'banners', six);
    expect(many.status).toBe(400);
    expect(many.body).toEqual({ message: 'File Validation error', errors: { files: ['Total files cannot exceed 5.', 'You can only upload up to 5 files.'] } });

    const none = await upload(admin, 'banners', []);
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ message: 'Validation Error', errors: { files: ['Please selected files'] } });
    // An empty file input still sends an unnamed, empty part: that is no file either.
    const empty = await upload(admin, 'banners', [{ name: '', bytes: new Uint8Array() }]);
    expect(empty.body.errors.files).toEqual(['Please selected files']);
    expect(stored()).toEqual(before);
  });

  it('refuses an unknown or missing endpoint', async () => {
    const unknown = await upload(admin, 'avatars', [{ name: 'a.png', bytes: PNG }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe("Unknown upload endpoint 'avatars'.");
    const missing = await upload(admin, undefined, [{ name: 'a.png', bytes: PNG }]);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("Unknown upload endpoint ''.");
  });

  it('needs a session to upload or delete', async () => {
    const before = stored();
    expect((await upload(undefined, 'banners', [{ name: 'a.png', bytes: PNG }])).status).toBe(401);
    expect((await remove(undefined, 'file=banners/0123456789abcdef01234567.png')).status).toBe(401);
    expect(stored()).toEqual(before);
  });

  it('refuses every traversal attempt on delete, touching nothing outside the uploads folder', async () => {
    const { body } = await upload(admin, 'banners', [{ name: 'keep.png', bytes: PNG }]);
    const kept = pathOf(body[0]);
    const attempts = [
      '../x',
      '../sentinel.txt',
      'banners/../../sentinel.txt',
      '..%2Fx',
      '..%2Fsentinel.txt',
      '%2e%2e/x',
      '%2e%2e%2fsentinel.txt',
      '%252e%252e%252fsentinel.txt',
      '/etc/passwd',
      `${outside}/sentinel.txt`,
      'a\\..\\..\\x',
      '..\\sentinel.txt',
      '....//',
      '....//sentinel.txt',
      'C:\\Windows\\win.ini',
      'C:/Windows/win.ini',
      `${kept}%00.txt`,
      `banners/../${kept}`,
      '',
    ];
    for (const attempt of attempts) {
      // Sent as written (the server decodes once) and fully encoded (decoded to the attempt itself).
      for (const query of [`file=${attempt}`, `file=${encodeURIComponent(attempt)}`]) {
        const res = await remove(admin, query);
        expect([query, res.status]).toEqual([query, 400]);
      }
    }
    expect(readFileSync(join(outside, 'sentinel.txt'), 'utf8')).toBe('keep me');
    expect(readFileSync(join(outside, 'x'), 'utf8')).toBe('keep me too');
    expect(existsSync(join(root, kept))).toBe(true);
    expect((await remove(admin, 'nofile=1')).status).toBe(400);
  });

  it('never serves anything outside the uploads folder', async () => {
    for (const path of ['..%2fsentinel.txt', '%2e%2e/sentinel.txt', '..%5csentinel.txt', 'banners%2f..%2f..%2fsentinel.txt', 'banners/none.png']) {
      const res = await fetch(`${server.url}${ASSETS_PATH}/${path}`);
      expect([path, res.status]).toEqual([path, 404]);
    }
    expect((await fetch(`${server.url}${ASSETS_PATH}/banners/0123456789abcdef01234567.png`)).status).toBe(404);
  });

  it("lets the uploader or an admin delete a file, nobody else", async () => {
    const mine = await upload(seller, 'profilepics', [{ name: 'me.png', bytes: PNG }]);
    expect(mine.status).toBe(200);
    const theirs = await upload(admin, 'banners', [{ name: 'admin.png', bytes: PNG }]);
    const adminPath = pathOf(theirs.body[0]);
    const sellerPath = pathOf(mine.body[0]);

    const refused = await remove(seller, `file=${encodeURIComponent(adminPath)}`);
    expect(refused.status).toBe(403);
    expect(existsSync(join(root, adminPath))).toBe(true);

    const own = await remove(seller, `file=${encodeURIComponent(sellerPath)}`);
    expect(own.status).toBe(200);
    expect(existsSync(join(root, sellerPath))).toBe(false);
    expect(await server.db.selectFrom('media').select('id').where('path', '=', sellerPath).executeTakeFirst()).toBeUndefined();
    expect((await fetch(mine.body[0])).status).toBe(404);

    // Gone now, and a name that was never stored: both unknown.
    expect((await remove(seller, `file=${encodeURIComponent(sellerPath)}`)).status).toBe(404);
    expect((await remove(admin, 'file=banners/0123456789abcdef01234567.png')).status).toBe(404);

    const byAdmin = await remove(admin, `file=${adminPath}`);
    expect(byAdmin.status).toBe(200);
    expect(existsSync(join(root, adminPath))).toBe(false);
  });

  it('lists uploads in the gallery, a page at a time (GET /api/gallery?page&limit)', async () => {
    await upload(admin, 'banners', [
      { name: 'g1.png', bytes: PNG },
      { name: 'g2.png', bytes: PNG },
      { name: 'g3.png', bytes: PNG },
    ]);
    const rows = await mediaRows();
    // The resource's sort: by id, descending (ids are time-ordered, so newest first).
    const ids = rows.map((r) => r.id as string).sort().reverse();
    const page = async (n: number) => {
      const res = await fetch(`${server.url}/api/gallery?page=${n}&limit=2`, { headers: { cookie: admin } });
      expect(res.status).toBe(200);
      return res.json();
    };
    const first = await page(1);
    expect(first).toMatchObject({ total: rows.length, page: 1, limit: 2 });
    expect(first.data.map((r: { id: string }) => r.id)).toEqual(ids.slice(0, 2));
    expect(first.data[0]).toMatchObject({ url: expect.stringContaining(ASSETS_PATH), endpoint: expect.any(String), type: expect.any(String) });
    const second = await page(2);
    expect(second.data.map((r: { id: string }) => r.id)).toEqual(ids.slice(2, 4));
    expect((await fetch(`${server.url}/api/gallery?page=1&limit=2`, { headers: { cookie: seller } })).status).toBe(403);
  });

  it('removing a gallery record (DELETE /api/gallery/{id}) deletes its stored file too', async () => {
    const { body } = await upload(admin, 'banners', [{ name: 'gone.png', bytes: PNG }]);
    const path = pathOf(body[0]);
    const row = await server.db.selectFrom('media').select('id').where('path', '=', path).executeTakeFirstOrThrow();
    const res = await fetch(`${server.url}/api/gallery/${row.id}`, { method: 'DELETE', headers: { cookie: admin } });
    expect(res.status).toBe(200);
    expect(existsSync(join(root, path))).toBe(false);
    expect((await fetch(body[0])).status).toBe(404);
  });
});
