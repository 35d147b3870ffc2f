/** Starts the whole product on one port: migrate, seed an empty database, serve API and client. */
import { resolve } from 'node:path';
import { registry as allResources } from '../../resources/index.ts';
import { buildApp } from './app.ts';
import { closeOnSignals } from './lifecycle.ts';
import { readConfig, type Config } from './config.ts';
import { connect, exclusively } from './db/connect.ts';
import { migrate } from './db/migrate.ts';
import { DEMO_PASSWORD, demoEmail, seedIfEmpty } from './seed/index.ts';
import { ROLES, type Registry } from '../manifest/index.ts';

/**
 * The running server's log: errors only. A server error (5xx) is logged with its stack (the app's
 * error handler); requests themselves are logged at info level, so they are not.
 */
export const SERVER_LOGGER = { level: 'error' } as const;

/** `registry`: the resources to serve (tests add fixtures of their own to the real ones). */
export async function startServer(config: Config = readConfig(), registry: Registry = allResources) {
  const database = await connect({ url: config.databaseUrl, file: config.sqliteFile });
  // One node at a time: several started together against one PostgreSQL would race to create and seed.
  const seeded = await exclusively(database, async () => {
    await migrate(database, registry);
    return config.seed && (await seedIfEmpty(database.db, registry));
  });
  const { trustProxy, allowedOrigins, uploadLimits, signIn, connections } = config;
  const app = await buildApp({ database, registry, clientDir: resolve(config.clientDir), logger: SERVER_LOGGER, trustProxy, allowedOrigins, uploadLimits, signIn, connections });
  app.addHook('onClose', () => database.close());
  const address = await app.listen({ port: config.port, host: config.host });
  console.log(`Marketplace Admin is running at ${address} (${database.engine})`);
  if (seeded) console.log('Seeded demo data.');
  if (config.seed)
    console.log(`Demo accounts (password ${DEMO_PASSWORD}): ${ROLES.map(demoEmail).join(', ')}`);
  closeOnSignals(app);
  collectStartGarbage();
  return app;
}

/**
 * How long after the first of its two collections (`collectStartGarbage`) the server runs the second.
 * V8 gives the young generation back only when a collection finds little allocated since the one before
 * (under 1 kB a millisecond): the first, as the server begins to listen, has the whole start behind it and
 * leaves the young generation at 32 MiB; the second, with only an idle server's allocation since, takes it
 * to 1 MiB (read from the server's own `v8.getHeapSpaceStatistics()`).
 */
export const START_GC_DELAY_MS = 10_000;

/**
 * The garbage of starting (modules run once, the migration's checks, the seed) collected, and the young
 * generation it grew (32 MiB) given back: with V8's memory reducer off (node-flags.ts) nothing would,
 * until load came and went. One full collection as the server listens, another START_GC_DELAY_MS later;
 * an idle server then holds about 30 MiB less (docs/performance.md, "A lean process (issue 54)"). If load
 * has come by then, the second costs one full collection and the young generation stays as the load has
 * it. `gc` is there when node runs with `--expose-gc` (SERVER_NODE_FLAGS: `npm start`, the bench);
 * without it nothing is done.
 */
function collectStartGarbage() {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  gc();
  setTimeout(gc, START_GC_DELAY_MS).unref();
}
