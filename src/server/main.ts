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
  return app;
}
