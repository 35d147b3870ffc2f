/**
 * Uploads under attack (issue 8 §1 and §3), on every engine: a malformed multipart body is a 400, not
 * a 500; users who are not admins have a storage quota (413) and a rate (429 with `Retry-After`) that
 * hold under truly parallel bursts (docs/architecture.md: `Promise.all`, not a loop); PDFs are always downloaded,
 * never shown inline; and nothing is read, or deleted, through a symbolic link in the uploads folder.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSETS_PATH } from '../../src/manifest/uploads.ts';
import { readConfig } from '../../src/server/config.ts';
import { newId } from '../../src/server/db/id.ts';
import { demoEmail } from '../../src/server/seed/index.ts';
import { gracefulShutdown } from '../../src/server/lifecycle.ts';
import type { LocalStorage } from '../../src/server/uploads/storage.ts';
import type { Role } from '../../src/manifest/index.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const KB = 1024;
const MB = 1024 * 1024;

/** A PNG of exactly `bytes` bytes (a real image, padded after its end: files are judged by content). */
const pngOf = (bytes: number) => Buffer.concat([PNG, Buffer.alloc(bytes - PNG.length)]);

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

function uploader(server: () => TestServer) {
  return async (cookie: string, endpoint: string, files: { name: string; bytes: Uint8Array }[]): Promise<Answer> => {
    const form = new FormData();
    form.append('endpoint', endpoint);
    for (const f of files) form.append('files', new Blob([new Uint8Array(f.bytes)]), f.name);
    return answer(await fetch(`${server().url}/api/s3/upload`, { method: 'POST', headers: { cookie }, body: form }));
  };
}

async function userId(server: TestServer, role: Role): Promise<string> {
  const row = await server.db.selectFrom('users').select('id').where('email', '=', demoEmail(role)).executeTakeFirstOrThrow();
  return String(row.id);
}

/** The bytes `role` has stored, as the media table records them. */
async function storedBy(server: TestServer, role: Role): Promise<number> {
  const rows = await server.db.selectFrom('media').select('size').where('uploadedBy', '=', await userId(server, role)).execute();
  return rows.reduce((sum, row) => sum + Number(row.size), 0);
}

/** Every file under the uploads folder. */
const filesUnder = (root: string): string[] => {
  try {
    return (readdirSync(root, { recursive: true }) as string[]).filter((p) => /\.\w+$/.test(p)).sort();
  } catch {
    return [];
  }
};

