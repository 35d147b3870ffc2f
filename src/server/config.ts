/** Settings from the environment, with the defaults the README promises. */
import { dirname, join } from 'node:path';
import type { S3Settings } from './uploads/s3.ts';
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from './uploads/limits.ts';
import { parseAllowedOrigins } from './csrf.ts';
import { DEFAULT_READ_CACHE_BYTES } from './db/read-cache.ts';
import { DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from './auth/limiter.ts';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connections.ts';

export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  sqliteFile: string;
  seed: boolean;
  clientDir: string;
  /** Where uploaded files are kept. */
  uploads: UploadsConfig;
  /** The upload quota and rate of users who are not admins (`UPLOAD_QUOTA_MB`, `UPLOAD_RATE_PER_MINUTE`). */
  uploadLimits: UploadLimits;
  /** Whether forwarded headers are believed (`TRUST_PROXY`, see `parseTrustProxy`). */
  trustProxy: TrustProxy;
  /** Origins besides the app's own that may change data (`ALLOWED_ORIGINS`, comma-separated). */
  allowedOrigins: string[];
  /** The most the read cache may hold, in bytes (`READ_CACHE_MB`, see `parseReadCacheBytes`). */
  readCacheBytes: number;
  /** How wrong passwords are spaced out (`SIGN_IN_DELAY`, `SIGN_IN_MAX_DELAY`, see `readSignInLimits`). */
  signIn: SignInLimits;
  /** Timeouts and the per-address connection cap (see `readConnectionLimits`). */
  connections: ConnectionLimits;
}

/** A number setting: unset or empty gives `fallback`; anything but a number of at least `min` stops the start. */
function numberSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, { min = 0, integer = false } = {}): number {
  const text = (env[name] ?? '').trim();
  if (text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value)))
    throw new Error(`${name} must be a${integer ? ' whole' : ''} number (${min} or more), not '${env[name]}'`);
  return value;
}

/**
 * `SIGN_IN_DELAY` (seconds, fractions allowed; default 1): how long the first failure past the free
 * ones holds back the next attempt at that account or from that address; it doubles with each further
 * failure up to `SIGN_IN_MAX_DELAY` (seconds; default 30), which is also the longest an attempt is held
 * before a flood's excess is refused (429). docs/security.md explains them.
 */
export function readSignInLimits(env: NodeJS.ProcessEnv = process.env): SignInLimits {
  const delayMs = numberSetting(env, 'SIGN_IN_DELAY', DEFAULT_SIGN_IN_LIMITS.delayMs / 1000, { min: 0.001 }) * 1000;
  const maxDelayMs = numberSetting(env, 'SIGN_IN_MAX_DELAY', Math.max(delayMs, DEFAULT_SIGN_IN_LIMITS.maxDelayMs) / 1000, { min: 0.001 }) * 1000;
  if (maxDelayMs < delayMs) throw new Error(`SIGN_IN_MAX_DELAY (${maxDelayMs / 1000}) must not be less than SIGN_IN_DELAY (${delayMs / 1000})`);
  return { ...DEFAULT_SIGN_IN_LIMITS, delayMs, maxDelayMs };
}

/**
 * `HEADERS_TIMEOUT` (seconds to send a request's headers; default 10), `REQUEST_TIMEOUT` (seconds to
 * send a whole request, body included; default 300), `KEEP_ALIVE_TIMEOUT` (seconds an idle connection
 * is kept; default 72) and `MAX_CONNECTIONS_PER_ADDRESS` (default 100; 0: no cap). Fractions of a second
 * are allowed; the headers must fit in the request's time.
 */
export function readConnectionLimits(env: NodeJS.ProcessEnv = process.env): ConnectionLimits {
  const seconds = (name: string, fallbackMs: number) => Math.round(numberSetting(env, name, fallbackMs / 1000, { min: 0.001 }) * 1000);
  const limits = {
    headersTimeoutMs: seconds('HEADERS_TIMEOUT', DEFAULT_CONNECTION_LIMITS.headersTimeoutMs),
    requestTimeoutMs: seconds('REQUEST_TIMEOUT', DEFAULT_CONNECTION_LIMITS.requestTimeoutMs),
    keepAliveTimeoutMs: seconds('KEEP_ALIVE_TIMEOUT', DEFAULT_CONNECTION_LIMITS.keepAliveTimeoutMs),
    maxConnectionsPerAddress: numberSetting(env, 'MAX_CONNECTIONS_PER_ADDRESS', DEFAULT_CONNECTION_LIMITS.maxConnectionsPerAddress, { integer: true }),
  };
  if (limits.headersTimeoutMs > limits.requestTimeoutMs)
    throw new Error(`HEADERS_TIMEOUT (${limits.headersTimeoutMs / 1000}) must not be more than REQUEST_TIMEOUT (${limits.requestTimeoutMs / 1000})`);
  return limits;
}

