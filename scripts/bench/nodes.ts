/**
 * `npm run bench -- --nodes 2 [--rows 20000] [--duration 5] [--runs 2] [--connections 50]`: does a
 * second node add throughput? (issue 54). One node, then N nodes behind one address (serve-cluster.ts),
 * in turns for `--runs` rounds, over the same seeded PostgreSQL schema and one Redis: cold sorted pages
 * (no read cache, every URL its own: the database path) and creates (a seller's products, through the
 * real dialog). Beside each turn: the whole machine's CPU busy (from /proc/stat), which says what limits
 * a second node on a machine of few cores (the nodes, PostgreSQL and the load generator share them).
 * Written into results.json under "nodes".
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { randomBytes } from 'node:crypto';
import { registry } from '../../resources/index.ts';
import { connect, dropSchema } from '../../src/server/db/connect.ts';
import { DEMO_PASSWORD, demoEmail } from '../../src/server/seed/index.ts';
import { keepEngineResult, load, machine } from './engine-results.ts';
import { measureOnce, type Figures } from './measure.ts';
import { buildScenarios } from './scenarios.ts';
import { seed } from './seed.ts';
import { creatorOf } from './accounts.ts';
import type { Role } from '../../src/manifest/index.ts';
import { startOursCluster, type Child } from './servers.ts';

export interface NodesOptions {
  nodes: number;
  rows: number;
  durationS: number;
  runs: number;
  connections: number;
  out: string;
  log?: (line: string) => void;
}

/** The machine's CPU counters (all cores): busy and total jiffies. */
function machineCpu(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const n = fields.map(Number);
  const idle = n[3] + (n[4] ?? 0);
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

async function signIn(url: string, role: Role): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: demoEmail(role), password: DEMO_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`signing in as ${role} failed: ${res.status} ${await res.text()}`);
  return res.headers.get('set-cookie')!.split(';')[0];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchNodes({ nodes, rows, durationS, runs, connections, out, log = console.log }: NodesOptions): Promise<number> {
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith('postgres') || !process.env.REDIS_URL) throw new Error('--nodes needs DATABASE_URL (PostgreSQL) and REDIS_URL: the nodes share both');
  const r = registry.resource('products');
  const schema = `bench_nodes_${randomBytes(4).toString('hex')}`;
  const failures: string[] = [];
  const loadAtStart = load();
  log(`nodes: 1 node and ${nodes} behind one address, ${r.name}, ${rows.toLocaleString('en')} rows on PostgreSQL + Redis, ${connections} connections, ${durationS} s turns, ${runs} rounds; ${cpus().length} cores; load ${loadAtStart}`);
  const database = await connect({ url, schema });
  let server: Child | undefined;
  try {
    const seeded = await seed(database, registry, r, rows, { seed: 1 });
    const turns: Record<string, Record<number, { figures: Figures; busy: number }[]>> = {};
    for (let round = 0; round < runs; round++) {
      // Odd rounds start with the cluster, so neither always runs first.
      for (const n of round % 2 ? [nodes, 1] : [1, nodes]) {
        server = await startOursCluster(n, { url, schema, cacheMb: 0 });
        const cookie = await signIn(server.url, 'admin');
        const createCookie = await signIn(server.url, creatorOf(r));
        const { scenarios } = buildScenarios({ registry, resource: r, seeded, cookie, createCookie, seed: 1 + round * 10 + n, cold: true });
        for (const scenario of scenarios.filter((s) => s.key === 'sorted' || s.key === 'create')) {
          const before = machineCpu();
          const figures = await measureOnce(server.url, scenario.ours, connections, durationS, 1);
          const after = machineCpu();
          const busy = Math.round((100 * (after.busy - before.busy)) / Math.max(1, after.total - before.total));
          ((turns[scenario.key] ??= {})[n] ??= []).push({ figures, busy });
          if (figures.errors || figures.non2xx) failures.push(`${scenario.key} on ${n} node(s): ${figures.errors} errors, ${figures.non2xx} answers not 2xx`);
          log(`  round ${round + 1} ${scenario.key.padEnd(7)} ${n} node(s): ${figures.reqPerSec.toFixed(0).padStart(6)} req/s  p50 ${figures.p50} ms  p99 ${figures.p99} ms  machine ${busy} % busy  load ${load()}`);
        }
        await server.stop();
        server = undefined;
      }
    }
    const summary = Object.fromEntries(
      Object.entries(turns).map(([key, byNodes]) => {
        const one = byNodes[1].map((t) => t.figures.reqPerSec);
        const many = byNodes[nodes].map((t) => t.figures.reqPerSec);
        return [
          key,
          {
            oneNode: { reqPerSec: Math.round(median(one)), p99: median(byNodes[1].map((t) => t.figures.p99)), busy: median(byNodes[1].map((t) => t.busy)) },
            [`${nodes}Nodes`]: { reqPerSec: Math.round(median(many)), p99: median(byNodes[nodes].map((t) => t.figures.p99)), busy: median(byNodes[nodes].map((t) => t.busy)) },
            ratio: Math.round((median(many) / median(one)) * 100) / 100,
          },
        ];
      }),
    );
    for (const [key, s] of Object.entries(summary)) log(`  ${key}: ${nodes} nodes / 1 node = ${s.ratio} (median of ${runs})`);
    const result = { at: new Date().toISOString(), machine: machine(), load: { atStart: loadAtStart, atEnd: load() }, nodes, rows, connections, durationS, runs, summary, failures };
    return keepEngineResult(out, 'nodes', 'postgres', result, log);
  } finally {
    await server?.stop();
    await database.close();
    await dropSchema(url, schema).catch(() => {});
  }
}
