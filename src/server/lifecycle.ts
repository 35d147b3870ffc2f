/** Shutting a server down cleanly on SIGINT/SIGTERM: open requests finish, the database closes. */
import type { FastifyInstance } from 'fastify';

export function closeOnSignals(app: FastifyInstance) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      void app.close().then(() => process.exit(0));
    });
}
