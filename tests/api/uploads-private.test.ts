/**
 * Private files (issue 50 part 5), on every engine: a document uploaded through the endpoint its field
 * declares (a seller's trade licence, a dealer's national id) is served only to whoever may read the
 * record holding it (the owner, the seller's dealer, an admin) and to its uploader, never cached; to
 * anyone else, signed in or not, its URL answers 404 exactly as a URL that names no file. The files
 * of public endpoints are still served to anyone.
 */
import { signInAs } from './fixtures/catalogue.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dealerDocuments, sellerDocuments } from '../../resources/account-documents.ts';
import { ASSETS_PATH, isPrivateEndpoint } from '../../src/manifest/uploads.ts';
import { demoEmail } from '../../src/server/seed/index.ts';
import { SECOND_DEALER_EMAIL, SECOND_SELLER_EMAIL } from '../../src/server/seed/people.ts';
import { gracefulShutdown } from '../../src/server/lifecycle.ts';
import { S3Storage } from '../../src/server/uploads/s3.ts';
import { S3_ACCESS_KEY_ID, S3_REGION, S3_SECRET_ACCESS_KEY, startS3Server, type S3TestServer } from '../support/s3-server.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** The endpoint a resource's `file` field uploads to, as the upload widget sends it. */
const endpointOf = (r: typeof sellerDocuments) => r.fields.find((f) => f.name === 'file')!.upload!.endpoint;

describe.each(engines)('private files (%s)', (engine) => {
  let server: TestServer;
  let shutdown: () => Promise<unknown>;
  const who: Record<'admin' | 'seller' | 'dealer' | 'seller2' | 'dealer2' | 'agent' | 'user', string> = {} as never;

  const signIn = (email: string) => signInAs(server, email);
  const upload = async (cookie: string, endpoint: string, name: string, bytes: Buffer) => {
    const form = new FormData();
    form.append('endpoint', endpoint);
    form.append('files', new Blob([new Uint8Array(bytes)]), name);
    const res = await fetch(`${server.url}/api/s3/upload`, { method: 'POST', headers: { cookie }, body: form });
    expect(res.status).toBe(200);
    return ((await res.json()) as string[])[0];
  };
  /** GET of a file's URL as `cookie` (or nobody): status, caching and body. */
  const fetchFile = async (url: string, cookie?: string) => {
    const res = await fetch(url, { headers: cookie ? { cookie } : {} });
    return { status: res.status, cache: res.headers.get('cache-control'), body: Buffer.from(await res.arrayBuffer()) };
  };
  /** Who gets the file (200, its bytes, not cached) and who a 404 identical to a missing file's. */
  const expectServedOnlyTo = async (url: string, bytes: Buffer, allowed: (keyof typeof who)[]) => {
    const missing = await fetchFile(url.replace(/[0-9a-f]{24}/, '0'.repeat(24)), who.admin);
    expect(missing.status).toBe(404);
    for (const name of [undefined, ...Object.keys(who)] as (keyof typeof who | undefined)[]) {
      const got = await fetchFile(url, name && who[name]);
      if (name && allowed.includes(name)) {
        expect([name, got.status, got.cache]).toEqual([name, 200, 'private, no-store']);
        expect(got.body.equals(bytes)).toBe(true);
      } else {
        expect([name ?? 'nobody', got.status]).toEqual([name ?? 'nobody', 404]);
        expect(got.body.toString()).toBe(missing.body.toString());
      }
    }
  };

  beforeAll(async () => {
    server = await startTestServer({ engine });
    shutdown = gracefulShutdown(server.app, { log: () => {} });
    for (const role of ['admin', 'seller', 'dealer', 'agent', 'user'] as const) who[role] = await server.login(role);
    who.seller2 = await signIn(SECOND_SELLER_EMAIL);
    who.dealer2 = await signIn(SECOND_DEALER_EMAIL);
  }, 120_000);
  afterAll(async () => {
    await shutdown?.();
    await server?.close();
  });

  it('declares account documents private', () => {
    expect(isPrivateEndpoint(endpointOf(sellerDocuments))).toBe(true);
    expect(isPrivateEndpoint(endpointOf(dealerDocuments))).toBe(true);
  });

  it("serves a seller's document to the seller, the seller's dealer and admins only", async () => {
    const url = await upload(who.seller, endpointOf(sellerDocuments), 'licence.pdf', PDF);
    expect(new URL(url).pathname.startsWith(`${ASSETS_PATH}/`)).toBe(true);
    // Uploaded and not yet filed: only its uploader (and the admins, who read every upload's record).
    await expectServedOnlyTo(url, PDF, ['seller', 'admin']);

    const filed = await server.api('POST', '/sellers/documents', { cookie: who.seller, body: { kind: 'TRADE_LICENCE', file: url } });
    expect(filed.status).toBe(201);
    // The record's readers: its owner, the dealer whose team the seller is in, admins.
    await expectServedOnlyTo(url, PDF, ['seller', 'dealer', 'admin']);

    // The record's decision, read as it is now: the seller moved to another dealer's team takes the
    // file out of the first dealer's reach and into the second's at once.
    const sellerRow = await server.db.selectFrom('users').select(['id', 'dealerId']).where('email', '=', demoEmail('seller')).executeTakeFirstOrThrow();
    const dealer2Id = (await server.db.selectFrom('users').select('id').where('email', '=', SECOND_DEALER_EMAIL).executeTakeFirstOrThrow()).id;
    await server.db.updateTable('users').set({ dealerId: dealer2Id }).where('id', '=', sellerRow.id).execute();
    await expectServedOnlyTo(url, PDF, ['seller', 'dealer2', 'admin']);
    await server.db.updateTable('users').set({ dealerId: sellerRow.dealerId }).where('id', '=', sellerRow.id).execute();

    // A public endpoint's file (a profile picture) is still anyone's, cached.
    const picture = await fetchFile(await upload(who.seller, 'profilepics', 'me.png', PNG));
    expect([picture.status, picture.cache]).toEqual([200, 'public, max-age=3600']);
  });

  it("serves a dealer's document to that dealer and admins only, whatever host its URL names", async () => {
    const url = await upload(who.dealer2, endpointOf(dealerDocuments), 'id.png', PNG);
    // The record keeps the URL as a proxy in front of the server would have answered it.
    const kept = `https://admin.example.com${new URL(url).pathname}`;
    const filed = await server.api('POST', '/dealers/documents', { cookie: who.dealer2, body: { kind: 'NATIONAL_ID', file: kept } });
    expect(filed.status).toBe(201);
    await expectServedOnlyTo(url, PNG, ['dealer2', 'admin']);
  });
});

