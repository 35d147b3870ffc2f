/**
 * `npm run bench:ab -- --base <commit> [--head <commit>] [resource] [--pg] [--rows 50000] [--duration 5] [--rounds 4] [--connections 50] [--only filtered,one]`
 *
 * This work tree's server against another commit's, measured in turns in one sitting: the way to tell
 * whether a change moved the server's speed on a machine whose speed moves by as much from one minute
 * to the next (docs/performance.md, "How to read it"). The other commit is checked out into a temporary
 * work tree (`git worktree add`) that borrows this one's node_modules; each server gets its own copy of
 * the same seeded database (cold: read cache off, every read's URL unique), and each round measures
 * every scenario on A then B, or B then A on odd rounds, so neither always runs first. Prints per
 * scenario the requests a second of each turn, the median of B/A, and the load seen; writes the figures
 * to `--out` (default scripts/bench/ab-results.json). `--head <commit>` measures that commit as B instead of
 * this work tree (checked out beside the base), so edits in progress here do not enter the run; with the
 * base's own commit (`--base X --head X`) it is an A/A run, the bench's own noise to read a ratio against.
 * `BENCH_NODE_FLAGS='--trace-gc-nvp'` with `BENCH_SERVER_OUT=<folder>` keeps what each server's collector
 * did (servers.ts).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { registry } from '../../resources/index.ts';
import pg from 'pg';
import { connect } from '../../src/server/db/connect.ts';
import { DEMO_PASSWORD, demoEmail } from '../../src/server/seed/index.ts';
import { measureOnce, type Figures } from './measure.ts';
import { buildScenarios } from './scenarios.ts';
import { seed } from './seed.ts';
import { creatorOf } from './accounts.ts';
import type { Role } from '../../src/manifest/index.ts';
import { startOurs, stopAll, type Child, type OursOptions } from './servers.ts';

const root = join(import.meta.dirname, '../..');
const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    base: { type: 'string' },
    head: { type: 'string' },
    pg: { type: 'boolean', default: false },
    rows: { type: 'string', default: '50000' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '4' },
    connections: { type: 'string', default: '50' },
    only: { type: 'string' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string', default: join(import.meta.dirname, 'ab-results.json') },
  },
});
if (!args.base) throw new Error('bench:ab needs --base <commit> (the code to compare this work tree with)');
const pgUrl = args.pg ? process.env.DATABASE_URL : undefined;
if (args.pg && !pgUrl?.startsWith('postgres')) throw new Error('--pg needs DATABASE_URL=postgres://…');
const whole = (name: string, v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a whole number above 0, not '${v}'`);
  return n;
};
const rows = whole('rows', args.rows);
const duration = Number(args.duration);
const rounds = whole('rounds', args.rounds);
const connections = whole('connections', args.connections);
const seedNumber = whole('seed', args.seed);
const resource = positionals[0]
  ? registry.resource(positionals[0])
  : registry.resources.filter((r) => r.reads.list?.kind === 'list' && Object.values(r.reads).some((x) => x.kind === 'one')).reduce((a, b) => (b.fields.length > a.fields.length ? b : a));
const log = (s: string) => console.log(s);
const load = () => Math.round(loadavg()[0] * 100) / 100;

const dir = mkdtempSync(join(tmpdir(), 'marketplace-ab-'));
const checkout = join(dir, 'base');
const headCheckout = join(dir, 'head');
// PostgreSQL: each side a database of its own, B made from A's as its template once A is seeded, so both
// hold the same bytes and the same planner statistics. Seeded twice (same seed, but new ids and a new
// ANALYZE sample), the same code measured against itself read filtered pages at 0.58× on the schema
// seeded second and records by id at 1.27×, and the other way round when the two were swapped.
const run = randomBytes(4).toString('hex');
const databases = [`ab_a_${run}`, `ab_b_${run}`];
const SCHEMA = 'bench';
const databaseUrl = (name: string) => Object.assign(new URL(pgUrl!), { pathname: `/${name}` }).toString();
async function onPostgres(statement: string) {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function signIn(server: Child, role: Role = 'admin'): Promise<string> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: demoEmail(role), password: DEMO_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`signing in as ${role} on ${server.name} failed: ${res.status} ${await res.text()}`);
  return res.headers.get('set-cookie')!.split(';')[0];
}

/** µs of CPU a request (server and its database), or NaN where /proc is not there to read. */
const cpuOf = (f: Figures) => (f.cpu ? f.cpu.server + (f.cpu.database ?? 0) : NaN);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

