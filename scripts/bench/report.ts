/** The goals, the results file and the table printed at the end. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Measured } from './measure.ts';
import type { ScenarioKey, ServerKey } from './scenarios.ts';
import type { DialogOpen } from './browser.ts';
import type { Check } from './preflight.ts';
import type { MemorySample } from './memory.ts';
import type { CpuPerRequest } from './cpu.ts';

export interface Row {
  scenario: ScenarioKey;
  connections: number;
  servers: Partial<Record<ServerKey, Measured>>;
  ratios: {
    oursToJsonServer: number | null;
    oursToCeiling: number | null;
    /** Ours' req/s over Platformatic DB's, measured in the same run (`--peers platformatic`). */
    oursToPlatformatic?: number | null;
    /** json-server finished nothing in a run: its rate is under 1/duration, the ratio at least this. */
    oursToJsonServerIsLowerBound?: boolean;
  };
  goals: { goal: string; ok: boolean }[];
}

export interface ResourceResult {
  resource: string;
  rows: number;
  seeded: Record<string, number>;
  seedSeconds: number;
  scenarios: { key: ScenarioKey; label: string; requests: Record<ServerKey, string> }[];
  checks: Check[];
  notes: string[];
  results: Row[];
  /** Ours' read-cache bound, MiB (0: off). */
  cacheMb: number;
  /** Ours' memory when it started and after each scenario. */
  memory: MemorySample[];
  dialogOpen?: DialogOpen;
  /** The peers measured beside ours (`--peers`): what ran, and what was left out and why. */
  peers?: Record<string, PeerInfo>;
}

/** A peer of the run (scripts/bench/peers/): its version and Node, its memory, or why it was left out. */
export interface PeerInfo {
  label: string;
  status: 'measured' | 'skipped';
  reason?: string;
  version?: string;
  node?: string;
  /** Resident set, MiB, from /proc (no GC forced): when it listened and after the last scenario. */
  rssMB?: { start?: number; end?: number };
  /** How its data was made beside ours'. */
  setup?: string;
}

export interface Results {
  machine: Record<string, unknown>;
  options: Record<string, unknown>;
  resources: ResourceResult[];
  errors: string[];
}

type Goal = { goal: string; test: (row: Row) => boolean | undefined };
const p99AtMost = (ms: number): Goal => ({
  goal: `p99 ≤ ${ms} ms`,
  test: (r) => (r.connections === 50 && r.servers.ours ? r.servers.ours.p99 <= ms : undefined),
});
// Judged on the measured rates, not on the ratio as shown (two decimals): 0.298× is shown 0.30×, and is short of 0.3×.
const ceilingAtLeast = (x: number): Goal => ({
  goal: `≥${x}× ceiling`,
  test: (r) => (r.servers.ours && r.servers.ceiling?.reqPerSec ? r.servers.ours.reqPerSec / r.servers.ceiling.reqPerSec >= x : undefined),
});
const jsonServerAtLeast = (x: number): Goal => ({ goal: `≥${x}× json-server`, test: (r) => atLeast(r.ratios.oursToJsonServer, x) });

/** The goals per scenario: warm (the read cache answering repeated URLs, issue 3 §1) and cold (every URL new, issue 12). */
const GOALS: Record<'warm' | 'cold', Record<ScenarioKey, Goal[]>> = {
  warm: {
    sorted: [jsonServerAtLeast(500), ceilingAtLeast(0.5), p99AtMost(25)],
    one: [jsonServerAtLeast(100), ceilingAtLeast(0.8)],
    filtered: [jsonServerAtLeast(100)],
    deep: [p99AtMost(25)],
    create: [],
    shopSearch: [p99AtMost(25)],
    search: [],
  },
  cold: {
    sorted: [ceilingAtLeast(0.5), p99AtMost(25)],
    one: [ceilingAtLeast(0.7)],
    // A search (a resource with no parent) or a parent's rows: read from an index either way.
    filtered: [ceilingAtLeast(0.3), p99AtMost(25)],
    deep: [p99AtMost(25)],
    create: [ceilingAtLeast(0.4)],
    shopSearch: [p99AtMost(25)],
    search: [],
  },
};
const atLeast = (value: number | null, goal: number) => (value === null ? undefined : value >= goal);

