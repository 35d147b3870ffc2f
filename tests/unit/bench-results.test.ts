/**
 * The bench's results file and its tables in docs/performance.md (scripts/bench/report.ts): each run is
 * kept under its label beside the others, a file of the older one-run shape is carried over, cold runs
 * are judged by this cold goals and warm runs by the warm ones, and a run's table replaces its
 * label's block in the notebook (the README holds none).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { BENCH_TABLES, cpuCell, markdown, row, runLabel, updateBenchTables, writeResults, type ResourceResult, type Results } from '../../scripts/bench/report.ts';
import { lowerOf, type Figures } from '../../scripts/bench/measure.ts';
import { startCpu } from '../../scripts/bench/cpu.ts';

const measured = (reqPerSec: number, p99 = 10) => {
  const figures = { reqPerSec, p50: 1, p99, total: reqPerSec * 10, non2xx: 0, errors: 0, timeouts: 0, load: 1.5 };
  return { ...figures, runs: [figures, figures] } as never;
};

function run(engine: string, cold: boolean, rows: number, resources: ResourceResult[] = []): Results {
  return { machine: { engine, rows, date: '2026-11-25T00:00:00.000Z', cpus: 2, node: 'v20' }, options: { cold, runs: 2, duration: 10, cacheMb: 0 }, resources, errors: [] };
}

function resource(name: string): ResourceResult {
  return {
    resource: name,
    rows: 50_000,
    seeded: {},
    seedSeconds: 1,
    scenarios: [],
    checks: [],
    notes: [],
    results: [row('sorted', 50, { ours: measured(1000), ceiling: measured(10_000) }, 10, true)],
    cacheMb: 0,
    memory: [],
  };
}

describe('bench results', () => {
  it('keeps each run under its label, beside the runs of other labels and the sockets figures', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bench-results-')), 'results.json');
    writeFileSync(file, JSON.stringify({ sockets: { sent: 3 } }));
    writeResults(file, run('sqlite', true, 50_000));
    writeResults(file, run('postgres', true, 1_000_000));
    const again = run('sqlite', true, 50_000);
    again.errors.push('the newer one');
    writeResults(file, again);
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(kept.runs).sort()).toEqual(['postgres cold 1000000', 'sqlite cold 50000']);
    expect(kept.runs['sqlite cold 50000'].errors).toEqual(['the newer one']);
    expect(kept.sockets).toEqual({ sent: 3 });
  });

  it('carries a file of the older shape (one run at its top) over under that run’s label', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bench-results-')), 'results.json');
    writeFileSync(file, JSON.stringify(run('sqlite', false, 5000)));
    writeResults(file, run('sqlite', true, 50_000));
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(kept.runs).sort()).toEqual(['sqlite cold 50000', 'sqlite warm 5000']);
    expect(kept.machine).toBeUndefined();
    expect(runLabel(kept.runs['sqlite warm 5000'])).toBe('sqlite warm 5000');
  });

  it('judges cold runs by the cold goals and warm runs by the warm ones', () => {
    const servers = { ours: measured(6000, 20), jsonServer: measured(10), ceiling: measured(10_000) };
    const cold = row('sorted', 50, servers, 10, true).goals.map((g) => `${g.goal} ${g.ok}`);
    const warm = row('sorted', 50, servers, 10, false).goals.map((g) => `${g.goal} ${g.ok}`);
    expect(cold).toEqual(['≥0.5× ceiling true', 'p99 ≤ 25 ms true']);
    expect(warm).toEqual(['≥500× json-server true', '≥0.5× ceiling true', 'p99 ≤ 25 ms true']);
    expect(row('one', 50, servers, 10, true).goals).toEqual([{ goal: '≥0.7× ceiling', ok: false }]);
  });

  it('judges a ratio to the ceiling on the rates measured, not on the two decimals it is shown with', () => {
    const short = row('filtered', 50, { ours: measured(8536), ceiling: measured(28_610) }, 10, true);
    expect(short.ratios.oursToCeiling).toBe(0.3);
    expect(short.goals.find((g) => g.goal === '≥0.3× ceiling')?.ok).toBe(false);
    const met = row('filtered', 50, { ours: measured(8600), ceiling: measured(28_610) }, 10, true);
    expect(met.goals.find((g) => g.goal === '≥0.3× ceiling')?.ok).toBe(true);
  });

  it('starts each resource’s table on a paragraph of its own', () => {
    const text = markdown(run('sqlite', true, 50_000, [resource('products'), resource('topCategories')]));
    expect(text).toMatch(/\| 0\.10× \|[^\n]*\|\n\ntopCategories, 50,000 rows, cold/);
  });

  it('says how many threads read SQLite pages (READ_WORKERS), and nothing of them on PostgreSQL', () => {
    const withWorkers = (engine: 'sqlite' | 'postgres', readWorkers: number) => {
      const results = run(engine, true, 50_000, [resource('products')]);
      return markdown({ ...results, options: { ...results.options, readWorkers } });
    };
    expect(withWorkers('sqlite', 2)).toContain('products, 50,000 rows, cold (every URL new, read cache off), 2 read workers, lower of 2');
    expect(withWorkers('sqlite', 1)).toContain('read cache off), 1 read worker, lower of 2');
    expect(withWorkers('sqlite', 0)).toContain('read cache off), no read workers, lower of 2');
    expect(withWorkers('postgres', 2)).toContain('read cache off), lower of 2');
  });

  it('gives the CPU a request of ours, PostgreSQL apart, and of the ceiling, from the runs whose rates it keeps', () => {
    const figures = (reqPerSec: number, server: number, database?: number) =>
      ({ reqPerSec, mean: 1, p50: 1, p90: 1, p99: 5, max: 9, total: reqPerSec * 10, non2xx: 0, errors: 0, timeouts: 0, status: {}, bytesPerRequest: 100, cpu: { server, database, loadGenerator: 50 } }) as Figures;
    // The slower run is the one kept: its CPU is the one shown beside its rate.
    const ours = lowerOf([figures(6000, 150, 80), figures(5000, 170, 95)]);
    expect(ours.reqPerSec).toBe(5000);
    expect(ours.cpu).toEqual({ server: 170, database: 95, loadGenerator: 50 });
    const ceiling = lowerOf([{ ...figures(17_000, 47), cpu: { server: 47, loadGenerator: 52 } }]);
    const x = row('sorted', 50, { ours, ceiling }, 10, true);
    expect(cpuCell(x)).toBe('170+95 db / 47');
    const results = run('postgres', true, 50_000, [{ ...resource('products'), results: [x] }]);
    expect(markdown(results)).toMatch(/\| 0\.29× \| 170\+95 db \/ 47 \| 0\.0–0\.0 \|/);
    // Measured nowhere (not Linux, or a results file from before): a dash, not a zero.
    expect(cpuCell(row('sorted', 50, { ours: measured(1000), ceiling: measured(10_000) }, 10, true))).toBe('—');
  });

  it('puts a run’s table in its label’s block, in place, and a new label’s block after the last one', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bench-tables-')), 'performance.md');
    const before = '# Notes\n\n<!-- bench: sqlite cold 50000 -->\nold table\n<!-- /bench: sqlite cold 50000 -->\n\nThe block above was slow.\n';
    writeFileSync(file, before);
    const sqlite = run('sqlite', true, 50_000, [resource('products')]);
    updateBenchTables(file, sqlite);
    const replaced = readFileSync(file, 'utf8');
    expect(replaced).toBe(before.replace('old table', markdown(sqlite)));
    const postgres = run('postgres', true, 50_000, [resource('products')]);
    updateBenchTables(file, postgres);
    expect(readFileSync(file, 'utf8')).toBe(
      replaced.replace('<!-- /bench: sqlite cold 50000 -->', `$&\n\n<!-- bench: postgres cold 50000 -->\n${markdown(postgres)}\n<!-- /bench: postgres cold 50000 -->`),
    );
    writeFileSync(file, '# No tables yet\n');
    expect(() => updateBenchTables(file, sqlite)).toThrow(/no bench block/);
  });

  it('keeps its tables in docs/performance.md, a block for every run results.json keeps, and none in the README', () => {
    const root = join(import.meta.dirname, '../..');
    expect(BENCH_TABLES).toBe(join(root, 'docs/performance.md'));
    const notebook = readFileSync(BENCH_TABLES, 'utf8');
    const kept = JSON.parse(readFileSync(join(root, 'scripts/bench/results.json'), 'utf8')) as { runs: Record<string, Results> };
    for (const label of Object.keys(kept.runs)) {
      const open = notebook.indexOf(`<!-- bench: ${label} -->`);
      expect(open, label).toBeGreaterThanOrEqual(0);
      expect(notebook.indexOf(`<!-- /bench: ${label} -->`), label).toBeGreaterThan(open);
    }
    expect(readFileSync(join(root, 'README.md'), 'utf8')).not.toMatch(/<!-- \/?bench: /);
  });

  it.skipIf(!existsSync('/proc/self/stat'))('counts the CPU a watched process spends, per request', async () => {
    // A process that keeps one core busy for 400 ms of CPU, then idles: its CPU is what is counted.
    const child = spawn(process.execPath, ['-e', 'const u = () => process.cpuUsage(); while ((u().user + u().system) < 400_000); setTimeout(() => {}, 20_000)']);
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const counted = startCpu({ pid: child.pid!, database: false })!;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const used = counted(1000)!;
      // About 400 ms over 1,000 requests, less what it ran before counting began; ticks are 10 ms.
      expect(used.server).toBeGreaterThan(150);
      expect(used.server).toBeLessThan(1000);
      expect(used.database).toBeUndefined();
      // The load generator is this process alone, not the servers it started (its children).
      expect(used.loadGenerator).toBeLessThan(used.server / 2);
      expect(counted(0)).toBeUndefined();
    } finally {
      child.kill();
    }
  });
});
