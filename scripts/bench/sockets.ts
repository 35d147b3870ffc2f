/**
 * `npm run bench -- --sockets N [--per-client K] [--concurrency C]`: N signed-in socket clients (each
 * its own account and session) split across two server nodes sharing PostgreSQL and Redis (with
 * DATABASE_URL and REDIS_URL; else one SQLite node, said so), each sent K notifications of its own
 * through the real route (`POST /api/notifications/enhanced`, half through each node, C at a time).
 *
 * Delivery latency is from sending the create request to the socket receiving the notification (the
 * whole path: HTTP, the write, the hub, the Redis adapter when the socket is on the other node); also
 * from the notification's `createdAt` (ms resolution). Counted: arrived, lost (not arrived 5 s after the
 * last answer), misdelivered (a socket got another user's). Written into results.json under "sockets"
 * (the file's other keys are kept). Goal (issue 11): p99 ≤ 50 ms, none lost, none misdelivered.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { execSync } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Agent, request } from 'node:http';
import type { Socket } from 'socket.io-client';
import { connect } from '../../src/server/db/connect.ts';
import { benchAccounts } from './accounts.ts';
import { SOCKET_EVENTS, type NotificationWire } from '../../src/features/notifications/contract.ts';
import { signInAt, startCluster, type Cluster } from '../../tests/support/nodes.ts';
import { connected, openSocket } from '../../tests/support/realtime.ts';
import { buildServer } from '../build-server.ts';
import { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../../src/server/node-flags.ts';

export const SOCKETS_GOAL_P99_MS = 50;

export interface SocketsOptions {
  clients: number;
  perClient: number;
  concurrency: number;
  out: string;
  log?: (line: string) => void;
}

interface Client {
  index: number;
  userId: string;
  node: number;
  socket: Socket;
  /** When each of its notifications was asked for, and whether through the other node, by its number. */
  sent: Map<number, { at: number; across: boolean }>;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null);