export const DIALOG_GOAL_MS = 100;
/** The first open of a dialog after sign-in (issue 12): its code is fetched while the app is idle. */
export const FIRST_DIALOG_GOAL_MS = 150;

export function row(scenario: ScenarioKey, connections: number, servers: Row['servers'], duration: number, cold = false): Row {
  const ratio = (a?: Measured, b?: Measured) => (a && b && b.reqPerSec > 0 ? Math.round((a.reqPerSec / b.reqPerSec) * 100) / 100 : null);
  const out: Row = {
    scenario,
    connections,
    servers,
    ratios: {
      oursToJsonServer: ratio(servers.ours, servers.jsonServer),
      oursToCeiling: ratio(servers.ours, servers.ceiling),
      ...(servers.platformatic && { oursToPlatformatic: ratio(servers.ours, servers.platformatic) }),
    },
    goals: [],
  };
  if (servers.ours && servers.jsonServer && servers.jsonServer.runs.some((r) => r.total === 0)) {
    out.ratios.oursToJsonServer = Math.round(servers.ours.reqPerSec * duration * 100) / 100;
    out.ratios.oursToJsonServerIsLowerBound = true;
  }
  for (const g of GOALS[cold ? 'cold' : 'warm'][scenario]) {
    const ok = g.test(out);
    if (ok !== undefined) out.goals.push({ goal: g.goal, ok });
  }
  return out;
}

/**
 * Keeps the run in the results file under its label (engine, warm or cold, rows: `runLabel`), beside
 * the runs of other labels and the socket bench's figures, so the file holds the latest of each.
 */
export function writeResults(file: string, results: Results) {
  let kept: { runs?: Record<string, Results> } & Record<string, unknown> = {};
  try {
    kept = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // No file yet (or not one of ours): start afresh.
  }
  // A file from before runs were kept by label held one run at its top level: that run moves under its label.
  if (kept.machine && kept.options && Array.isArray(kept.resources)) {
    const { machine, options, resources, errors, ...rest } = kept as unknown as Results & Record<string, unknown>;
    kept = { ...rest, runs: { [runLabel({ machine, options, resources, errors })]: { machine, options, resources, errors } } };
  }
  const runs = { ...kept.runs, [runLabel(results)]: results };
  writeFileSync(file, JSON.stringify({ ...kept, runs }, null, 2) + '\n');
}

const num = (n: number | undefined | null, digits = 0) =>
  n === undefined || n === null ? '—' : n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ms = (n: number | undefined) => (n === 0 ? '<1' : num(n));
const ratio = (n: number | null) => (n === null ? '—' : n >= 100 ? `${num(n)}×` : n >= 10 ? `${num(n, 1)}×` : `${num(n, 2)}×`);

/** One run's CPU a request, as the progress lines give it. */
export const cpuText = (c: CpuPerRequest) =>
  `${num(c.server)} µs${c.database === undefined ? '' : ` + ${num(c.database)} µs database`} a request (load generator ${num(c.loadGenerator)})`;

/**
 * A row's CPU a request in µs (cpu.ts), of the runs whose rates it keeps: ours' process, PostgreSQL's
 * share after a `+`, then the ceiling's process (`162+87 db / 47`); '—' where none was measured.
 */
export function cpuCell(x: Row): string {
  const ours = x.servers.ours?.cpu;
  const ceiling = x.servers.ceiling?.cpu;
  if (!ours && !ceiling) return '—';
  const oursText = ours ? `${num(ours.server)}${ours.database === undefined ? '' : `+${num(ours.database)} db`}` : '—';
  return ceiling ? `${oursText} / ${num(ceiling.server)}` : oursText;
}

