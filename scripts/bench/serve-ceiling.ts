/**
 * The ceiling: a bare Fastify server on this machine answering constant JSON bodies, one route per
 * scenario, each body as large as our server's answer to it. The body is a Buffer made once and the
 * status line's headers are fixed in advance; the handler takes the reply over (`hijack`) and writes
 * both straight to the socket, so nothing runs per request but HTTP parsing, Fastify's routing (and,
 * for POST, reading the body: a server must read what it answers) and one write. Our server runs the
 * same Fastify and does all of that and more, so no data-backed server on this machine can beat it.
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
// The body is read (the connection is kept alive for the next request) but never parsed.
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
for (const r of routes) {
  const body = Buffer.from(r.body);
  const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };
  app.route({
    method: r.method,
    url: r.url,
    handler: (_request, reply) => {
      reply.hijack();
      reply.raw.writeHead(r.status, headers).end(body);
    },
  });
}
await listenAndAnnounce(app);