/** POSTs `body` as JSON with the session `cookie` on `agent`'s kept connections; answers the status once the answer is read. */
function post(agent: Agent, url: string, cookie: string, body: unknown): Promise<number> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const round = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);
const uptime = () => {
  try {
    return execSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`;
  }
};

export async function benchSockets({ clients, perClient, concurrency, out, log = console.log }: SocketsOptions): Promise<number> {
  const clusterable = !!process.env.DATABASE_URL?.startsWith('postgres') && !!process.env.REDIS_URL;
  const nodeCount = clusterable ? 2 : 1;
  const fallback = clusterable ? undefined : 'DATABASE_URL (PostgreSQL) and REDIS_URL are not both set: one SQLite node, no Redis';
  if (fallback) log(`sockets: ${fallback}.`);
  log(`sockets: ${clients} clients on ${nodeCount} node(s), ${perClient} notification(s) each, ${concurrency} creates at a time; ${uptime()}`);
  const loadAtStart = uptime();
  let cluster: Cluster | undefined;
  const sockets: Socket[] = [];
  const agentsMade: Agent[] = [];
  try {
    // Every client comes from this one address: the per-address cap (100 by default, a guard against one
    // client hoarding sockets) would refuse the 101st.
    // The nodes run as `npm start` runs the server: compiled ahead (dist-server/serve.js), with its Node.js
    // flags and, on glibc, its malloc setting (node-flags.ts); through tsx they paid for the loader too.
    const env = { MAX_CONNECTIONS_PER_ADDRESS: '0', ...(process.platform === 'linux' ? SERVER_MALLOC_ENV : {}) };
    const entry = (await buildServer()).files.serve;
    // BENCH_CPU_PROF=<folder>: each node writes a V8 CPU profile there when it stops.
    const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
    const nodeArgs = [...SERVER_NODE_FLAGS, ...profile];
    cluster = await startCluster(nodeCount, clusterable ? { env, entry, nodeArgs } : { databaseUrl: 'sqlite', env, entry, nodeArgs });
    const urls = cluster.nodes.map((n) => n.url);

    // The accounts and sessions, written straight into the nodes' database (signing 1,000 people in
    // through the rate-limited sign-in would measure the limiter).
    const database = await connect(
      cluster.sqliteFile ? { file: cluster.sqliteFile } : { url: process.env.DATABASE_URL, schema: cluster.schema },
    );
    const users = await benchAccounts(database.db, clients, 'user', 'Bench Client');
    const tokens = users.map((u) => u.cookie.slice('sid='.length));
    await database.close();

    // Connected in batches, alternating nodes.
    const all: Client[] = [];
    let misdelivered = 0;
    const latencies: number[] = [];
    const sinceCreated: number[] = [];
    /** Created through the node the socket is not on: the Redis adapter carried it. */
    const across: number[] = [];
    let arrived = 0;
    for (let i = 0; i < clients; i += 50) {
      const batch = users.slice(i, i + 50).map(async (user, j) => {
        const index = i + j;
        const node = index % urls.length;
        const socket = openSocket(urls[node], { cookie: `sid=${tokens[index]}` });
        sockets.push(socket);
        const client: Client = { index, userId: user.id, node, socket, sent: new Map() };
        socket.on(SOCKET_EVENTS.notification, (n: NotificationWire) => {
          const at = performance.now();
          const match = /^bench (\d+)\/(\d+)$/.exec(n.title);
          if (n.userId !== client.userId || !match || Number(match[1]) !== index) return void misdelivered++;
          const asked = client.sent.get(Number(match[2]));
          if (asked === undefined) return;
          client.sent.delete(Number(match[2]));
          arrived++;
          latencies.push(at - asked.at);
          if (asked.across) across.push(at - asked.at);
          sinceCreated.push(Date.now() - Date.parse(n.createdAt));
        });
        await connected(socket);
        all.push(client);
      });
      await Promise.all(batch);
    }
    log(`  ${all.length} sockets connected`);

    const admins = await Promise.all(urls.map((url) => signInAt(url, 'admin')));
    // The creates are sent with node:http on kept-alive connections, one a lane: with `fetch` this process
    // (which also times every arrival) ran its event loop late by 17 ms at p99 while sending, 8-11 ms since
    // (2026-12-07, docs/performance.md "Sockets").
    const agents = urls.map(() => new Agent({ keepAlive: true, maxSockets: concurrency }));
    agentsMade.push(...agents);
    const jobs = all.flatMap((client) => Array.from({ length: perClient }, (_, k) => ({ client, k })));
    // Interleaved so each node creates for sockets on both nodes.
    jobs.sort((x, y) => x.k - y.k || x.client.index - y.client.index);
    let next = 0;
    let failed = 0;
    // This process times each arrival when its event loop gets to it: how late its loop ran while sending
    // (1,000 clients' messages and the creates' requests) is part of every figure, and said beside them.
    const lateness = monitorEventLoopDelay({ resolution: 1 });
    lateness.enable();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async (_, lane) => {
        while (next < jobs.length) {
          const { client, k } = jobs[next++];
          const via = (client.index + k + lane) % urls.length;
          client.sent.set(k, { at: performance.now(), across: via !== client.node });
          const status = await post(agents[via], `${urls[via]}/api/notifications/enhanced`, admins[via], {
            title: `bench ${client.index}/${k}`,
            message: 'A benchmark notification.',
            type: 'info',
            userId: client.userId,
          });
          if (status !== 201) {
            failed++;
            client.sent.delete(k);
          }
        }
      }),
    );
    const sendSeconds = (performance.now() - started) / 1000;
    // Whatever has not arrived 5 s after the last answer is lost.
    const deadline = Date.now() + 5_000;
    while (arrived + failed < jobs.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const lost = jobs.length - failed - arrived;
    lateness.disable();
    const loopDelayMs = { p50: round(lateness.percentile(50) / 1e6), p99: round(lateness.percentile(99) / 1e6), max: round(lateness.max / 1e6) };

    latencies.sort((a, b) => a - b);
    sinceCreated.sort((a, b) => a - b);
    across.sort((a, b) => a - b);
    const result = {
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version },
      engine: clusterable ? 'postgres' : 'sqlite',
      nodes: nodeCount,
      ...(fallback ? { fallback } : {}),
      clients,
      connected: all.length,
      perClient,
      concurrency,
      sent: jobs.length - failed,
      failedCreates: failed,
      arrived,
      lost,
      misdelivered,
      sendSeconds: round(sendSeconds),
      createsPerSecond: round((jobs.length - failed) / sendSeconds),
      latencyMs: { p50: round(percentile(latencies, 50)), p90: round(percentile(latencies, 90)), p99: round(percentile(latencies, 99)), max: round(latencies.at(-1) ?? null) },
      sinceCreatedAtMs: { p50: percentile(sinceCreated, 50), p99: percentile(sinceCreated, 99) },
      /** The measuring process's own event loop delay while sending (perf_hooks, 1 ms resolution). */
      benchLoopDelayMs: loopDelayMs,
      acrossNodes: { count: across.length, p50: round(percentile(across, 50)), p99: round(percentile(across, 99)) },
      goal: { p99Ms: SOCKETS_GOAL_P99_MS, met: (percentile(latencies, 99) ?? Infinity) <= SOCKETS_GOAL_P99_MS && lost === 0 && misdelivered === 0 },
      loadAtStart,
      loadAtEnd: uptime(),
    };
    const existing = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>) : {};
    writeFileSync(out, JSON.stringify({ ...existing, sockets: result }, null, 2) + '\n');
    log(
      `  delivery (request → socket): p50 ${result.latencyMs.p50} ms, p90 ${result.latencyMs.p90} ms, p99 ${result.latencyMs.p99} ms, max ${result.latencyMs.max} ms` +
        ` (goal p99 ≤ ${SOCKETS_GOAL_P99_MS} ms: ${result.goal.met ? 'met' : 'MISSED'})`,
    );
    log(`  since createdAt: p50 ${result.sinceCreatedAtMs.p50} ms, p99 ${result.sinceCreatedAtMs.p99} ms`);
    log(`  this process's event loop delay while sending: p50 ${loopDelayMs.p50} ms, p99 ${loopDelayMs.p99} ms, max ${loopDelayMs.max} ms`);
    if (across.length) log(`  created on the other node (${across.length}): p50 ${result.acrossNodes.p50} ms, p99 ${result.acrossNodes.p99} ms`);
    log(`  sent ${result.sent} (${failed} creates failed) in ${result.sendSeconds} s, arrived ${arrived}, lost ${lost}, misdelivered ${misdelivered}`);
    log(`  load: ${result.loadAtEnd}`);
    log(`results: ${out} ("sockets")`);
    return failed || lost || misdelivered ? 1 : 0;
  } finally {
    for (const socket of sockets) socket.disconnect();
    for (const agent of agentsMade) agent.destroy();
    await cluster?.close();
  }
}