/** Ours' memory samples, each with its growth since the start. */
function memoryLines(r: ResourceResult): string[] {
  if (!r.memory.length) return [];
  const [start] = r.memory;
  const delta = (n: number) => (n >= 0 ? `+${num(n, 1)}` : num(n, 1));
  const width = Math.max(...r.memory.map((m) => m.at.length));
  return [
    `ours' memory, MiB${start.collected ? ' after a full GC' : ''} (read cache ${r.cacheMb ? `≤ ${num(r.cacheMb, r.cacheMb < 1 ? 2 : 0)} MiB` : 'off'}):`,
    ...r.memory.map(
      (m) =>
        `  ${m.at.padEnd(width)}  RSS ${num(m.rssMB, 1).padStart(7)}  heap used ${num(m.heapUsedMB, 1).padStart(7)}` +
        (m === start ? '' : `  (${delta(m.rssMB - start.rssMB)} / ${delta(m.heapUsedMB - start.heapUsedMB)})`),
    ),
  ];
}

export function table(r: ResourceResult): string {
  const head = ['scenario', 'conns', 'ours req/s', 'json-server', 'ceiling', 'p50 ms', 'p99 ms', 'ours/json-server', 'ours/ceiling', 'CPU µs/req ours / ceiling', 'goals'];
  const body = r.results.map((x) => [
    x.scenario,
    String(x.connections),
    num(x.servers.ours?.reqPerSec),
    num(x.servers.jsonServer?.reqPerSec, x.servers.jsonServer && x.servers.jsonServer.reqPerSec < 100 ? 1 : 0),
    num(x.servers.ceiling?.reqPerSec),
    ms(x.servers.ours?.p50),
    ms(x.servers.ours?.p99),
    (x.ratios.oursToJsonServerIsLowerBound ? '>' : '') + ratio(x.ratios.oursToJsonServer),
    ratio(x.ratios.oursToCeiling),
    cpuCell(x),
    x.goals.map((g) => `${g.ok ? '✓' : '✗'} ${g.goal}`).join('  ') || '—',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const right = new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const line = (cells: string[]) => cells.map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  const out = [line(head), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line), '', ...peerTable(r), ...memoryLines(r)];
  const d = r.dialogOpen;
  if (d) {
    if (d.status === 'measured')
      out.push(
        '',
        `dialog-open:${d.type}  first ${num(d.first, 1)} ms ${(d.first ?? Infinity) <= FIRST_DIALOG_GOAL_MS ? '✓' : '✗'} ≤ ${FIRST_DIALOG_GOAL_MS} ms, ` +
          `median of later ${num(d.medianLater, 1)} ms  ${d.ok ? '✓' : '✗'} < ${DIALOG_GOAL_MS} ms` +
          `  (click→visible seen by the driver: ${d.observed.map((x) => num(x)).join(', ')} ms)`,
      );
    else out.push('', `dialog-open:${d.type}  ${d.status}${d.reason ? `: ${d.reason}` : ''}`);
  }
  return out.join('\n');
}

/** The load averages (1 minute) seen after each measured run of a row, all servers. */
const loadsOf = (x: Row) => Object.values(x.servers).flatMap((m) => m!.runs.map((f) => f.load ?? 0));
/** The same, of ours' and Platformatic's runs only (the pair a peer table compares). */
const pairLoads = (x: Row) => [x.servers.ours, x.servers.platformatic].flatMap((m) => m?.runs.map((f) => f.load ?? 0) ?? []);
const loadRange = (loads: number[]) => (loads.length ? `${num(Math.min(...loads), 1)}–${num(Math.max(...loads), 1)}` : '—');

/** A server's CPU a request, its database's share after a `+` (`153+92 db`); '—' where none was measured. */
const cpuOf = (m?: Measured) => (m?.cpu ? `${num(m.cpu.server)}${m.cpu.database === undefined ? '' : `+${num(m.cpu.database)} db`}` : '—');

/** The rows measured against Platformatic DB, as [scenario, conns, ours req/s, p50, p99, its req/s, p50, p99, ratio, CPU, load]. */
function peerCells(r: ResourceResult): string[][] {
  return r.results
    .filter((x) => x.servers.platformatic)
    .map((x) => {
      const [o, p] = [x.servers.ours, x.servers.platformatic];
      return [
        x.scenario, String(x.connections),
        num(o?.reqPerSec), ms(o?.p50), ms(o?.p99),
        num(p?.reqPerSec), ms(p?.p50), ms(p?.p99),
        ratio(x.ratios.oursToPlatformatic ?? null),
        `${cpuOf(o)} / ${cpuOf(p)}`,
        loadRange(pairLoads(x)),
      ];
    });
}
const PEER_HEAD = ['scenario', 'conns', 'ours req/s', 'p50 ms', 'p99 ms', 'Platformatic req/s', 'p50 ms', 'p99 ms', 'ours/Platformatic', 'CPU µs/req ours / Platformatic', 'load'];

/** Ours against Platformatic DB, for the console: its own table under the main one (empty when not measured). */
function peerTable(r: ResourceResult): string[] {
  const body = peerCells(r);
  const info = r.peers?.platformatic;
  if (!body.length) return info?.status === 'skipped' ? [`${info.label} left out: ${info.reason}`, ''] : [];
  const widths = PEER_HEAD.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 1 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [
    `ours against ${info?.label ?? 'Platformatic DB'} ${info?.version ?? ''} (Node ${info?.node ?? '?'}), the same rows and requests, answers checked first:`,
    line(PEER_HEAD), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line), '',
  ];
}

