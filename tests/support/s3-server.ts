/**
 * A real S3-compatible server on this machine for the S3 storage's tests: s3rver (objects in a
 * temporary folder) on 127.0.0.1 and an ephemeral port, with one bucket.
 *
 * s3rver checks a Signature V4 request's form and access key but not its signature ("V4 signatures
 * have incomplete support"), so in front of it every signed request is checked with AWS's own
 * signer (@smithy/signature-v4, what the AWS SDK signs with): a request whose signature AWS would
 * not accept is answered 403 SignatureDoesNotMatch, as S3 answers it.
 */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignatureV4 } from '@smithy/signature-v4';
import S3rver from 's3rver';

/** s3rver's one account. */
export const S3_ACCESS_KEY_ID = 'S3RVER';
export const S3_SECRET_ACCESS_KEY = 'S3RVER';
export const S3_REGION = 'us-east-1';

export interface S3TestServer {
  /** `http://127.0.0.1:<port>`, the storage's endpoint. */
  endpoint: string;
  bucket: string;
  /** Requests whose signature AWS's signer confirmed, and those it refused. */
  verified: number;
  refused: number;
  close(): Promise<void>;
}

type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytesOf = (data: SourceData) =>
  typeof data === 'string'
    ? Buffer.from(data)
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);

/** SHA-256 (and HMAC-SHA-256 with a secret) in the shape the signer asks for, from node:crypto. */
class Sha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(secret));
  }
  update(data: SourceData) {
    this.hash.update(bytesOf(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
  reset() {
    throw new Error('not used by the signer');
  }
}

const signer = new SignatureV4({
  credentials: { accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY },
  region: S3_REGION,
  service: 's3',
  sha256: Sha256,
  // S3 signs the object's key encoded once, RFC 3986 style, however the client spelled it in the
  // URL: the signer is handed the decoded path and encodes it (once) itself.
  uriEscapePath: true,
});

/** `20130524T000000Z` → its Date. */
const dateOf = (stamp: string) =>
  new Date(`${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`);

/** Whether AWS's signer, given the request's signed headers, computes the signature the request carries. */
async function signatureHolds(req: IncomingMessage): Promise<boolean> {
  const authorization = req.headers.authorization ?? '';
  const parts = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/\d{8}\/[^/]+\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(authorization);
  const stamp = req.headers['x-amz-date'];
  if (!parts || typeof stamp !== 'string' || parts[1] !== S3_ACCESS_KEY_ID) return false;
  // The scope's region is not taken from the request: S3 refuses a request signed for another region.
  const [, , signedHeaders, signature] = parts;
  const names = signedHeaders.split(';');
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = req.headers[name];
    if (value === undefined) return false;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) query[key] = value;
  const signed = await signer.sign(
    { method: req.method ?? 'GET', protocol: 'http:', hostname: url.hostname, port: Number(url.port), path: decodeURIComponent(url.pathname), query, headers },
    { signingDate: dateOf(stamp), signableHeaders: new Set(names) },
  );
  return String(signed.headers.authorization ?? signed.headers.Authorization).endsWith(`Signature=${signature}`);
}

export async function startS3Server(bucket = 'media'): Promise<S3TestServer> {
  const directory = mkdtempSync(join(tmpdir(), 'marketplace-s3-'));
  const s3 = new S3rver({ directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  await s3.configureBuckets();
  const handle = s3.callback();
  const counts = { verified: 0, refused: 0 };
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    // Unsigned requests (a public object URL) go to s3rver as they are.
    if (!req.headers.authorization) return handle(req, res);
    signatureHolds(req).then(
      (holds) => {
        if (holds) {
          counts.verified++;
          return handle(req, res);
        }
        counts.refused++;
        req.resume();
        res.writeHead(403, { 'content-type': 'application/xml' });
        res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code></Error>');
      },
      (error: Error) => {
        res.writeHead(500);
        res.end(String(error.stack));
      },
    );
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    get verified() {
      return counts.verified;
    },
    get refused() {
      return counts.refused;
    },
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      (s3 as unknown as { logger: { close(): void } }).logger.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
