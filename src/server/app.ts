/**
 * The Fastify app: auth, the routes the manifests declare, uploaded files (served under ASSETS_PATH),
 * and (when built) the client, all on one port. Takes an open database so tests can hand it a fresh one.
 */
import { existsSync } from 'node:fs';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { HookServices, Registry } from '../manifest/index.ts';
import { registerAuth } from './auth/routes.ts';
import { namedHandlers } from './handlers.ts';
import type { Database } from './db/types.ts';
import { HttpError, INTERNAL_ERROR } from './errors.ts';
import { uniqueViolation } from './db/unique.ts';
import { guardInput, MAX_PARAM_LENGTH, routerRefusal } from './input-guard.ts';
import { AUDIT_LOG, JOB_RUNS } from '../../resources/system.ts';
import { startJobRunner } from './records/jobs/index.ts';
import { ReadCache } from './db/read-cache.ts';
import { TableStatistics } from './db/table-statistics.ts';
import { NotificationHub } from '../features/notifications/server/hub.ts';
import { broadcast } from '../features/notifications/server/notify.ts';
// Web Push: `registerPush` starts its sender per app.
import { registerPush, type PushOptions } from '../features/push/server/index.ts';
import { registerManifestRoutes } from './routes/index.ts';
import { DEFAULT_REDIS_PREFIX, registerCluster } from './cluster/index.ts';
import { registerRealtime } from './realtime/index.ts';
import { registerFrontRoutes } from './front/index.ts';
import { securityHeaders } from './security.ts';
import { recordRoutes, registerDocs } from './openapi/index.ts';
import { parseReadCacheBytes, parseTrustProxy, readConnectionLimits, readSignInLimits, readUploadLimits, readUploadsConfig, type TrustProxy } from './config.ts';
import type { SignInLimits } from './auth/limiter.ts';
import { capConnectionsPerAddress, serverOptions, type ConnectionLimits } from './connections.ts';
import { parseAllowedOrigins, refuseCrossSiteWrites } from './csrf.ts';
import { LocalStorage, registerUploads, storageOf, type Storage, type UploadLimits } from './uploads/index.ts';

export interface AppOptions {
  database: Database;
  registry: Registry;
  /** The built client to serve (`dist/`); left out, only the API is served. */
  clientDir?: string;
  /** Fastify's logger: `false` (default), `true`, or options (`{ level: 'error' }`, a `stream` in tests). */
  logger?: FastifyServerOptions['logger'];
  /**
   * The folder uploaded files are kept in. Left out: `UPLOADS_DIR`, else an S3 bucket when `S3_BUCKET`
   * is set, else `uploads/` beside the SQLite file (see `readUploadsConfig`).
   */
  uploadsDir?: string;
  /** A storage of the caller's own (wins over `uploadsDir`). */
  storage?: Storage;
  /** Which proxies' forwarded headers are believed (client address, https). Left out: `TRUST_PROXY`. */
  trustProxy?: TrustProxy;
  /** Origins besides the app's own that may change data. Left out: `ALLOWED_ORIGINS`. */
  allowedOrigins?: string[];
  /** The most the read cache may hold, in bytes (0: no caching). Left out: `READ_CACHE_MB` (default 64 MiB). */
  readCacheBytes?: number;
  /** Upload quota and rate of users who are not admins; what is left out comes from `UPLOAD_QUOTA_MB` / `UPLOAD_RATE_PER_MINUTE`. */
  uploadLimits?: Partial<UploadLimits>;
  /** TESTS ONLY: lets subscriptions point at a stand-in push service on this machine (see `PushOptions`). */
  push?: PushOptions;
  /** Redis shared by the server nodes (socket.io's adapter, cross-node cache and session drops). Left out: `REDIS_URL`; none: one node. */
  redisUrl?: string;
  /** Names this cluster's Redis channels (clusters sharing one Redis need different ones). Left out: `REDIS_PREFIX`, else `marketplace`. */
  redisPrefix?: string;
  /** How wrong passwords are spaced out; what is left out comes from `SIGN_IN_DELAY` / `SIGN_IN_MAX_DELAY` and the defaults (auth/limiter.ts). */
  signIn?: Partial<SignInLimits>;
  /** Timeouts and the per-address connection cap; what is left out comes from `HEADERS_TIMEOUT` & co. (connections.ts). */
  connections?: Partial<ConnectionLimits>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The answers of reads kept between writes (its `size` and `bytes` show what it holds). */
    readCache: ReadCache;
    /** PostgreSQL: what analyses tables after bulk writes (db/table-statistics.ts); undefined on SQLite. */
    tableStatistics: TableStatistics | undefined;
  }
}

/** How long a PostgreSQL answer is kept while this node hears the other nodes' writes (see the read cache's `ttlWithPeersMs`). */
export const PEER_HEARD_TTL_MS = 60_000;