describe('private files in an S3 bucket with a public URL', () => {
  let s3: S3TestServer;
  let server: TestServer;
  beforeAll(async () => {
    s3 = await startS3Server();
    const storage = new S3Storage({
      endpoint: s3.endpoint,
      bucket: s3.bucket,
      region: S3_REGION,
      accessKeyId: S3_ACCESS_KEY_ID,
      secretAccessKey: S3_SECRET_ACCESS_KEY,
      publicUrl: 'https://cdn.example.com/media',
    });
    server = await startTestServer({ app: { storage } });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  it("hands out this server's URL for a private file, never the bucket's public one, and serves it only to its readers", async () => {
    const seller = await server.login('seller');
    const upload = async (endpoint: string, bytes: Buffer, name: string) => {
      const form = new FormData();
      form.append('endpoint', endpoint);
      form.append('files', new Blob([new Uint8Array(bytes)]), name);
      const res = await fetch(`${server.url}/api/s3/upload`, { method: 'POST', headers: { cookie: seller }, body: form });
      expect(res.status).toBe(200);
      return ((await res.json()) as string[])[0];
    };
    expect(await upload('profilepics', PNG, 'me.png')).toMatch(/^https:\/\/cdn\.example\.com\/media\/profilepics\//);
    const url = await upload(endpointOf(sellerDocuments), PDF, 'licence.pdf');
    expect(url.startsWith(`${server.url}${ASSETS_PATH}/`)).toBe(true);
    const got = await fetch(url, { headers: { cookie: seller } });
    expect([got.status, got.headers.get('cache-control')]).toEqual([200, 'private, no-store']);
    expect(Buffer.from(await got.arrayBuffer()).equals(PDF)).toBe(true);
    const other = await fetch(url, { headers: { cookie: await server.login('user') } });
    expect(other.status).toBe(404);
    await other.arrayBuffer();
  });
});
