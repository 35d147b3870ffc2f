/**
 * The S3 storage against a real S3-compatible server on this machine (s3rver, every signature checked
 * by AWS's own signer: tests/support/s3-server.ts): objects stored, read and removed through it, and
 * uploads through the HTTP route when the settings (S3_BUCKET, …) choose S3, on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSETS_PATH } from '../../src/manifest/uploads.ts';
import { readUploadsConfig } from '../../src/server/config.ts';
import { S3Storage } from '../../src/server/uploads/s3.ts';
import { S3_ACCESS_KEY_ID, S3_REGION, S3_SECRET_ACCESS_KEY, startS3Server, type S3TestServer } from '../support/s3-server.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});

const settings = (over: { secretAccessKey?: string } = {}) => ({
  endpoint: s3.endpoint,
  bucket: s3.bucket,
  region: S3_REGION,
  accessKeyId: S3_ACCESS_KEY_ID,
  secretAccessKey: S3_SECRET_ACCESS_KEY,
  ...over,
});

const bytesOf = async (storage: S3Storage, path: string) => {
  const file = await storage.read(path);
  if (!file) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(chunk as Buffer);
  return { bytes: Buffer.concat(chunks), size: file.size };
};

describe('S3Storage on an S3-compatible server', () => {
  it('puts, reads and removes an object', async () => {
    const storage = new S3Storage(settings());
    const path = 'banners/0123456789abcdef01234567.png';
    const verifiedBefore = s3.verified;

    await storage.put(path, PNG, 'image/png');
    const got = await bytesOf(storage, path);
    expect(got?.bytes.equals(PNG)).toBe(true);
    expect(got?.size).toBe(PNG.length);
    // The server keeps the type it was given.
    const head = await fetch(`${s3.endpoint}/${s3.bucket}/${path}`);
    expect(head.headers.get('content-type')).toBe('image/png');
    await head.body?.cancel();

    await storage.remove(path);
    expect(await storage.read(path)).toBeUndefined();
    // A file already gone is no error.
    await storage.remove(path);
    expect(s3.verified - verifiedBefore).toBe(5);
    expect(s3.refused).toBe(0);
  });

  it('keeps names that need encoding apart and whole', async () => {
    const storage = new S3Storage(settings());
    await storage.put('pagefile/a b+c(1)*.pdf', PDF, 'application/pdf');
    expect((await bytesOf(storage, 'pagefile/a b+c(1)*.pdf'))?.bytes.equals(PDF)).toBe(true);
    expect(await storage.read('pagefile/a b+c(1).pdf')).toBeUndefined();
    await storage.remove('pagefile/a b+c(1)*.pdf');
    expect(await storage.read('pagefile/a b+c(1)*.pdf')).toBeUndefined();
  });

  it('is refused with a wrong secret, and says so', async () => {
    const refusedBefore = s3.refused;
    const storage = new S3Storage(settings({ secretAccessKey: 'not-the-secret' }));
    await expect(storage.put('banners/111111111111111111111111.png', PNG, 'image/png')).rejects.toThrow(/S3 PUT banners\/111111111111111111111111\.png failed: 403/);
    expect(s3.refused).toBe(refusedBefore + 1);
    expect(await new S3Storage(settings()).read('banners/111111111111111111111111.png')).toBeUndefined();
  });
});

describe.each(engines)('uploads through HTTP with S3 configured (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  const names = ['S3_BUCKET', 'S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_PUBLIC_URL'] as const;
  const previous = Object.fromEntries(names.map((name) => [name, process.env[name]]));

  beforeAll(async () => {
    Object.assign(process.env, {
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_REGION,
      S3_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY,
    });
    delete process.env.S3_PUBLIC_URL;
    // No uploads folder of the test's own: the app picks its storage from the settings, as it starts.
    server = await startTestServer({ engine, app: { uploadsDir: undefined } });
    admin = await server.login('admin');
  });
  afterAll(async () => {
    await server?.close();
    // The api project shares its workers' environment across files: put it back.
    for (const name of names) {
      if (previous[name] === undefined) delete process.env[name];
      else process.env[name] = previous[name];
    }
  });

  it('stores the upload in the bucket, serves it back and removes it with its record', async () => {
    expect(server.app.uploads).toBeInstanceOf(S3Storage);
    expect(server.app.uploads.location).toBe(`${s3.endpoint}/${s3.bucket}`);

    const form = new FormData();
    form.append('endpoint', 'banners');
    form.append('files', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'a.png');
    const res = await fetch(`${server.url}/api/s3/upload`, { method: 'POST', headers: { cookie: admin }, body: form });
    expect(res.status).toBe(200);
    const [url] = (await res.json()) as string[];
    expect(url).toMatch(new RegExp(`^${server.url}${ASSETS_PATH}/banners/[0-9a-f]{24}\\.png$`));
    const path = new URL(url).pathname.slice(ASSETS_PATH.length + 1);

    // In the bucket itself, read with a storage of the test's own.
    const direct = new S3Storage(settings());
    expect((await bytesOf(direct, path))?.bytes.equals(PNG)).toBe(true);
    // And through the app, which reads it from the bucket.
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);

    const removed = await fetch(`${server.url}/api/local-upload/delete?file=${encodeURIComponent(path)}`, { method: 'DELETE', headers: { cookie: admin } });
    expect(removed.status).toBe(200);
    expect(await direct.read(path)).toBeUndefined();
    expect((await fetch(url)).status).toBe(404);
    expect(await server.db.selectFrom('media').select('id').where('path', '=', path).executeTakeFirst()).toBeUndefined();
  });
});

describe('readUploadsConfig', () => {
  it('keeps uploads beside the SQLite file unless UPLOADS_DIR says otherwise', () => {
    expect(readUploadsConfig({})).toEqual({ dir: 'data/uploads' });
    expect(readUploadsConfig({ SQLITE_FILE: '/var/lib/market/db.sqlite' })).toEqual({ dir: '/var/lib/market/uploads' });
    expect(readUploadsConfig({ UPLOADS_DIR: '/srv/files' }).dir).toBe('/srv/files');
  });

  it('uses an S3 bucket when S3_BUCKET is set, and insists on its keys', () => {
    expect(
      readUploadsConfig({ S3_BUCKET: 'media', S3_REGION: 'eu-central-1', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' }).s3,
    ).toEqual({
      endpoint: 'https://s3.eu-central-1.amazonaws.com',
      bucket: 'media',
      region: 'eu-central-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      publicUrl: undefined,
    });
    expect(() => readUploadsConfig({ S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'id' })).toThrow(/S3_SECRET_ACCESS_KEY is not/);
  });
});
