/**
 * Platformatic DB alone in its own process, on Node 22, for the bench (platformatic.ts starts it):
 *   <node 22> serve-platformatic.mjs <file URL of @platformatic/db's entry>
 * with BENCH_PLT_DATABASE_URL (PostgreSQL) and PGOPTIONS='-c search_path=<its schema>' in the environment.
 * Its configuration is what a platformatic.json of a DB app would hold (`db.connectionString`, no
 * migrations: the bench made its table), given to the documented programmatic `create()`. Prints one JSON
 * line `{"port":…}` once it listens; closes on SIGTERM. Plain JavaScript: it runs outside the project's
 * TypeScript loader, on another Node.
 */
const [entry] = process.argv.slice(2);
const connectionString = process.env.BENCH_PLT_DATABASE_URL;
if (!entry || !connectionString) throw new Error('serve-platformatic: the entry of @platformatic/db and BENCH_PLT_DATABASE_URL are required');

const { create } = await import(entry);
const app = await create(process.cwd(), {
  server: { hostname: '127.0.0.1', port: 0, logger: { level: 'error' } },
  db: {
    connectionString,
    poolSize: 10,
    graphql: false,
    openapi: true,
    events: false,
    autoTimestamp: { createdAt: 'createdAt', updatedAt: 'updatedAt' },
  },
});
const url = await app.start({ listen: true });
console.log(JSON.stringify({ port: Number(new URL(url).port) }));

let closing = false;
const close = async () => {
  if (closing) return;
  closing = true;
  await app.stop().catch(() => {});
  process.exit(0);
};
process.once('SIGTERM', close);
process.once('SIGINT', close);
