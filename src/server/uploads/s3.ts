/**
 * S3-compatible storage (AWS S3, MinIO, Cloudflare R2, …) through plain `fetch`, its requests signed
 * with AWS Signature Version 4 by `aws4fetch`. Why that library and not `@aws-sdk/client-s3`: the
 * storage makes three plain object requests (PUT, GET, DELETE), which need a signer and nothing of
 * the SDK's clients, middleware stacks and credential chains; aws4fetch is one small dependency-free
 * file built on fetch and Web Crypto, widely used for exactly this (Cloudflare's R2 docs show it).
 * Objects are addressed path-style (`<endpoint>/<bucket>/<key>`), which every S3-compatible store
 * understands.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AwsClient } from 'aws4fetch';
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

export class S3Storage implements Storage {
  private readonly client: AwsClient;

  constructor(readonly settings: S3Settings) {
    // No retries of its own: a failed request fails the upload or the read it belongs to, as before.
    this.client = new AwsClient({
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
      region: settings.region,
      service: 's3',
      retries: 0,
    });
  }

  get location() {
    return `${this.settings.endpoint.replace(/\/+$/, '')}/${this.settings.bucket}`;
  }

  private objectUrl(path: string): string {
    return `${this.location}/${path.split('/').map(encodeURIComponent).join('/')}`;
  }

  private send(method: string, path: string, body?: Uint8Array, headers: Record<string, string> = {}) {
    // aws4fetch would sign an S3 body as UNSIGNED-PAYLOAD: its SHA-256, signed, lets the store refuse
    // bytes altered on the way even over plain HTTP.
    const payloadHash = createHash('sha256')
      .update(body ?? '')
      .digest('hex');
    return this.client.fetch(this.objectUrl(path), {
      method,
      headers: { ...headers, 'x-amz-content-sha256': payloadHash },
      body: body as BodyInit | undefined,
    });
  }

  async put(path: string, bytes: Uint8Array, mime: string) {
    const res = await this.send('PUT', path, bytes, { 'content-type': mime });
    if (!res.ok) throw new Error(`S3 PUT ${path} failed: ${res.status} ${await res.text().catch(() => '')}`.trim());
    await res.body?.cancel();
  }

  async remove(path: string) {
    const res = await this.send('DELETE', path);
    await res.body?.cancel();
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
