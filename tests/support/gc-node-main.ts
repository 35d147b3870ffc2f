/**
 * A server node as node-main.ts runs it, that also collects all its garbage on SIGUSR2 (run with
 * `--expose-gc`): memory tests read its resident set after a full collection, so what they compare is
 * what the process keeps, not where its collector happened to be.
 */
import { startServer } from '../../src/server/main.ts';

const gc = (globalThis as { gc?: (options?: { type: 'major'; execution: 'sync' }) => void }).gc;
if (!gc) throw new Error('gc-node-main.ts needs --expose-gc');
process.on('SIGUSR2', () => {
  gc();
  gc();
  process.stdout.write('gc done\n');
});

await startServer();
