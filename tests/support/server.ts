/**
 * A real server on an ephemeral port over a fresh database: SQLite in a temporary file, or, when
 * DATABASE_URL is set and `engine` asks for it, PostgreSQL in a schema of its own dropped afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { registry as allResources } from '../../resources/index.ts';
import { buildApp, type AppOptions } from '../../src/server/app.ts';
import { connect, dropSchema, type Database, type Engine } from '../../src/server/db/connect.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { DEMO_PASSWORD, demoEmail, seedIfEmpty } from '../../src/server/seed/index.ts';
import { urlOf, type Registry, type Role } from '../../src/manifest/index.ts';

/** The engines this machine can test: SQLite always, PostgreSQL when DATABASE_URL is set. */
export const engines: Engine[] = process.env.DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
if (!process.env.DATABASE_URL)
  console.warn('PostgreSQL API tests skipped: DATABASE_URL is not set (CI sets it; see .ci/run).');

export interface TestServer {
  url: string;
  app: FastifyInstance;
  /** The database under the server, for checks the API cannot show (what is stored). */
  db: Database['db'];
  /** Signs in as the demo account of a role and answers its session cookie. */
  login(role: Role): Promise<string>;
  /** JSON request to a declared path (under `/api/admin/v1`, or as is when it starts with `/api/`), with an optional session cookie. */
  api(
    method: string,
    path: string,
    options?: { cookie?: string; body?: unknown; query?: Record<string, unknown>; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

/** `app`: further `buildApp` options (e.g. `trustProxy`, `allowedOrigins`). */
export async function startTestServer(
  options: { engine?: Engine; catalogue?: boolean; clientDir?: string; registry?: Registry; app?: Partial<Omit<AppOptions, 'database' | 'registry'>> } = {},
): Promise<TestServer> {
  // A test's own resources (a fixture declared with the DSL) are served with the real ones.
  const registry = options.registry ?? allResources;
  const engine = options.engine ?? 'sqlite';
  const dir = mkdtempSync(join(tmpdir(), 'marketplace-test-'));
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const database =
    engine === 'postgres'
      ? await connect({ url: process.env.DATABASE_URL, schema })
      : await connect({ file: join(dir, 'test.sqlite') });
  await migrate(database, registry);
  await seedIfEmpty(database.db, registry, { catalogue: options.catalogue ?? false });
  // With REDIS_URL, each test server is a cluster of its own: test files running side by side on one
  // Redis must not hear each other's writes and notifications.
  // Wrong passwords are spaced out by tenths of a second, not a server's seconds (a test may override it).
  const signIn = { delayMs: 10, maxDelayMs: 100 };
  // Tests fire hundreds of requests at once from one address (bursts of creates, the fuzz): the per-address
  // cap, a defence against one client hoarding sockets, is tested on its own (slow-clients.test.ts).
  const connections = { maxConnectionsPerAddress: 0 };
  const app = await buildApp({ database, registry, clientDir: options.clientDir, uploadsDir: join(dir, 'uploads'), redisPrefix: `test_${schema}`, signIn, connections, ...options.app });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const cookies = new Map<Role, string>();

  const api: TestServer['api'] = async (method, path, { cookie, body, query, headers } = {}) => {
    const qs = query
      ? '?' + new URLSearchParams(Object.entries(query).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()
      : '';
    const res = await fetch(`${address}${urlOf(path)}${qs}`, {
      method,
      headers: { ...(cookie ? { cookie } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };

  return {
    url: address,
    app,
    db: database.db,
    api,
    async login(role) {
      const known = cookies.get(role);
      if (known) return known;
      const res = await fetch(`${address}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: demoEmail(role), password: DEMO_PASSWORD }),
      });
      if (res.status !== 200) throw new Error(`login as ${role} failed: ${res.status}`);
      const cookie = res.headers.get('set-cookie')!.split(';')[0];
      cookies.set(role, cookie);
      return cookie;
    },
    async close() {
      await app.close();
      await database.close();
      if (engine === 'postgres') await dropSchema(process.env.DATABASE_URL!, schema);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