try {
  const base = execFileSync('git', ['rev-parse', '--short', args.base], { cwd: root }).toString().trim();
  const head = execFileSync('git', ['rev-parse', '--short', args.head ?? 'HEAD'], { cwd: root }).toString().trim();
  const dirty = !args.head && execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root }).toString().trim() !== '';
  const checkOut = (where: string, commit: string) => {
    execFileSync('git', ['worktree', 'add', '--detach', where, commit], { cwd: root, stdio: 'ignore' });
    // The other commit runs with this tree's packages: an A/B of code, not of installs.
    symlinkSync(join(root, 'node_modules'), join(where, 'node_modules'));
  };
  checkOut(checkout, base);
  if (args.head) checkOut(headCheckout, head);
  const sides = [
    { key: 'A', label: `${base} (base)` },
    { key: 'B', label: args.head ? head : `${head}${dirty ? '+changes' : ''} (this tree)` },
  ];
  const options: OursOptions[] = pgUrl
    ? databases.map((name) => ({ url: databaseUrl(name), schema: SCHEMA, cacheMb: 0 }))
    : [{ file: join(dir, 'a.sqlite'), cacheMb: 0 }, { file: join(dir, 'b.sqlite'), cacheMb: 0 }];
  log(`A/B: ${resource.name}, ${rows.toLocaleString('en')} rows on ${pgUrl ? 'PostgreSQL' : 'SQLite'}, cold, ${connections} connections, ${duration} s turns, ${rounds} rounds; A ${sides[0].label}, B ${sides[1].label}`);
  // The same rows for both: seeded once, then copied (SQLite: the file; PostgreSQL: the database, as a template).
  if (pgUrl) await onPostgres(`create database "${databases[0]}"`);
  const database = await connect(options[0]);
  const seeded = await seed(database, registry, resource, rows, { seed: seedNumber, log: () => {} });
  await database.close();
  if (pgUrl) await onPostgres(`create database "${databases[1]}" template "${databases[0]}"`);
  else for (const tail of ['', '-wal']) if (existsSync(options[0].file! + tail)) copyFileSync(options[0].file! + tail, options[1].file! + tail);
  const servers = [await startOurs(options[0], 'A', checkout), await startOurs(options[1], 'B', args.head ? headCheckout : undefined)];
  const cookies = [await signIn(servers[0]), await signIn(servers[1])];
  // Creates as a role the create dialog allows (a seller's products): as the admin they were refused, and timed so.
  const creator = creatorOf(resource);
  const createCookies = creator === 'admin' ? cookies : [await signIn(servers[0], creator), await signIn(servers[1], creator)];
  // Each side's scenarios are its own (its cookie; create bodies from the same seed, so the same sequence).
  const plans = cookies.map((cookie, i) => buildScenarios({ registry, resource, seeded, cookie, createCookie: createCookies[i], seed: seedNumber, cold: true }).scenarios);
  const turns: Record<string, { A: Figures[]; B: Figures[]; loads: number[] }> = {};
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [1, 0] : [0, 1];
    for (const [s, scenario] of plans[0].entries()) {
      // --only: the scenarios named, as when profiling one of them (BENCH_CPU_PROF=dir, servers.ts).
      if (args.only && !args.only.split(',').includes(scenario.key)) continue;
      const t = (turns[scenario.key] ??= { A: [], B: [], loads: [] });
      for (const i of order) {
        const f = await measureOnce(servers[i].url, plans[i][s].ours, connections, duration, 1, { pid: servers[i].pid, database: !!pgUrl });
        t[sides[i].key as 'A' | 'B'].push(f);
        t.loads.push(load());
        log(`  round ${round + 1} ${scenario.key.padEnd(8)} ${sides[i].key} ${f.reqPerSec.toFixed(0).padStart(7)} req/s  p99 ${f.p99} ms  ${cpuOf(f)} µs CPU/req  load ${load()}`);
        if (!servers[i].alive()) throw new Error(`${servers[i].name} died\n${servers[i].log()}`);
      }
    }
  }
  const summary = Object.entries(turns).map(([key, t]) => {
    const ratios = t.A.map((a, i) => t.B[i].reqPerSec / a.reqPerSec);
    // CPU a request (server, plus PostgreSQL's processes on --pg): steadier than req/s on a busy machine,
    // since another process's work slows a turn but does not add to our process's ticks.
    const cpuRatios = t.A.map((a, i) => cpuOf(t.B[i]) / cpuOf(a)).filter((r) => Number.isFinite(r) && r > 0);
    return {
      scenario: key,
      A: t.A.map((f) => Math.round(f.reqPerSec)),
      B: t.B.map((f) => Math.round(f.reqPerSec)),
      ratioMedian: Math.round(median(ratios) * 1000) / 1000,
      ratioRange: [Math.round(Math.min(...ratios) * 1000) / 1000, Math.round(Math.max(...ratios) * 1000) / 1000],
      bAhead: ratios.filter((r) => r > 1).length,
      cpuA: t.A.map(cpuOf),
      cpuB: t.B.map(cpuOf),
      cpuRatioMedian: cpuRatios.length ? Math.round(median(cpuRatios) * 1000) / 1000 : undefined,
      load: [Math.min(...t.loads), Math.max(...t.loads)],
    };
  });
  log(`\nB/A requests a second (median of ${rounds} rounds; range; rounds B ahead; B/A CPU a request, median; load):`);
  for (const s of summary)
    log(`  ${s.scenario.padEnd(8)} ${s.ratioMedian.toFixed(3)}  ${s.ratioRange[0].toFixed(3)}–${s.ratioRange[1].toFixed(3)}  ${s.bAhead}/${rounds}  CPU ${s.cpuRatioMedian?.toFixed(3) ?? 'n/a'}  load ${s.load[0]}–${s.load[1]} on ${cpus().length} CPUs`);
  writeFileSync(
    args.out,
    JSON.stringify({ date: new Date().toISOString(), engine: pgUrl ? 'postgres' : 'sqlite', resource: resource.name, rows, connections, duration, rounds, A: sides[0].label, B: sides[1].label, summary }, null, 2) + '\n',
  );
  log(`\nresults: ${args.out}`);
} finally {
  await stopAll();
  if (pgUrl) for (const name of databases) await onPostgres(`drop database if exists "${name}" with (force)`).catch(() => {});
  for (const where of [checkout, headCheckout])
    if (existsSync(where)) execFileSync('git', ['worktree', 'remove', '--force', where], { cwd: root, stdio: 'ignore' });
  rmSync(dir, { recursive: true, force: true });
}
