/**
 * What every benchmark server process does once its routes are in place: answer its memory to the
 * bench, listen on an ephemeral loopback port, tell the parent which (one JSON line on stdout), and close
 * cleanly when told to stop.
 */
import type { FastifyInstance } from 'fastify';
import { closeOnSignals } from '../../src/server/lifecycle.ts';
import { MEMORY_PATH, type Memory } from './memory.ts';

const MB = 1024 * 1024;

/**
 * This process's memory in MiB: resident set and V8 heap in use, after a full collection when the
 * process runs with `--expose-gc` (the bench starts its servers so), so garbage not yet collected does
 * not count as held.
 */
function memory(): Memory {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rssMB: Math.round((rss / MB) * 10) / 10, heapUsedMB: Math.round((heapUsed / MB) * 10) / 10, collected: !!gc };
}

export async function listenAndAnnounce(app: FastifyInstance) {
  app.get(MEMORY_PATH, async () => memory());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
  closeOnSignals(app);
}
