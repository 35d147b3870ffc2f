/**
 * One measurement: a short warm-up, then autocannon for the given time, figures out. And how runs are
 * combined: the lower req/s of the runs, the higher latencies ("the lower of two runs").
 */
import autocannon, { type AutocannonRequest } from 'autocannon';
import { startCpu, type CpuPerRequest, type CpuWatch } from './cpu.ts';

/** What to send. `next` varies each request (a rotating id, a fresh body). */
export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  next?: () => { path?: string; body?: string };
}

export interface Figures {
  reqPerSec: number;
  /** Latency percentiles, ms (autocannon counts whole milliseconds: 0 is under one). */
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Completed responses. */
  total: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  timeouts: number;
  status: Record<string, number>;
  /** Mean response bytes per request (body and headers). */
  bytesPerRequest: number;
  /** The machine's 1-minute load average after the run: above the CPU count, others were busy too. */
  load?: number;
  /** CPU per answered request of the server, its database and the load generator (cpu.ts; Linux only). */
  cpu?: CpuPerRequest;
}

export interface Measured extends Figures {
  runs: Figures[];
}

/** Generous: json-server's writes rewrite its whole file and queue up behind each other. */
const TIMEOUT_S = 30;

function toRequest(spec: RequestSpec): AutocannonRequest {
  const { method, path, headers = {}, body, next } = spec;
  const request: AutocannonRequest = { method, path, headers, ...(body !== undefined ? { body } : {}) };
  if (next)
    request.setupRequest = (req) => {
      const change = next();
      return { ...req, ...(change.path ? { path: change.path } : {}), ...(change.body !== undefined ? { body: change.body } : {}) };
    };
  return request;
}

export async function runOnce(baseUrl: string, spec: RequestSpec, connections: number, seconds: number): Promise<Figures> {
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    timeout: TIMEOUT_S,
    requests: [toRequest(spec)],
  });
  const total = result.latency.totalCount;
  return {
    reqPerSec: round(result.requests.mean),
    mean: round(result.latency.mean),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    status: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count])),
    bytesPerRequest: total ? Math.round(result.throughput.total / total) : 0,
  };
}

/**
 * Waits until the server has worked off what earlier runs left queued. autocannon closes its sockets
 * when its time is up, but a server whose requests block its event loop (json-server sorting 50,000
 * rows per request) still answers every request already received: without this, one run's backlog
 * would be charged to the next. A request for an unknown path is answered only after that backlog, so
 * two quick answers in a row mean the server is idle.
 */
export async function drain(baseUrl: string, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  let quick = 0;
  let failures = 0;
  while (quick < 2) {
    if (Date.now() > deadline) throw new Error(`${baseUrl} still busy ${timeoutMs / 1000} s after a run`);
    const t0 = performance.now();
    try {
      const res = await fetch(`${baseUrl}/__bench_idle`);
      await res.arrayBuffer();
    } catch (error) {
      // A kept-alive socket the server closed while idle (its keep-alive timeout) fails the request that
      // reuses it: asked again on a new socket. A server that is gone fails every time.
      if (++failures > 5) throw new Error(`${baseUrl} does not answer: ${(error as Error).message} (${String((error as Error).cause ?? '')})`);
      quick = 0;
      continue;
    }
    quick = performance.now() - t0 < 50 ? quick + 1 : 0;
  }
}

/**
 * Warm-up (not recorded), then the measured run, each on an idle server. With `cpu`, the measured run's
 * CPU per answered request too (of that run alone: not the warm-up's, not the drains').
 */
export async function measureOnce(baseUrl: string, spec: RequestSpec, connections: number, seconds: number, warmup: number, cpu?: CpuWatch): Promise<Figures> {
  if (warmup > 0) {
    await drain(baseUrl);
    await runOnce(baseUrl, spec, connections, warmup);
  }
  await drain(baseUrl);
  const counted = cpu && startCpu(cpu);
  const figures = await runOnce(baseUrl, spec, connections, seconds);
  const used = counted?.(figures.total);
  return used ? { ...figures, cpu: used } : figures;
}

/** The lower req/s of the runs and the higher latencies; failures add up. */
export function lowerOf(runs: Figures[]): Measured {
  const worst = runs.reduce((a, b) => (b.reqPerSec < a.reqPerSec ? b : a));
  const status: Record<string, number> = {};
  for (const r of runs) for (const [code, n] of Object.entries(r.status)) status[code] = (status[code] ?? 0) + n;
  return {
    reqPerSec: worst.reqPerSec,
    mean: Math.max(...runs.map((r) => r.mean)),
    p50: Math.max(...runs.map((r) => r.p50)),
    p90: Math.max(...runs.map((r) => r.p90)),
    p99: Math.max(...runs.map((r) => r.p99)),
    max: Math.max(...runs.map((r) => r.max)),
    total: runs.reduce((n, r) => n + r.total, 0),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    timeouts: runs.reduce((n, r) => n + r.timeouts, 0),
    status,
    bytesPerRequest: worst.bytesPerRequest,
    // The CPU of the run whose rate is kept, so the two describe the same run.
    ...(worst.cpu ? { cpu: worst.cpu } : {}),
    runs,
  };
}

const round = (n: number) => Math.round(n * 100) / 100;
