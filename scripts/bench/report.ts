/** The goals, the results file and the table printed at the end. */
import { writeFileSync } from 'node:fs';
import type { Measured } from './measure.ts';
import type { ScenarioKey, ServerKey } from './scenarios.ts';
import type { DialogOpen } from './browser.ts';
import type { Check } from './preflight.ts';
import type { MemorySample } from './memory.ts';

export interface Row {
  scenario: ScenarioKey;
  connections: number;
  servers: Partial<Record<ServerKey, Measured>>;
  ratios: {
    oursToJsonServer: number | null;
    oursToCeiling: number | null;
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
}

export interface Results {
  machine: Record<string, unknown>;
  options: Record<string, unknown>;
  resources: ResourceResult[];
  errors: string[];
}

/** The issue's goals per scenario (#3 §1). */
const GOALS: Record<ScenarioKey, { goal: string; test: (row: Row) => boolean | undefined }[]> = {
  sorted: [
    { goal: '≥500× json-server', test: (r) => atLeast(r.ratios.oursToJsonServer, 500) },
    { goal: '≥0.5× ceiling', test: (r) => atLeast(r.ratios.oursToCeiling, 0.5) },
    { goal: 'p99 ≤ 25 ms', test: (r) => (r.connections === 50 && r.servers.ours ? r.servers.ours.p99 <= 25 : undefined) },
  ],
  one: [
    { goal: '≥100× json-server', test: (r) => atLeast(r.ratios.oursToJsonServer, 100) },
    { goal: '≥0.8× ceiling', test: (r) => atLeast(r.ratios.oursToCeiling, 0.8) },
  ],
  filtered: [{ goal: '≥100× json-server', test: (r) => atLeast(r.ratios.oursToJsonServer, 100) }],
  create: [],
};
const atLeast = (value: number | null, goal: number) => (value === null ? undefined : value >= goal);

export const DIALOG_GOAL_MS = 100;

export function row(scenario: ScenarioKey, connections: number, servers: Row['servers'], duration: number): Row {
  const ratio = (a?: Measured, b?: Measured) => (a && b && b.reqPerSec > 0 ? Math.round((a.reqPerSec / b.reqPerSec) * 100) / 100 : null);
  const out: Row = {
    scenario,
    connections,
    servers,
    ratios: { oursToJsonServer: ratio(servers.ours, servers.jsonServer), oursToCeiling: ratio(servers.ours, servers.ceiling) },
    goals: [],
  };
  if (servers.ours && servers.jsonServer && servers.jsonServer.runs.some((r) => r.total === 0)) {
    out.ratios.oursToJsonServer = Math.round(servers.ours.reqPerSec * duration * 100) / 100;
    out.ratios.oursToJsonServerIsLowerBound = true;
  }
  for (const g of GOALS[scenario]) {
    const ok = g.test(out);
    if (ok !== undefined) out.goals.push({ goal: g.goal, ok });
  }
  return out;
}

export function writeResults(file: string, results: Results) {
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
}

const num = (n: number | undefined | null, digits = 0) =>
  n === undefined || n === null ? '—' : n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ms = (n: number | undefined) => (n === 0 ? '<1' : num(n));
const ratio = (n: number | null) => (n === null ? '—' : n >= 100 ? `${num(n)}×` : n >= 10 ? `${num(n, 1)}×` : `${num(n, 2)}×`);

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
  const head = ['scenario', 'conns', 'ours req/s', 'json-server', 'ceiling', 'p50 ms', 'p99 ms', 'ours/json-server', 'ours/ceiling', 'goals'];
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
    x.goals.map((g) => `${g.ok ? '✓' : '✗'} ${g.goal}`).join('  ') || '—',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const right = new Set([1, 2, 3, 4, 5, 6, 7, 8]);
  const line = (cells: string[]) => cells.map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  const out = [line(head), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line), '', ...memoryLines(r)];
  const d = r.dialogOpen;
  if (d) {
    if (d.status === 'measured')
      out.push(
        '',
        `dialog-open:${d.type}  first ${num(d.first, 1)} ms, median of later ${num(d.medianLater, 1)} ms  ${d.ok ? '✓' : '✗'} < ${DIALOG_GOAL_MS} ms after first load` +
          `  (click→visible seen by the driver: ${d.observed.map((x) => num(x)).join(', ')} ms)`,
      );
    else out.push('', `dialog-open:${d.type}  ${d.status}${d.reason ? `: ${d.reason}` : ''}`);
  }
  return out.join('\n');
}
