/**
 * The S3 storage's SigV4 signer against the example values AWS publishes in "Signature Calculations
 * for the Authorization Header" (docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html).
 */
import { describe, expect, it } from 'vitest';
import { readUploadsConfig } from '../../src/server/config.ts';
import { EMPTY_SHA256, S3Storage, sha256Hex, signRequest } from '../../src/server/uploads/s3.ts';

const key = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
  service: 's3',
};
const date = new Date('2013-05-24T00:00:00Z');

describe('signRequest (AWS SigV4 examples)', () => {
  it('GET Object with a Range header', () => {
    const signed = signRequest({
      method: 'GET',
      url: 'https://examplebucket.s3.amazonaws.com/test.txt',
      headers: { Range: 'bytes=0-9' },
      payloadHash: EMPTY_SHA256,
      date,
      key,
    });
    expect(signed.canonicalRequest).toBe(
      [
        'GET',
        '/test.txt',
        '',
        'host:examplebucket.s3.amazonaws.com',
        'range:bytes=0-9',
        `x-amz-content-sha256:${EMPTY_SHA256}`,
        'x-amz-date:20130524T000000Z',
        '',
        'host;range;x-amz-content-sha256;x-amz-date',
        EMPTY_SHA256,
      ].join('\n'),
    );
    expect(signed.stringToSign).toBe(
      'AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972',
    );
    expect(signed.signature).toBe('f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41');
    expect(signed.headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  it('PUT Object with a key that needs encoding and a payload hash', () => {
    const body = 'Welcome to Amazon S3.';
    expect(sha256Hex(body)).toBe('44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072');
    const signed = signRequest({
      method: 'PUT',
      url: 'https://examplebucket.s3.amazonaws.com/test$file.text',
      headers: { Date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY' },
      payloadHash: sha256Hex(body),
      date,
      key,
    });
    expect(signed.canonicalRequest.split('\n').slice(0, 2)).toEqual(['PUT', '/test%24file.text']);
    expect(signed.stringToSign.split('\n')[3]).toBe('9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d');
    expect(signed.signature).toBe('98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd');
  });

  it('GET Bucket lifecycle (a valueless query parameter)', () => {
    const signed = signRequest({ method: 'GET', url: 'https://examplebucket.s3.amazonaws.com/?lifecycle', payloadHash: EMPTY_SHA256, date, key });
    expect(signed.canonicalRequest.split('\n').slice(0, 3)).toEqual(['GET', '/', 'lifecycle=']);
    expect(signed.signature).toBe('fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543');
  });

  it('GET Bucket (list objects, query parameters sorted)', () => {
    const signed = signRequest({
      method: 'GET',
      url: 'https://examplebucket.s3.amazonaws.com/?prefix=J&max-keys=2',
      payloadHash: EMPTY_SHA256,
      date,
      key,
    });
    expect(signed.canonicalRequest.split('\n')[2]).toBe('max-keys=2&prefix=J');
    expect(signed.signature).toBe('34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7');
  });

  it('a wrong secret gives another signature', () => {
    const signed = signRequest({
      method: 'GET',
      url: 'https://examplebucket.s3.amazonaws.com/test.txt',
      headers: { Range: 'bytes=0-9' },
      payloadHash: EMPTY_SHA256,
      date,
      key: { ...key, secretAccessKey: key.secretAccessKey.replace('K', 'k') },
    });
    expect(signed.signature).not.toBe('f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41');
  });
});

describe('S3Storage', () => {
  it('sends signed path-style PUT, GET and DELETE requests', async () => {
    const seen: { url: string; method: string; headers: Record<string, string>; body?: unknown }[] = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      seen.push({ url, method: init.method!, headers: init.headers as Record<string, string>, body: init.body });
      if (init.method === 'GET') return new Response('abc', { status: 200, headers: { 'content-length': '3' } });
      if (init.method === 'DELETE') return new Response(null, { status: 404 });
      return new Response(null, { status: 200 });
    }) as typeof fetch;
    const storage = new S3Storage(
      { endpoint: 'http://127.0.0.1:9000/', bucket: 'media', region: 'auto', accessKeyId: 'id', secretAccessKey: 'secret' },
      fakeFetch,
      () => date,
    );
    const bytes = new Uint8Array([1, 2, 3]);
    await storage.put('banners/0123456789abcdef01234567.png', bytes, 'image/png');
    const file = await storage.read('banners/0123456789abcdef01234567.png');
    await storage.remove('banners/0123456789abcdef01234567.png');

    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'PUT http://127.0.0.1:9000/media/banners/0123456789abcdef01234567.png',
      'GET http://127.0.0.1:9000/media/banners/0123456789abcdef01234567.png',
      'DELETE http://127.0.0.1:9000/media/banners/0123456789abcdef01234567.png',
    ]);
    expect(seen[0].headers['x-amz-content-sha256']).toBe(sha256Hex(bytes));
    expect(seen[0].headers['content-type']).toBe('image/png');
    expect(seen[0].headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=id\/20130524\/auto\/s3\/aws4_request,SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date,Signature=[0-9a-f]{64}$/,
    );
    expect(seen[0].headers.host).toBeUndefined();
    expect(file?.size).toBe(3);
    expect(storage.url('banners/x.png')).toBeUndefined();
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
