/** Settings from the environment, with the defaults the README promises. */
import { dirname, join } from 'node:path';
import type { S3Settings } from './uploads/s3.ts';

export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  sqliteFile: string;
  seed: boolean;
  clientDir: string;
  /** Where uploaded files are kept. */
  uploads: UploadsConfig;
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

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    sqliteFile: env.SQLITE_FILE ?? 'data/marketplace.sqlite',
    seed: env.SEED !== '0',
    clientDir: env.CLIENT_DIR ?? 'dist',
    uploads: readUploadsConfig(env),
  };
}