export async function buildApp({ database, registry, clientDir, logger = false, uploadsDir, storage, trustProxy = parseTrustProxy(process.env.TRUST_PROXY), allowedOrigins = parseAllowedOrigins(process.env.ALLOWED_ORIGINS), readCacheBytes = parseReadCacheBytes(process.env.READ_CACHE_MB), uploadLimits, push, redisUrl = process.env.REDIS_URL || undefined, redisPrefix = process.env.REDIS_PREFIX || DEFAULT_REDIS_PREFIX, signIn, connections }: AppOptions): Promise<FastifyInstance> {
  const limits = { ...readConnectionLimits(), ...connections };
  const app = Fastify({ logger, bodyLimit: 1024 * 1024, trustProxy, routerOptions: { maxParamLength: MAX_PARAM_LENGTH }, frameworkErrors: routerRefusal, ...serverOptions(limits) });
  capConnectionsPerAddress(app.server, limits.maxConnectionsPerAddress, trustProxy);
  // Before any route that may notify: the deliverers (socket, push) subscribe to this app's hub.
  app.decorate('notifications', new NotificationHub((error) => app.log.error(error)));
  await registerPush(app, database.db, push);
  // Before any route: the API document is tested against every route the app really has.
  recordRoutes(app);
  await app.register(fastifyCookie);
  securityHeaders(app);
  // First of the request hooks, so a forged request is refused before any session lookup, body or write.
  refuseCrossSiteWrites(app, allowedOrigins);
  // NUL characters and malformed hosts are refused for every route, before any of them reads a value.
  guardInput(app);

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    // A unique index refusing a write that raced another is the 409 the write's own check answers.
    const known = error instanceof HttpError ? error : uniqueViolation(error, registry);
    if (known)
      return reply.code(known.status).send(known.errors ? { message: known.message, errors: known.errors } : { message: known.message });
    const status = error.statusCode ?? 500;
    // Fastify's own 4xx (malformed JSON, wrong content type, body too large) keep their status and text.
    if (status < 500) return reply.code(status).send({ message: error.message });
    // Logged with its stack for whoever runs the server; the client learns nothing of the internals.
    request.log.error(error);
    return reply.code(500).send({ message: INTERNAL_ERROR });
  });

  registerAuth(app, database.db, registry, { ...readSignInLimits(), ...signIn });
  // Other nodes may write to a shared PostgreSQL; SQLite's file belongs to this process alone.
  // Every write appends an audit entry in its transaction (records/audit.ts): the log's answers go stale with it.
  // PostgreSQL: a table written in bulk is analysed after, so a large list's estimated total is close (count.ts).
  const statistics = database.engine === 'postgres' ? new TableStatistics(database.db, (error) => app.log.error(error)) : undefined;
  if (statistics) app.addHook('onClose', () => statistics.close());
  // PostgreSQL may be written by other nodes: an answer is trusted for a second, or, while this node hears
  // their writes over Redis (src/server/cluster), for a minute, against writes made outside every node.
  // (The shop's search at 50 connections over 50,000 products on PostgreSQL: p99 49 ms with a second, every
  // one of its few hundred searches read again each second; issue 53 point 5.)
  const postgres = database.engine === 'postgres';
  const cache = new ReadCache({ ttlMs: postgres ? 1000 : Number.POSITIVE_INFINITY, ttlWithPeersMs: postgres ? PEER_HEARD_TTL_MS : Number.POSITIVE_INFINITY, maxBytes: readCacheBytes, writtenByEveryWrite: [AUDIT_LOG, JOB_RUNS], written: statistics && ((table) => statistics.written(table)) });
  app.decorate('readCache', cache);
  app.decorate('tableStatistics', statistics);
  // The other nodes (REDIS_URL), then the realtime socket, whose adapter rides the same Redis.
  await registerCluster(app, redisUrl, redisPrefix);
  registerRealtime(app, { db: database.db, allowedOrigins, trustProxy });
  // What hooks may use besides records (HookServices): each module that offers a service fills its part.
  app.decorate('hookServices', {} as HookServices);
  await registerUploads(app, {
    db: database.db,
    registry,
    storage: storage ?? (uploadsDir ? new LocalStorage(uploadsDir) : storageOf(readUploadsConfig())),
    limits: { ...readUploadLimits(), ...uploadLimits },
  });
  registerManifestRoutes(app, database.db, registry, cache, namedHandlers);
  registerFrontRoutes(app, database.db, registry);
  registerDocs(app, registry);
  // Declared jobs: scheduled by the writes, run by this node until it closes.
  const jobs = await startJobRunner(database, registry, {
    log: { info: (m) => app.log.info(m), error: (e) => app.log.error(e) },
    changed: () => cache.invalidate(JOB_RUNS),
    invalidate: (table) => cache.invalidate(table),
    // A job telling a role (an auction won with its stock short): one notification for the role, as the system's.
    tell: async (toRole, notice) => void (await broadcast(app, { toRole, ...notice }, { db: database.db, registry })),
  });
  app.addHook('onClose', () => jobs.stop());

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
