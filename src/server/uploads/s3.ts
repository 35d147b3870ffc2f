/**
 * S3-compatible storage (AWS S3, MinIO, Cloudflare R2, …) through plain `fetch` and AWS Signature
 * Version 4 header signing: no SDK. Objects are addressed path-style (`<endpoint>/<bucket>/<key>`),
 * which every S3-compatible store understands.
 */
import { createHash, createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Storage, StoredFile } from './storage.ts';

export interface S3Settings {
  /** `https://s3.eu-central-1.amazonaws.com`, `http://127.0.0.1:9000`, … (no bucket in it). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Where clients fetch stored objects directly; without it, the app serves them under ASSETS_PATH. */
  publicUrl?: string;
}

export interface SigningKey {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service: string;
}

export interface SignInput {
  method: string;
  url: string;
  /** Headers to send and sign (any case). `host`, `x-amz-date` and `x-amz-content-sha256` are added. */
  headers?: Record<string, string>;
  /** Hex SHA-256 of the body (`sha256Hex('')` for none), or 'UNSIGNED-PAYLOAD'. */
  payloadHash: string;
  date: Date;
  key: SigningKey;
}

export interface Signed {
  /** The headers to send, `authorization` included. */
  headers: Record<string, string>;
  canonicalRequest: string;
  stringToSign: string;
  signature: string;
}

export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it: everything but unreserved characters, `/` too. */
function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `20130524T000000Z` */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/** Signs a request with AWS Signature Version 4 (the Authorization header form). */
export function signRequest({ method, url, headers = {}, payloadHash, date, key }: SignInput): Signed {
  const target = new URL(url);
  const stamp = amzDate(date);
  const day = stamp.slice(0, 8);

  const all: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) all[name.toLowerCase()] = value;
  all.host ??= target.host;
  all['x-amz-date'] = stamp;
  all['x-amz-content-sha256'] = payloadHash;

  // S3 encodes each path segment once (keys are not double-encoded, unlike other services).
  const canonicalUri =
    target.pathname
      .split('/')
      .map((segment) => uriEncode(decodeURIComponent(segment)))
      .join('/') || '/';
  const canonicalQuery = [...target.searchParams.entries()]
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const names = Object.keys(all).sort();
  const canonicalHeaders = names.map((n) => `${n}:${all[n].trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  const canonicalRequest = [method.toUpperCase(), canonicalUri, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n');

  const scope = `${day}/${key.region}/${key.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', stamp, scope, sha256Hex(canonicalRequest)].join('\n');
  const kDate = hmac(`AWS4${key.secretAccessKey}`, day);
  const kSigning = hmac(hmac(hmac(kDate, key.region), key.service), 'aws4_request');
  const signature = createHmac('sha256', kSigning).update(stringToSign).digest('hex');

  return {
    headers: {
      ...all,
      authorization: `AWS4-HMAC-SHA256 Credential=${key.accessKeyId}/${scope},SignedHeaders=${signedHeaders},Signature=${signature}`,
    },
    canonicalRequest,
    stringToSign,
    signature,
  };
}

export class S3Storage implements Storage {
  private readonly key: SigningKey;

  constructor(
    readonly settings: S3Settings,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.key = { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey, region: settings.region, service: 's3' };
  }

  get location() {
    return `${this.settings.endpoint.replace(/\/+$/, '')}/${this.settings.bucket}`;
  }

  private objectUrl(path: string): string {
    return `${this.location}/${path.split('/').map(uriEncode).join('/')}`;
  }

  private send(method: string, path: string, body?: Uint8Array, headers: Record<string, string> = {}) {
    const url = this.objectUrl(path);
    const signed = signRequest({
      method,
      url,
      headers,
      payloadHash: body ? sha256Hex(body) : EMPTY_SHA256,
      date: this.now(),
      key: this.key,
    });
    // `host` is set by fetch itself (and may not be set by hand); it was signed as the URL's host.
    const { host: _host, ...send } = signed.headers;
    return this.fetchImpl(url, { method, headers: send, body: body as BodyInit | undefined });
  }

  async put(path: string, bytes: Uint8Array, mime: string) {
    // fetch sets Content-Length from the body itself; it is left out of the signed headers.
    const res = await this.send('PUT', path, bytes, { 'content-type': mime });
    if (!res.ok) throw new Error(`S3 PUT ${path} failed: ${res.status} ${await res.text().catch(() => '')}`.trim());
  }

  async remove(path: string) {
    const res = await this.send('DELETE', path);
    if (!res.ok && res.status !== 404) throw new Error(`S3 DELETE ${path} failed: ${res.status}`);
  }

  async read(path: string): Promise<StoredFile | undefined> {
    const res = await this.send('GET', path);
    if (res.status === 404 || res.status === 403) {
      await res.body?.cancel();
      return undefined;
    }
    if (!res.ok || !res.body) throw new Error(`S3 GET ${path} failed: ${res.status}`);
    const length = Number(res.headers.get('content-length'));
    return {
      stream: Readable.fromWeb(res.body as unknown as WebReadableStream),
      size: Number.isFinite(length) && length >= 0 && res.headers.has('content-length') ? length : undefined,
    };
  }

  url(path: string): string | undefined {
    const base = this.settings.publicUrl?.replace(/\/+$/, '');
    return base ? `${base}/${path}` : undefined;
  }
}
