/**
 * The server as `npm start` runs it: settings from the environment (config.ts), then `startServer`.
 * scripts/build-server.ts compiles this file and everything it imports into one JavaScript file
 * (`dist-server/serve.js`), which scripts/start.js runs: no TypeScript loader and no Vite in the
 * serving process (docs/performance.md, "A lean process (issue 54)").
 */
import { startServer } from './main.ts';

await startServer();

// Started by scripts/start.js as its child (glibc: its malloc settings): when that parent is gone without
// passing a signal on (killed outright), this stops as on SIGTERM rather than serve on with no one above it.
if (process.channel) {
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
