/**
 * Our server alone in its own process, over a database the bench already seeded: no migration, no
 * seed. Prints one JSON line `{"port":…}` when it listens, and closes cleanly on SIGTERM. The bench runs
 * it compiled, as `npm start` runs the server (scripts/build-server.ts: `dist-server/bench-ours.js`):
 *   node dist-server/bench-ours.js --file /tmp/x.sqlite | --url postgres://… --schema s [--client-dir d]
 * (`tsx scripts/bench/serve-ours.ts …` runs the same from source.)
 */
import { parseArgs } from 'node:util';
import { registry } from '../../resources/index.ts';
import { buildApp } from '../../src/server/app.ts';
import { connect } from '../../src/server/db/connect.ts';
import { listenAndAnnounce } from './child-server.ts';

const { values } = parseArgs({
  options: { file: { type: 'string' }, url: { type: 'string' }, schema: { type: 'string' }, 'client-dir': { type: 'string' } },
});
if (!values.file && !values.url) throw new Error('serve-ours: --file or --url is required');

const database = await connect({ file: values.file, url: values.url, schema: values.schema });
const app = await buildApp({ database, registry, clientDir: values['client-dir'], logger: false });
app.addHook('onClose', () => database.close());
// The app logs nothing (a logger would cost every request); server errors still reach the bench's report.
app.addHook('onError', async (request, _reply, error) => {
  if (((error as { statusCode?: number }).statusCode ?? 500) >= 500) console.error(`${request.method} ${request.url}: ${error.stack}`);
});
await listenAndAnnounce(app);