/** Which run a block of the bench's tables holds: engine, warm (read cache on) or cold, and rows. */
export function runLabel(results: Results): string {
  const { engine, rows } = results.machine as { engine: string; rows: number };
  return `${engine} ${results.options.cold ? 'cold' : 'warm'} ${rows}`;
}

/**
 * The run as a Markdown table for docs/performance.md: per scenario ours, json-server and the ceiling (req/s),
 * ours' p99, the ratios, the CPU a request of ours (PostgreSQL's apart) and of the ceiling, the
 * machine's load during the runs; then ours' memory at the start and after
 * the last scenario, and the first dialog's opening.
 */
export function markdown(results: Results): string {
  const m = results.machine as { date: string; cpus: number; node: string; engine?: string };
  const o = results.options as { duration: number; runs: number; cold: boolean; cacheMb: number; readWorkers?: number };
  // SQLite's list pages are read by worker threads (read-pool.ts): how many ours had.
  const workers = m.engine === 'sqlite' && o.readWorkers !== undefined ? `, ${o.readWorkers ? `${o.readWorkers} read worker${o.readWorkers === 1 ? '' : 's'}` : 'no read workers'}` : '';
  const out: string[] = [];
  for (const r of results.resources) {
    // A resource's table after another's starts a paragraph of its own.
    if (out.length) out.push('');
    out.push(
      `${r.resource}, ${num(r.rows)} rows, ${o.cold ? 'cold (every URL new, read cache off)' : `warm (read cache ≤ ${num(r.cacheMb)} MiB)`}${workers}, ` +
        `lower of ${o.runs} × ${o.duration} s, ${m.cpus} cores shared with the load generator, Node ${m.node}, ${m.date.slice(0, 16).replace('T', ' ')} UTC:`,
      '',
      '| scenario | conns | ours req/s | json-server | ceiling | p99 ms | ours/json-server | ours/ceiling | CPU µs a request: ours (+ PostgreSQL) / ceiling | load during runs |',
      '|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const x of r.results) {
      const loads = loadsOf(x);
      out.push(
        `| ${x.scenario} | ${x.connections} | ${num(x.servers.ours?.reqPerSec)} | ` +
          `${num(x.servers.jsonServer?.reqPerSec, x.servers.jsonServer && x.servers.jsonServer.reqPerSec < 100 ? 1 : 0)} | ${num(x.servers.ceiling?.reqPerSec)} | ` +
          `${ms(x.servers.ours?.p99)} | ${(x.ratios.oursToJsonServerIsLowerBound ? '>' : '') + ratio(x.ratios.oursToJsonServer)} | ${ratio(x.ratios.oursToCeiling)} | ${cpuCell(x)} | ` +
          `${loads.length ? `${num(Math.min(...loads), 1)}–${num(Math.max(...loads), 1)}` : '—'} |`,
      );
    }
    const [start, ...later] = r.memory;
    const end = later.at(-1);
    if (start && end)
      out.push(
        '',
        `Ours' memory${start.collected ? ' (after a full GC)' : ''}: RSS ${num(start.rssMB, 1)} MiB, heap used ${num(start.heapUsedMB, 1)} MiB at the start; ` +
          `${num(end.rssMB, 1)} MiB and ${num(end.heapUsedMB, 1)} MiB ${end.at}.`,
      );
    const d = r.dialogOpen;
    if (d?.status === 'measured')
      out.push('', `First ${d.type} dialog after sign-in: ${num(d.first, 1)} ms to its first field's focus; later ones ${num(d.medianLater, 1)} ms (median).`);
    out.push(...peerMarkdown(r));
  }
  if (results.errors.length) out.push('', `Errors: ${results.errors.map((e) => e.split('\n')[0]).join('; ')}`);
  return out.join('\n');
}

