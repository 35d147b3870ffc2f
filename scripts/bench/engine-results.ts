/**
 * Where the one-node benches (money.ts, audience.ts) keep their figures: results.json under their own
 * key, one entry per engine, the file's other keys kept; and the machine and load beside them.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

/** The machine a figure was measured on. */
export const machine = () => ({ cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version });

/** The load average (1, 5 and 15 minutes), as the figures are told with it. */
export const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

/**
 * Writes `result` under `key` → `engine` in `out`, says so, lists the failed checks, and answers the
 * bench's exit code: 1 when a check failed.
 */
export function keepEngineResult(out: string, key: string, engine: string, result: { failures: string[] }, log: (line: string) => void): number {
  const existing = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>) : {};
  const kept = (existing[key] ?? {}) as Record<string, unknown>;
  writeFileSync(out, JSON.stringify({ ...existing, [key]: { ...kept, [engine]: result } }, null, 2) + '\n');
  for (const f of result.failures) log(`  FAILED: ${f}`);
  log(`results: ${out} ("${key}" / "${engine}")`);
  return result.failures.length ? 1 : 0;
}
