/**
 * The ceiling: a bare Fastify server on this machine answering constant JSON bodies, one route per
 * scenario, each body as large as our server's answer to it. Nothing but HTTP and Fastify's routing
 * (and JSON body parsing for POST) is left, so no data-backed server on this machine can beat it.
 *   tsx scripts/bench/serve-ceiling.ts <routes.json>   routes.json: [{ method, url, status, body }]
 * Prints one JSON line `{"port":…}` when it listens.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { listenAndAnnounce } from './child-server.ts';

interface ConstantRoute {
  method: 'GET' | 'POST';
  url: string;
  status: number;
  /** The exact answer text (already JSON). */
  body: string;
}

const routes = JSON.parse(readFileSync(process.argv[2], 'utf8')) as ConstantRoute[];
const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
for (const r of routes)
  app.route({
    method: r.method,
    url: r.url,
    handler: (_request, reply) => {
      reply.code(r.status).type('application/json; charset=utf-8').send(r.body);
    },
  });
await listenAndAnnounce(app);