/**
 * `READ_CACHE_MB`: the most the cached read answers may weigh, in MiB (fractions allowed; 0 caches
 * nothing); unset or empty: 64. Anything else stops the start with a message.
 */
export function parseReadCacheBytes(value: string | undefined): number {
  const text = (value ?? '').trim();
  if (text === '') return DEFAULT_READ_CACHE_BYTES;
  const mb = Number(text);
  if (!Number.isFinite(mb) || mb < 0) throw new Error(`READ_CACHE_MB must be a number of MiB (0 or more), not '${value}'`);
  return Math.floor(mb * 1024 * 1024);
}

/** Fastify's `trustProxy`: which peers' `X-Forwarded-For/-Proto/-Host` headers are believed. */
export type TrustProxy = boolean | string;

/**
 * `TRUST_PROXY`: unset, `false` or `0`: forwarded headers are ignored (the default: anyone could send
 * them); the proxies' addresses or CIDRs, comma-separated (`loopback` for one on this machine);
 * `true`: any peer is believed (only when nothing but the proxy can reach the server). A hop count
 * is refused: Fastify cannot check the peer with one, so it would trust nobody.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text))
    throw new Error(`TRUST_PROXY: "${text}" is a hop count; give the proxies' addresses (e.g. loopback or 10.0.0.0/8) or true`);
  return text;
}

/**
 * Uploaded files go to a folder (`UPLOADS_DIR`, default `uploads/` beside the SQLite file, so
 * `data/uploads`), or to an S3-compatible bucket when `S3_BUCKET` is set.
 */
export interface UploadsConfig {
  dir: string;
  s3?: S3Settings;
}

export function readUploadsConfig(env: NodeJS.ProcessEnv = process.env): UploadsConfig {
  const sqliteFile = env.SQLITE_FILE ?? 'data/marketplace.sqlite';
  const dir = env.UPLOADS_DIR || join(sqliteFile === ':memory:' ? 'data' : dirname(sqliteFile), 'uploads');
  if (!env.S3_BUCKET) return { dir };
  const region = env.S3_REGION || 'us-east-1';
  const missing = ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].filter((name) => !env[name]);
  if (missing.length) throw new Error(`S3_BUCKET is set but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not`);
  return {
    dir,
    s3: {
      endpoint: env.S3_ENDPOINT || `https://s3.${region}.amazonaws.com`,
      bucket: env.S3_BUCKET,
      region,
      accessKeyId: env.S3_ACCESS_KEY_ID!,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
      publicUrl: env.S3_PUBLIC_URL || undefined,
    },
  };
}

/**
 * `UPLOAD_QUOTA_MB` (MiB of stored files per user who is not an admin, fractions allowed; default 200)
 * and `UPLOAD_RATE_PER_MINUTE` (their upload requests a minute; default 30). Admins have no limits.
 * Anything but a number of 0 or more stops the start with a message.
 */
export function readUploadLimits(env: NodeJS.ProcessEnv = process.env): UploadLimits {
  const read = (name: string, fallback: number, integer: boolean) => {
    const text = (env[name] ?? '').trim();
    if (text === '') return fallback;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value)))
      throw new Error(`${name} must be a${integer ? ' whole' : ''} number (0 or more), not '${env[name]}'`);
    return value;
  };
  return {
    quotaBytes: Math.floor(read('UPLOAD_QUOTA_MB', DEFAULT_UPLOAD_LIMITS.quotaBytes / 1024 / 1024, false) * 1024 * 1024),
    perMinute: read('UPLOAD_RATE_PER_MINUTE', DEFAULT_UPLOAD_LIMITS.perMinute, true),
  };
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    sqliteFile: env.SQLITE_FILE ?? 'data/marketplace.sqlite',
    seed: env.SEED !== '0',
    clientDir: env.CLIENT_DIR ?? 'dist',
    uploads: readUploadsConfig(env),
    uploadLimits: readUploadLimits(env),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    allowedOrigins: parseAllowedOrigins(env.ALLOWED_ORIGINS),
    readCacheBytes: parseReadCacheBytes(env.READ_CACHE_MB),
    signIn: readSignInLimits(env),
    connections: readConnectionLimits(env),
  };
}
