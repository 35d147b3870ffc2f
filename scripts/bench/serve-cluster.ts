/**
 * N nodes of our server behind one address: Node's cluster, its primary accepting on one port and
 * handing each connection to a worker in turn (round robin), each worker a whole server node over the
 * same PostgreSQL and Redis (a write on one is heard by the other: src/server/cluster). Over a database
 * the bench already seeded: no migration, no seed. Prints `{"port":…}` once every worker listens.
 *   tsx scripts/bench/serve-cluster.ts --workers 2 --url postgres://… --schema s
 */
import cluster from 'node:cluster';
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { workers: { type: 'string', default: '2' }, url: { type: 'string' }, schema: { type: 'string' } } });

if (cluster.isPrimary) {
  const workers = Number(values.workers);
  if (!Number.isInteger(workers) || workers < 1) throw new Error(`serve-cluster: --workers must be a whole number above 0, not '${values.workers}'`);
  if (!values.url) throw new Error('serve-cluster: --url is required');
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  // Round robin by the primary, not the kernel: the kernel's choice sent most connections to one worker.
  cluster.schedulingPolicy = cluster.SCHED_RR;
  let listening = 0;
  for (let i = 0; i < workers; i++) {
    const worker = cluster.fork({ BENCH_CLUSTER_PORT: String(port) });
    worker.on('message', (m: { listening?: boolean }) => {
      if (m.listening && ++listening === workers) console.log(JSON.stringify({ port }));
    });
    worker.on('exit', (code) => {
      if (code) console.error(`worker ${i + 1} exited with ${code}`);
    });
  }
  const stop = () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
    setTimeout(() => process.exit(0), 5000).unref();
    cluster.on('exit', () => {
      if (!Object.keys(cluster.workers ?? {}).length) process.exit(0);
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else {
  const { registry } = await import('../../resources/index.ts');
  const { buildApp } = await import('../../src/server/app.ts');
  const { connect } = await import('../../src/server/db/connect.ts');
  const { closeOnSignals } = await import('../../src/server/lifecycle.ts');
  const database = await connect({ url: values.url, schema: values.schema });
  const app = await buildApp({ database, registry, logger: false });
  app.addHook('onClose', () => database.close());
  app.addHook('onError', async (request, _reply, error) => {
    if (((error as { statusCode?: number }).statusCode ?? 500) >= 500) console.error(`${request.method} ${request.url}: ${error.stack}`);
  });
  await app.listen({ port: Number(process.env.BENCH_CLUSTER_PORT), host: '127.0.0.1' });
  closeOnSignals(app);
  process.send?.({ listening: true });
}
