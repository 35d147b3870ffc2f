/**
 * What every benchmark server process does once its routes are in place: listen on an ephemeral
 * loopback port, tell the parent which (one JSON line on stdout), and close cleanly when told to stop.
 */
import type { FastifyInstance } from 'fastify';
import { closeOnSignals } from '../../src/server/lifecycle.ts';

export async function listenAndAnnounce(app: FastifyInstance) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
  closeOnSignals(app);
}