/** Ours against Platformatic DB in the same run, as Markdown (nothing when it was not asked for). */
function peerMarkdown(r: ResourceResult): string[] {
  const info = r.peers?.platformatic;
  if (!info) return [];
  if (info.status === 'skipped') return ['', `${info.label} was asked for and left out: ${info.reason}.`];
  const body = peerCells(r);
  if (!body.length) return [];
  const checks = r.checks.filter((c) => c.against === 'platformatic');
  const rss = info.rssMB;
  return [
    '',
    `Ours against ${info.label} ${info.version} (Node ${info.node}) in the same run, the same rows, the same requests in each one's dialect, ` +
      `measured in turns (ours, then ${info.label}); p50 and p99 are each server's own:`,
    '',
    `| ${PEER_HEAD.join(' | ')} |`,
    `|${PEER_HEAD.map(() => '---').join('|')}|`,
    ...body.map((cells) => `| ${cells.join(' | ')} |`),
    '',
    `Answers checked before timing: ${checks.map((c) => `${c.scenario} ${c.ok ? 'same' : 'DIFFERENT'} (${c.detail})`).join('; ') || 'none'}.` +
      (rss?.start !== undefined ? ` ${info.label}'s RSS: ${num(rss.start, 1)} MiB listening, ${num(rss.end, 1)} MiB after the last scenario.` : ''),
  ];
}

/**
 * Where the bench keeps its tables: the performance notebook, beside the measurements they are read
 * with. Not the README, which is a newcomer's page and quotes only a summary of them.
 */
export const BENCH_TABLES = join(import.meta.dirname, '../../docs/performance.md');

/**
 * Puts the run's table in `file` (`BENCH_TABLES`) between `<!-- bench: <label> -->` and
 * `<!-- /bench: <label> -->` (a run of another engine, mode or size has a block of its own, added after
 * the last one).
 */
export function updateBenchTables(file: string, results: Results) {
  const label = runLabel(results);
  const open = `<!-- bench: ${label} -->`;
  const close = `<!-- /bench: ${label} -->`;
  const block = `${open}\n${markdown(results)}\n${close}`;
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf(open);
  const end = text.indexOf(close);
  let next: string;
  if (at >= 0 && end > at) next = text.slice(0, at) + block + text.slice(end + close.length);
  else {
    const last = text.lastIndexOf('<!-- /bench: ');
    if (last < 0) throw new Error(`${file} has no bench block to put the '${label}' run after`);
    const after = text.indexOf('-->', last) + 3;
    next = `${text.slice(0, after)}\n\n${block}${text.slice(after)}`;
  }
  writeFileSync(file, next);
}