describe.each(engines)('uploads hardening (%s)', (engine) => {
  let server: TestServer;
  let shutdown: () => Promise<unknown>;
  let root: string;
  let admin: string;
  const upload = uploader(() => server);

  beforeAll(async () => {
    // A 1 MiB quota keeps the files small; the rate is out of the way here (tested on its own server below).
    server = await startTestServer({ engine, app: { uploadLimits: { quotaBytes: 1 * MB, perMinute: 1000 } } });
    // Closed as the real server closes: a stored file's answer is complete on the client (Content-Length)
    // a moment before the server's file stream ends, and a bare app.close() would leave that connection open.
    shutdown = gracefulShutdown(server.app, { log: () => {} });
    root = (server.app.uploads as LocalStorage).root;
    admin = await server.login('admin');
  });
  afterAll(async () => {
    await shutdown?.();
    await server?.close();
  });

  describe('a malformed multipart body', () => {
    const bodies: [string, string, string][] = [
      ['garbage', 'multipart/form-data; boundary=b', 'garbage'],
      ['no boundary', 'multipart/form-data', '--b\r\nContent-Disposition: form-data; name="endpoint"\r\n\r\nbanners\r\n--b--\r\n'],
      ['cut short', 'multipart/form-data; boundary=b', '--b\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\n\r\n\x89PNG'],
      ['broken part header', 'multipart/form-data; boundary=b', '--b\r\nContent-Disposition form-data name\r\n\x00\x01\r\n\r\nx\r\n--b--\r\n'],
      ['only the closing boundary', 'multipart/form-data; boundary=b', '--b--'],
    ];
    it.each(bodies)('is refused with 400, whoever sends it: %s', async (_name, type, body) => {
      const before = filesUnder(root);
      for (const role of ['admin', 'seller'] as const) {
        const cookie = await server.login(role);
        const res = await answer(
          await fetch(`${server.url}/api/s3/upload`, { method: 'POST', headers: { cookie, 'content-type': type }, body }),
        );
        expect([role, res.status]).toEqual([role, 400]);
        expect(typeof res.body.message).toBe('string');
        expect(res.body.errors.files).toEqual([expect.any(String)]);
      }
      expect(filesUnder(root)).toEqual(before);
    });
  });

  describe('the quota of a user who is not an admin', () => {
    it('takes files up to the quota, refuses the one that does not fit with 413 and keeps nothing of it', async () => {
      const seller = await server.login('seller');
      const first = await upload(seller, 'profilepics', [0, 1, 2, 3].map((i) => ({ name: `${i}.png`, bytes: pngOf(200 * KB) })));
      expect(first.status).toBe(200);
      expect(await storedBy(server, 'seller')).toBe(800 * KB);

      const files = filesUnder(root);
      const over = await upload(seller, 'profilepics', [{ name: 'big.png', bytes: pngOf(300 * KB) }]);
      expect(over.status).toBe(413);
      expect(over.body).toEqual({
        message: 'Upload quota exceeded',
        errors: { files: ['These files take 300 KB, but only 224 KB of your 1 MB upload quota is left.'] },
      });
      expect(filesUnder(root)).toEqual(files);
      expect(await storedBy(server, 'seller')).toBe(800 * KB);

      // What still fits is taken; once full, every upload is refused before its body is read.
      expect((await upload(seller, 'profilepics', [{ name: 'fits.png', bytes: pngOf(224 * KB) }])).status).toBe(200);
      const full = await upload(seller, 'profilepics', [{ name: 'tiny.png', bytes: PNG }]);
      expect(full.status).toBe(413);
      expect(full.body.errors.files).toEqual(['Your 1 MB upload quota is used up. Delete files you no longer need, or ask an admin.']);
      expect(full.headers.get('connection')).toBe('close');

      // Deleting a file makes room again.
      const path = new URL(first.body[0]).pathname.slice(ASSETS_PATH.length + 1);
      expect((await answer(await fetch(`${server.url}/api/local-upload/delete?file=${path}`, { method: 'DELETE', headers: { cookie: seller } }))).status).toBe(200);
      expect((await upload(seller, 'profilepics', [{ name: 'again.png', bytes: pngOf(200 * KB) }])).status).toBe(200);
      expect(await storedBy(server, 'seller')).toBe(MB);
    });

    it('holds under a burst of parallel uploads', async () => {
      const dealer = await server.login('dealer');
      const burst = await Promise.all(
        Array.from({ length: 10 }, (_, i) => upload(dealer, 'profilepics', [{ name: `${i}.png`, bytes: pngOf(300 * KB) }])),
      );
      const statuses = burst.map((a) => a.status).sort();
      // 3 × 300 KB fit in 1 MB, a 4th does not.
      expect(statuses).toEqual([200, 200, 200, 413, 413, 413, 413, 413, 413, 413]);
      expect(await storedBy(server, 'dealer')).toBe(900 * KB);
      for (const refused of burst.filter((a) => a.status === 413)) expect(refused.body.message).toBe('Upload quota exceeded');
    });

    it('does not hold admins', async () => {
      const burst = await Promise.all(
        Array.from({ length: 3 }, (_, i) => upload(admin, 'banners', [0, 1].map((j) => ({ name: `${i}-${j}.png`, bytes: pngOf(300 * KB) })))),
      );
      expect(burst.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(await storedBy(server, 'admin')).toBeGreaterThan(MB);
    });
  });

  it('serves a PDF as an attachment under its name, never inline', async () => {
    const { status, body } = await upload(admin, 'pagefile', [{ name: 'terms.pdf', bytes: PDF }]);
    expect(status).toBe(200);
    const got = await fetch(body[0]);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="terms.pdf"; filename*=UTF-8''terms.pdf`);
    expect(Buffer.from(await got.arrayBuffer()).equals(PDF)).toBe(true);
    // Images still show inline.
    const image = await upload(admin, 'banners', [{ name: 'a.png', bytes: PNG }]);
    const shown = await fetch(image.body[0]);
    await shown.arrayBuffer();
    expect(shown.headers.get('content-disposition')).toBeNull();
  });

  describe('symbolic links in the uploads folder', () => {
    const outside = mkdtempSync(join(tmpdir(), 'marketplace-outside-'));
    const secret = join(outside, 'secret.png');
    afterAll(() => rmSync(outside, { recursive: true, force: true }));

    beforeAll(async () => {
      // A real PNG outside (what a link could expose: the database, a key, …) and the folders a link sits in.
      writeFileSync(secret, PNG);
      mkdirSync(join(outside, 'folder'));
      writeFileSync(join(outside, 'folder', 'abcdefabcdefabcdefabcdef.png'), PNG);
      // The uploads folder exists once something was uploaded.
      expect((await upload(admin, 'banners', [{ name: 'real.png', bytes: PNG }])).status).toBe(200);
    });

    it('serves no file that is a link, even to a file that looks stored', async () => {
      symlinkSync(secret, join(root, 'banners', '0123456789abcdef01234567.png'));
      const res = await fetch(`${server.url}${ASSETS_PATH}/banners/0123456789abcdef01234567.png`);
      expect(res.status).toBe(404);
      expect((await res.json()).message).toBe('Not found.');
    });

    it('serves nothing through a linked folder', async () => {
      symlinkSync(join(outside, 'folder'), join(root, 'blogcategory'));
      const res = await fetch(`${server.url}${ASSETS_PATH}/blogcategory/abcdefabcdefabcdefabcdef.png`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).not.toBe('image/png');
    });

    it('deletes nothing through a linked folder, and still serves real files', async () => {
      symlinkSync(join(outside, 'folder'), join(root, 'payoutInvoice'));
      const path = 'payoutInvoice/abcdefabcdefabcdefabcdef.png';
      const now = new Date().toISOString();
      await server.db
        .insertInto('media')
        .values({ id: newId(), url: `${server.url}${ASSETS_PATH}/${path}`, name: 'x.png', endpoint: 'payoutInvoice', type: 'image/png', size: PNG.length, path, uploadedBy: await userId(server, 'admin'), createdAt: now, updatedAt: now })
        .execute();
      const res = await fetch(`${server.url}/api/local-upload/delete?file=${path}`, { method: 'DELETE', headers: { cookie: admin } });
      expect(res.status).toBe(200);
      expect(readFileSync(join(outside, 'folder', 'abcdefabcdefabcdefabcdef.png')).equals(PNG)).toBe(true);

      const real = await upload(admin, 'banners', [{ name: 'real.png', bytes: PNG }]);
      const got = await fetch(real.body[0]);
      expect(got.status).toBe(200);
      expect(Buffer.from(await got.arrayBuffer()).equals(PNG)).toBe(true);
    });
  });
});

describe.each(engines)('the upload rate of a user who is not an admin (%s)', (engine) => {
  let server: TestServer;
  const upload = uploader(() => server);
  beforeAll(async () => {
    server = await startTestServer({ engine, app: { uploadLimits: { perMinute: 3 } } });
  });
  afterAll(() => server?.close());

  it('takes as many uploads a minute as the setting says, even in a burst, and answers the rest 429 with Retry-After', async () => {
    const seller = await server.login('seller');
    const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => upload(seller, 'profilepics', [{ name: `${i}.png`, bytes: PNG }])));
    expect(burst.map((a) => a.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    for (const refused of burst.filter((a) => a.status === 429)) {
      const wait = Number(refused.headers.get('retry-after'));
      expect(Number.isInteger(wait) && wait >= 1 && wait <= 60).toBe(true);
      expect(refused.body).toEqual({
        message: 'Too many uploads',
        errors: { files: [`You can upload at most 3 times a minute. Try again in ${wait} second${wait === 1 ? '' : 's'}.`] },
      });
    }
    expect((await server.db.selectFrom('media').select('id').where('uploadedBy', '=', await userId(server, 'seller')).execute()).length).toBe(3);
  });

  it('counts each user on their own, and not admins', async () => {
    const agent = await server.login('agent');
    expect((await upload(agent, 'profilepics', [{ name: 'a.png', bytes: PNG }])).status).toBe(200);
    const admin = await server.login('admin');
    const burst = await Promise.all(Array.from({ length: 6 }, (_, i) => upload(admin, 'banners', [{ name: `${i}.png`, bytes: PNG }])));
    expect(burst.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });
});

describe('the upload limit settings', () => {
  it('default to 200 MB and 30 a minute, take UPLOAD_QUOTA_MB and UPLOAD_RATE_PER_MINUTE, and refuse nonsense', () => {
    expect(readConfig({}).uploadLimits).toEqual({ quotaBytes: 200 * MB, perMinute: 30 });
    expect(readConfig({ UPLOAD_QUOTA_MB: '0.5', UPLOAD_RATE_PER_MINUTE: '4' }).uploadLimits).toEqual({ quotaBytes: MB / 2, perMinute: 4 });
    for (const bad of ['-1', 'lots', '1e400']) expect(() => readConfig({ UPLOAD_QUOTA_MB: bad })).toThrow(/UPLOAD_QUOTA_MB/);
    for (const bad of ['2.5', '-3', 'x']) expect(() => readConfig({ UPLOAD_RATE_PER_MINUTE: bad })).toThrow(/UPLOAD_RATE_PER_MINUTE/);
  });
});
