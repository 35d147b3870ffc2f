/**
 * A stand-in for a browser's push service (the one boundary tests cannot reach: FCM, Mozilla's,
 * Apple's): a real HTTPS server on 127.0.0.1 with a self-signed certificate made by `openssl` for the
 * test, recording every request and answering as told (201, 404, 410, a redirect). Beside it, what a
 * browser holds for a subscription (a P-256 key pair and an auth secret) and how it decrypts a push
 * (RFC 8291, aes128gcm) and how a push service checks its VAPID signature (RFC 8292), so a test reads
 * what the server really sent.
 */
import { execFileSync } from 'node:child_process';
import { createECDH, createDecipheriv, createHmac, createPublicKey, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A name the certificate also holds. Nothing resolves it but a test's own resolver (`.test` is reserved),
 * so a request that reaches the stand-in under it went to the address the server pinned.
 */
export const PUSH_SERVICE_NAME = 'push-service.test';

export interface PushRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface PushService {
  /** https://127.0.0.1:<port> */
  origin: string;
  port: number;
  /** The certificate to trust (buildApp's `push.ca`). */
  cert: string;
  requests: PushRequest[];
  /** What the next requests to `path` are answered (default 201). */
  answer(path: string, reply: { status: number; location?: string }): void;
  close(): Promise<void>;
}

export async function startPushService(): Promise<PushService> {
  const dir = mkdtempSync(join(tmpdir(), 'push-service-'));
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-addext', `subjectAltName=IP:127.0.0.1,DNS:${PUSH_SERVICE_NAME}`, '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
    { stdio: 'ignore' },
  );
  const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  const key = readFileSync(join(dir, 'key.pem'), 'utf8');
  rmSync(dir, { recursive: true, force: true });
  const requests: PushRequest[] = [];
  const answers = new Map<string, { status: number; location?: string }>();
  const server: Server = createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      requests.push({ method: req.method ?? '', path, headers: req.headers, body: Buffer.concat(chunks) });
      const reply = answers.get(path) ?? { status: 201 };
      res.writeHead(reply.status, reply.location ? { location: reply.location } : {});
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    origin: `https://127.0.0.1:${port}`,
    port,
    cert,
    requests,
    answer: (path, reply) => answers.set(path, reply),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** What a browser keeps for one subscription, and the JSON it hands the page (`PushSubscription.toJSON()`). */
export function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  const publicKey = ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    json: { endpoint, expirationTime: null, keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') } },
  };
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** Decrypts an aes128gcm push body (RFC 8188 framing, RFC 8291 keys) as the browser would. */
export function decryptPush(body: Buffer, browser: { ecdh: ReturnType<typeof createECDH>; auth: Buffer }): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20];
  const serverKey = body.subarray(21, 21 + idLength);
  const records = body.subarray(21 + idLength);
  if (records.length > recordSize) throw new Error('more than one record: not what web-push sends');
  const shared = browser.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.ecdh.getPublicKey(), serverKey, Buffer.from([1])]);
  const ikm = hmac(hmac(browser.auth, shared), keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 2, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/**
 * Checks a push request's `Authorization: vapid t=<JWT>, k=<key>` as a push service does: the key is
 * `publicKey`, the ES256 signature verifies with it, `aud` is the push service's origin, `exp` is in the
 * future (at most 24 h). Answers the JWT's claims.
 */
export function verifyVapid(authorization: string | undefined, publicKey: string, audience: string): { aud: string; exp: number; sub: string } {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`not a vapid authorization: ${authorization}`);
  const [, jwt, k] = match;
  if (k !== publicKey) throw new Error('signed with another key');
  const [header, claims, signature] = jwt.split('.');
  const raw = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  if (JSON.parse(Buffer.from(header, 'base64url').toString()).alg !== 'ES256') throw new Error('not ES256');
  if (!verify('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url')))
    throw new Error('bad signature');
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString());
  const now = Date.now() / 1000;
  if (body.aud !== audience) throw new Error(`aud ${body.aud}, expected ${audience}`);
  if (!(body.exp > now && body.exp <= now + 24 * 3600 + 60)) throw new Error(`exp ${body.exp} out of range`);
  return body;
}
