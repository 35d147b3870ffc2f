/**
 * The Fastify app: auth, the routes the manifests declare, uploaded files (served under ASSETS_PATH),
 * and (when built) the client, all on one port. Takes an open database so tests can hand it a fresh one.
 */
import { existsSync } from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { Registry } from '../manifest/index.ts';
import { registerAuth } from './auth/routes.ts';
import type { Database } from './db/connect.ts';
import { HttpError } from './errors.ts';
import { ReadCache } from './db/read-cache.ts';
import { registerManifestRoutes } from './routes/index.ts';
import { securityHeaders } from './security.ts';
import { readUploadsConfig } from './config.ts';
import { LocalStorage, registerUploads, storageOf, type Storage } from './uploads/index.ts';

export interface AppOptions {
  database: Database;
  registry: Registry;
  /** The built client to serve (`dist/`); left out, only the API is served. */
  clientDir?: string;
  logger?: boolean;
  /**
   * The folder uploaded files are kept in. Left out: `UPLOADS_DIR`, else an S3 bucket when `S3_BUCKET`
   * is set, else `uploads/` beside the SQLite file (see `readUploadsConfig`).
   */
  uploadsDir?: string;
  /** A storage of the caller's own (wins over `uploadsDir`). */
  storage?: Storage;
}

export async function buildApp({ database, registry, clientDir, logger = false, uploadsDir, storage }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger, bodyLimit: 1024 * 1024, trustProxy: false });
  await app.register(fastifyCookie);
  securityHeaders(app);

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    if (error instanceof HttpError)
      return reply.code(error.status).send(error.errors ? { message: error.message, errors: error.errors } : { message: error.message });
    const status = error.statusCode ?? 500;
    // Fastify's own 4xx (malformed JSON, wrong content type, body too large) keep their status and text.
    if (status < 500) return reply.code(status).send({ message: error.message });
    request.log.error(error);
    return reply.code(500).send({ message: 'Internal server error.' });
  });

  registerAuth(app, database.db, registry);
  // Other nodes may write to a shared PostgreSQL; SQLite's file belongs to this process alone.
  const cache = new ReadCache(database.engine === 'postgres' ? 1000 : Number.POSITIVE_INFINITY);
  await registerUploads(app, {
    db: database.db,
    storage: storage ?? (uploadsDir ? new LocalStorage(uploadsDir) : storageOf(readUploadsConfig())),
  });
  registerManifestRoutes(app, database.db, registry, cache);

  if (clientDir && existsSync(clientDir)) {
    await app.register(fastifyStatic, { root: clientDir, wildcard: false, index: ['index.html'] });
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET' || !clientDir || !existsSync(clientDir))
      return reply.code(404).send({ message: 'Not found.' });
    // The client routes in the browser: every other page is the app's index.
    return reply.type('text/html').sendFile('index.html');
  });
  return app;
}
