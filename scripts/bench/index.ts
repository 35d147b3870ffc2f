/**
 * `npm run bench [-- <resource>… --rows N --duration S --runs N --connections 10,50 --warmup S --seed N
 *                   --pg --cold --cache-mb N --no-browser --out file]`
 *
 * Seeds a fresh database with N valid rows of a manifest resource (default: the largest with both a
 * list and a one read), then measures our server against json-server 0.17 over the same rows and
 * against a bare Fastify ceiling, each in a child process, one scenario after another, and our server's
 * memory (RSS and heap used, after a full GC) when it starts and after each scenario. Writes
 * scripts/bench/results.json and prints a table with the issue's goals. A report: missed goals still
 * exit 0; errors (a server failing, more than 1% non-2xx answers) exit 1.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem, platform, release } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { registry } from '../../resources/index.ts';
import type { ResourceDef, Role } from '../../src/manifest/index.ts';
import { creatorOf } from './accounts.ts';
import { parseReadCacheBytes } from '../../src/server/config.ts';
import { connect, dropSchema } from '../../src/server/db/connect.ts';
import { parseReadWorkers } from '../../src/server/db/sqlite/read-pool.ts';
import { DEMO_PASSWORD, demoEmail } from '../../src/server/seed/index.ts';
import { browserAvailable, dialogOpenTiming } from './browser.ts';
import { feltSpeed, feltSpeedLines, writeBrowserOnly, type FeltSpeed } from './journeys.ts';
import { lowerOf, measureOnce, type Figures } from './measure.ts';
import { memoryOf, type MemorySample } from './memory.ts';
import { preflight, ask, type Check } from './preflight.ts';
import { BENCH_TABLES, cpuText, DIALOG_GOAL_MS, row, table, updateBenchTables, writeResults, type ResourceResult, type Results } from './report.ts';
import { buildScenarios, SERVER_LABELS, SERVERS, type ServerKey } from './scenarios.ts';
import { seed, writeJsonServerDb } from './seed.ts';
import { startCeiling, startJsonServer, startOurs, stopAll, type Child, type OursOptions } from './servers.ts';
import { comparePeer, ensurePlatformatic, PLATFORMATIC_LABEL, preparePlatformaticTable, rssOf, startPlatformatic, stopPeers, type PeerChild, type PlatformaticInstall } from './peers/platformatic.ts';
import type { PeerInfo } from './report.ts';

const DEFAULT_OUT = join(import.meta.dirname, 'results.json');
const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rows: { type: 'string', default: '50000' },
    duration: { type: 'string', default: '10' },
    runs: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10,50' },
    warmup: { type: 'string' },
    seed: { type: 'string', default: '1' },
    pg: { type: 'boolean', default: false },
    cold: { type: 'boolean', default: false },
    'cache-mb': { type: 'string' },
    'no-browser': { type: 'boolean', default: false },
    // The speed a person feels (journeys.ts): only the browser's part, how many rounds, against which other work tree.
    'browser-only': { type: 'boolean', default: false },
    'journeys-runs': { type: 'string', default: '5' },
    'journeys-base': { type: 'string' },
    out: { type: 'string', default: DEFAULT_OUT },
    // Only these scenarios (`--only create`): a partial run, so it needs an --out of its own.
    only: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
    // Peers measured beside ours in the same run (scripts/bench/peers/): `--peers platformatic` (PostgreSQL).
    peers: { type: 'string' },
    // The realtime socket's bench (scripts/bench/sockets.ts) instead of the HTTP one.
    sockets: { type: 'string' },
    'per-client': { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '8' },
    // Money moving (scripts/bench/money.ts): checkouts, the stock race and bids on one auction.
    money: { type: 'boolean', default: false },
    // A write's cost against its audience (scripts/bench/audience.ts): creates with 1 and with N admins.
    audience: { type: 'boolean', default: false },
    admins: { type: 'string', default: '1000' },
    // What each index costs a create (scripts/bench/index-cost.ts).
    'index-cost': { type: 'boolean', default: false },
    // Does a second node add throughput (scripts/bench/nodes.ts): 1 node and N behind one address.
    nodes: { type: 'string' },
    inserts: { type: 'string', default: '400' },
    trials: { type: 'string', default: '5' },
  },
});
if (args.help) {
  console.log(
    'npm run bench -- [resource…] [--rows 50000] [--duration 10] [--runs 2] [--connections 10,50] [--warmup S] [--seed 1] [--pg] [--cold] [--cache-mb N] [--no-browser] [--out file]\n' +
      '  --cold        every read gets a unique `_=<n>` parameter (a server caching by URL misses its cache) and ours runs\n' +
      '                with its read cache off: measures the database path\n' +
      '  --cache-mb N  ours\' read-cache bound in MiB (READ_CACHE_MB; default: the server\'s 64, 0 with --cold);\n' +
      '                `--cold --cache-mb 64` sends the cache-busting parameters to a caching server\n' +
      '  ours\' memory (RSS, heap used) is reported at its start and after each scenario\n' +
      '  --peers platformatic  Platformatic DB 3 (on Node 22) beside ours in the same run, over a copy of the same rows,\n' +
      '                       asked the same pages, record, search and creates (--pg only; installed on first use into\n' +
      '                       ~/.cache/marketplace-bench/peers, or $BENCH_PEERS_DIR, never into the project)\n' +
      '  --browser-only       only the browser\'s part: the dialog opening and the journeys (sign-in, search, next page)\n' +
      '  --journeys-runs N    rounds of the journeys (default 5); --journeys-base <work tree> runs them against that\n' +
      '                       tree\'s client and server too, in turns (e.g. `git worktree add --detach /tmp/wt-base <commit>`)\n' +
      '  --only create,one    only these scenarios (sorted, deep, filtered, search, shopSearch, one, create); a partial\n' +
      '                       run, written only to an --out of its own\n' +
      '  BENCH_CPU_PROF=<folder> in the environment: ours writes a V8 CPU profile there when it stops\n' +
      '  BENCH_JOURNEYS_PROF=<folder>: the page\'s CPU profile of each journey there (BENCH_JOURNEYS_TRACE=1: a Chromium\n' +
      '                       trace instead); BENCH_CLIENT_UNMINIFIED=1 builds the clients with their names kept\n' +
      'npm run bench -- --sockets 1000 [--per-client 3] [--concurrency 8]: socket delivery across two nodes (needs DATABASE_URL + REDIS_URL; else one SQLite node)\n' +
      'npm run bench -- --money [--pg] [--duration 10] [--connections 50]: checkouts a second with no oversell, the stock race, bids a second on one auction\n' +
      'npm run bench -- --audience [--pg] [--duration 10] [--connections 50] [--admins 1000]: product creates with 1 and with N active admins to tell\n' +
      'npm run bench -- --index-cost [--pg] [--rows 20000] [--inserts 400] [--trials 5]: what each index of products costs an insert\n' +
      'npm run bench -- --nodes 2 [--rows 20000] [--duration 5] [--runs 2] [--connections 50]: 1 node and N behind one address (PostgreSQL + Redis)',
  );
  process.exit(0);
}

/** A flag's whole number above 0 (`--admins 1000`), or why not. */
const whole = (name: string, v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a whole number above 0, not '${v}'`);
  return n;
};
/** A flag's number above 0 (`--duration 2.5`), or why not. */
const above0 = (name: string, v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, not '${v}'`);
  return n;
};
/** The one-node benches take one number of connections: the last of a list (`10,50` → 50). */
const lastConnections = () => whole('connections', args.connections.split(',').at(-1)!);

if (args.sockets !== undefined) {
  const { benchSockets } = await import('./sockets.ts');
  process.exit(
    await benchSockets({ clients: whole('sockets', args.sockets), perClient: whole('per-client', args['per-client']), concurrency: whole('concurrency', args.concurrency), out: args.out }),
  );
}

if (args.audience) {
  const { benchAudience } = await import('./audience.ts');
  process.exit(
    await benchAudience({ pg: args.pg, durationS: above0('duration', args.duration), connections: lastConnections(), admins: whole('admins', args.admins), out: args.out }),
  );
}

if (args.nodes !== undefined) {
  const { benchNodes } = await import('./nodes.ts');
  process.exit(
    await benchNodes({ nodes: whole('nodes', args.nodes), rows: whole('rows', args.rows), durationS: above0('duration', args.duration), runs: whole('runs', args.runs), connections: lastConnections(), out: args.out }),
  );
}

if (args['index-cost']) {
  const { benchIndexCost } = await import('./index-cost.ts');
  process.exit(
    await benchIndexCost({ pg: args.pg, rows: whole('rows', args.rows), inserts: whole('inserts', args.inserts), trials: whole('trials', args.trials), out: args.out }),
  );
}

if (args.money) {
  const { benchMoney } = await import('./money.ts');
  process.exit(await benchMoney({ pg: args.pg, durationS: above0('duration', args.duration), connections: lastConnections(), out: args.out }));
}

const positive = above0;
const MiB = 1024 * 1024;
/** Ours' read-cache bound, MiB: given, else off for a cold run, else what the server would take (READ_CACHE_MB or 64). */
const cacheMbOf = (value: string | undefined, name: string) => {
  if (value !== undefined && !(Number(value) >= 0)) throw new Error(`${name} must be a number of MiB (0 or more), not '${value}'`);
  return parseReadCacheBytes(value) / MiB;
};
const cacheMb =
  args['cache-mb'] !== undefined ? cacheMbOf(args['cache-mb'], '--cache-mb') : args.cold ? 0 : cacheMbOf(process.env.READ_CACHE_MB, 'READ_CACHE_MB');
const rows = Math.floor(positive('rows', args.rows));
const duration = positive('duration', args.duration);
const runs = Math.floor(positive('runs', args.runs));
const connections = args.connections.split(',').map((c) => Math.floor(positive('connections', c)));
const warmup = args.warmup !== undefined ? Number(args.warmup) : Math.min(2, Math.max(0.5, duration / 5));
const seedNumber = Math.floor(Number(args.seed));
const pgUrl = args.pg ? process.env.DATABASE_URL : undefined;
if (args.pg && !pgUrl?.startsWith('postgres')) throw new Error('--pg needs DATABASE_URL=postgres://…');
const useBrowser = !args['no-browser'] && browserAvailable();
const browserOnly = args['browser-only'];
/** `--only`: the scenario keys to measure, the rest left out (a partial run never replaces a whole one in results.json). */
const only = args.only?.split(',').map((k) => k.trim()).filter(Boolean);
if (only && args.out === DEFAULT_OUT) throw new Error('--only measures part of a run: give it an --out of its own (results.json keeps whole runs)');
if (browserOnly && !useBrowser) throw new Error('--browser-only needs /usr/bin/chromium (and no --no-browser)');
const journeysRuns = Math.floor(positive('journeys-runs', args['journeys-runs']));
/** The peers asked for (`--peers platformatic`); each is installed, or left out with its reason, in the run. */
const KNOWN_PEERS = ['platformatic'] as const;
const peerNames = (args.peers ?? '').split(',').map((p) => p.trim().toLowerCase()).filter(Boolean);
for (const p of peerNames) if (!(KNOWN_PEERS as readonly string[]).includes(p)) throw new Error(`--peers: unknown peer '${p}' (known: ${KNOWN_PEERS.join(', ')})`);
const withPlatformatic = peerNames.includes('platformatic');
/** Platformatic DB's install, looked for (and made) once a run. */
let platformaticInstall: Promise<PlatformaticInstall> | undefined;
/** The most rows json-server is given: its db.json is one JSON text, read whole (a million products would not fit a string). */
const JSON_SERVER_MAX_ROWS = 200_000;

/** Today: the resource with the most fields among those with both a list and a one read. */
function defaultResource(): ResourceDef {
  const candidates = registry.resources.filter(
    (r) => r.reads.list?.kind === 'list' && Object.values(r.reads).some((x) => x.kind === 'one'),
  );
  if (!candidates.length) throw new Error('No resource declares both a list and a one read; name one to bench.');
  return candidates.reduce((a, b) => (b.fields.length > a.fields.length ? b : a));
}
const targets = positionals.length ? positionals.map((n) => registry.resource(n)) : [defaultResource()];

const log = (s: string) => console.log(s);
const errors: string[] = [];
const results: Results = {
  machine: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memoryGB: Math.round(totalmem() / 2 ** 30),
    platform: `${platform()} ${release()}`,
    node: process.version,
    engine: pgUrl ? 'postgres' : 'sqlite',
    date: new Date().toISOString(),
    rows,
    resources: targets.map((t) => t.name),
    loadAtStart: loadavg().map((x) => Math.round(x * 100) / 100),
  },
  // Ours reads READ_WORKERS from this environment, as the server would.
  options: {
    rows, duration, runs, connections, warmup, seed: seedNumber, cold: args.cold, cacheMb, browser: useBrowser, readWorkers: parseReadWorkers(process.env.READ_WORKERS),
    ...(peerNames.length && { peers: peerNames }),
    ...(browserOnly && { browserOnly, journeysRuns, journeysBase: args['journeys-base'] }),
  },
  resources: [],
  errors,
};

async function login(ours: Child, role: Role = 'admin'): Promise<string> {
  const res = await fetch(`${ours.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: demoEmail(role), password: DEMO_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`signing in as ${role} failed: ${res.status} ${await res.text()}`);
  return res.headers.get('set-cookie')!.split(';')[0];
}

/**
 * Waits until a server has finished the requests the load generator left it (ms waited). A slow server
 * (json-server: seconds a request) goes on computing the answers to requests in flight when the
 * measurement stops, on the same 2 cores: the next server measured would share them with it. Measured so,
 * the ceiling right after json-server answered 6,300 req/s, the same route elsewhere in the run 14,600.
 * An answer to one more request means the ones before it are done (one event loop, taken in turn).
 */
async function drained(url: string): Promise<number> {
  const started = performance.now();
  await fetch(url + '/', { signal: AbortSignal.timeout(120_000) })
    .then((res) => res.arrayBuffer())
    .catch(() => {});
  return Math.round(performance.now() - started);
}

/** Failures beyond 1% of the answers make the run an error: the figures would be of failing requests. */
function failureRate(m: Figures) {
  const bad = m.non2xx + m.errors + m.timeouts;
  return bad / Math.max(1, m.total + m.errors + m.timeouts);
}

/** A resource's results with the journeys' figures (journeys.ts). */
type BrowserResult = ResourceResult & { feltSpeed?: FeltSpeed };

/** In Chromium: how long a create dialog takes to open (browser.ts), and the journeys a person makes (journeys.ts). */
async function browserPart(r: ResourceDef, dbOptions: OursOptions, result: BrowserResult) {
  if (!useBrowser) {
    result.dialogOpen = {
      type: Object.entries(r.dialogs).find(([, d]) => d.kind === 'create')?.[0] ?? '',
      status: 'skipped',
      reason: args['no-browser'] ? '--no-browser' : '/usr/bin/chromium is absent',
      measures: [],
      observed: [],
      goalMs: DIALOG_GOAL_MS,
    };
    return;
  }
  log('  dialog-open timing in Chromium…');
  try {
    result.dialogOpen = await dialogOpenTiming(r, dbOptions, DIALOG_GOAL_MS, log);
  } catch (e) {
    errors.push(`${r.name} dialog-open: ${(e as Error).message.split('\n')[0]}`);
  }
  log(`  journeys in Chromium (sign-in, next page, search), ${journeysRuns} rounds${args['journeys-base'] ? `, against ${args['journeys-base']} in turns` : ''}…`);
  try {
    result.feltSpeed = await feltSpeed(r, dbOptions, { runs: journeysRuns, checkout: args['journeys-base'], log });
  } catch (e) {
    errors.push(`${r.name} journeys: ${(e as Error).message.split('\n')[0]}`);
  }
}

async function benchResource(r: ResourceDef): Promise<BrowserResult> {
  const dir = mkdtempSync(join(tmpdir(), 'marketplace-bench-'));
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  /** Platformatic DB's schema (`--peers platformatic`): its copy of the rows, beside ours'. */
  const pltSchema = `${schema}_plt`;
  const dbOptions: OursOptions = pgUrl ? { url: pgUrl, schema } : { file: join(dir, 'bench.sqlite') };
  try {
    log(`\n${r.name}: seeding ${rows.toLocaleString('en')} rows into a fresh ${pgUrl ? 'PostgreSQL schema' : 'SQLite file'}…`);
    const database = await connect(dbOptions);
    const seeded = await seed(database, registry, r, rows, { seed: seedNumber, log });
    await database.close();
    const dbJson = join(dir, 'db.json');
    // json-server holds its whole database as one JSON document: past JSON_SERVER_MAX_ROWS it cannot load it.
    const withJsonServer = rows <= JSON_SERVER_MAX_ROWS;
    if (withJsonServer) writeJsonServerDb(dbJson, seeded);
    log(`  seeded in ${(seeded.millis / 1000).toFixed(1)} s; ${withJsonServer ? 'db.json for json-server written' : `json-server left out (more than ${JSON_SERVER_MAX_ROWS.toLocaleString('en')} rows)`}`);

    if (browserOnly) {
      const result: BrowserResult = {
        resource: r.name, rows, seeded: Object.fromEntries([...seeded.rows].map(([k, v]) => [k, v.length])), seedSeconds: Math.round(seeded.millis / 100) / 10,
        scenarios: [], checks: [], notes: [], results: [], cacheMb, memory: [],
      };
      await browserPart(r, dbOptions, result);
      return result;
    }
    const ours = await startOurs({ ...dbOptions, cacheMb });
    const memory: MemorySample[] = [await memoryOf(ours.url, 'start')];
    const cookie = await login(ours);
    const creator = creatorOf(r);
    const createCookie = creator === 'admin' ? cookie : await login(ours, creator);
    const json = withJsonServer ? await startJsonServer(dbJson, `/${r.name}?_start=0&_end=1`) : undefined;
    const servers = SERVERS.filter((k) => k !== 'jsonServer' || json);
    // Platformatic DB (`--peers platformatic`): its own copy of the rows, its own process on Node 22; or left out, saying why.
    const peers: Record<string, PeerInfo> = {};
    let platformatic: PeerChild | undefined;
    let ownerId: string | undefined;
    if (withPlatformatic) {
      const skip = (reason: string) => {
        peers.platformatic = { label: PLATFORMATIC_LABEL, status: 'skipped', reason };
        log(`  ⚠ ${PLATFORMATIC_LABEL} left out: ${reason}`);
      };
      if (!pgUrl) skip('it is measured on PostgreSQL only (run with --pg and DATABASE_URL)');
      else
        try {
          const install = await (platformaticInstall ??= ensurePlatformatic(log));
          log(`  ${PLATFORMATIC_LABEL} ${install.version} on Node ${install.nodeVersion} (${install.dir}): copying ${r.name} into schema ${pltSchema}…`);
          const t = Date.now();
          const made = await preparePlatformaticTable(pgUrl, { from: schema, to: pltSchema, table: r.name, creatorEmail: demoEmail(creator) });
          ownerId = made.creatorId;
          platformatic = await startPlatformatic(install, pgUrl, pltSchema);
          peers.platformatic = {
            label: PLATFORMATIC_LABEL, status: 'measured', version: install.version, node: install.nodeVersion,
            rssMB: { start: rssOf(platformatic.pid) },
            setup: `${made.rows.toLocaleString('en')} rows of ${r.name} copied into a schema of its own with ours' ${made.indexes} indexes (the trigram index on the column, for its ILIKE); creates as ${creator} ${ownerId ?? '(not found)'}`,
          };
          log(`  ${PLATFORMATIC_LABEL} listening at ${platformatic.url} (${((Date.now() - t) / 1000).toFixed(1)} s to copy the rows and start)`);
        } catch (e) {
          skip((e as Error).message.split('\n')[0]);
        }
    }
    const built = buildScenarios({
      registry, resource: r, seeded, cookie, createCookie, seed: seedNumber, cold: args.cold,
      ...(platformatic && { platformatic: { ownerId } }),
    });
    const { notes } = built;
    const scenarios = only ? built.scenarios.filter((s) => only.includes(s.key)) : built.scenarios;

    // Preflight: every scenario answered by ours and json-server, the same work; ours' answers size the ceiling.
    const checks: Check[] = [];
    const ceilingRoutes: { method: string; url: string; status: number; body: string }[] = [];
    for (const s of scenarios) {
      const { ours: answer, check } = await preflight(s, { ours: ours.url, jsonServer: json?.url }, r.title).catch(async (e: Error) => {
        await new Promise((done) => setTimeout(done, 100)); // let the child's stderr arrive
        throw new Error(`${e.message}\n${ours.log()}`);
      });
      checks.push(check);
      ceilingRoutes.push({ ...s.ceilingRoute, body: answer.text });
      log(`  check ${s.key}: ${check.ok ? 'ok' : 'MISMATCH'} (${check.detail}); ours answers ${answer.text.length} bytes`);
      if (platformatic && s.platformatic) {
        const peer = comparePeer(s.compare, answer, await ask(platformatic.url, s.platformatic), r.title);
        checks.push({ scenario: s.key, ...peer, against: 'platformatic' });
        log(`  check ${s.key} against ${PLATFORMATIC_LABEL}: ${peer.ok ? 'same answer' : 'MISMATCH'} (${peer.detail})`);
      }
    }
    const routesFile = join(dir, 'ceiling-routes.json');
    writeFileSync(routesFile, JSON.stringify(ceilingRoutes));
    const ceiling = await startCeiling(routesFile);
    for (const s of scenarios) {
      const a = await ask(ceiling.url, s.ceiling);
      if (a.status !== s.ceilingRoute.status) throw new Error(`ceiling answered ${a.status} to ${s.key}`);
    }
    const children: Partial<Record<ServerKey, Child | PeerChild>> = { ours, jsonServer: json, ceiling, platformatic };
    // Measured in turns: ours, then a peer asked the same (next to each other in time), then the others.
    const serversOf = (s: (typeof scenarios)[number]): ServerKey[] => ['ours', ...(platformatic && s.platformatic ? (['platformatic'] as const) : []), ...servers.filter((k) => k !== 'ours')];

    const result: ResourceResult = {
      resource: r.name,
      rows,
      seeded: Object.fromEntries([...seeded.rows].map(([k, v]) => [k, v.length])),
      seedSeconds: Math.round(seeded.millis / 100) / 10,
      scenarios: scenarios.map((s) => ({
        key: s.key,
        label: s.label,
        requests: Object.fromEntries(
          [...SERVERS, ...(s.platformatic ? (['platformatic'] as const) : [])].map((k) => [k, `${s[k]!.method} ${s[k]!.path}`]),
        ) as Record<ServerKey, string>,
      })),
      checks,
      notes,
      results: [],
      cacheMb,
      memory,
      ...(withPlatformatic && { peers }),
    };

    // One measurement at a time: scenario, then connections, then run, the servers interleaved, in turns:
    // each run after the first takes them in the other order, so none is always measured first (the first
    // run of a scenario met colder caches and JIT) or always right after a peer's backlog.
    const total = scenarios.reduce((n, s) => n + serversOf(s).length, 0) * connections.length * runs;
    let done = 0;
    for (const s of scenarios) {
      for (const c of connections) {
        const figures: Record<ServerKey, Figures[]> = { ours: [], jsonServer: [], ceiling: [], platformatic: [] };
        const measuring = serversOf(s);
        for (let run = 1; run <= runs; run++)
          for (const k of run % 2 ? measuring : [...measuring].reverse()) {
            // The CPU ours' (and Platformatic's) requests cost, PostgreSQL's share apart; the ceiling's and json-server's their own process's.
            const cpu = { pid: children[k]!.pid, database: (k === 'ours' || k === 'platformatic') && Boolean(pgUrl) };
            const f = { ...(await measureOnce(children[k]!.url, s[k]!, c, duration, warmup, cpu)), load: Math.round(loadavg()[0] * 100) / 100 };
            figures[k].push(f);
            done++;
            log(
              `  [${done}/${total}] ${s.key} ×${c} run ${run}/${runs} ${SERVER_LABELS[k].padEnd(11)} ` +
                `${f.reqPerSec.toFixed(1).padStart(9)} req/s  p50 ${f.p50} ms  p99 ${f.p99} ms` +
                (f.cpu ? `  CPU ${cpuText(f.cpu)}` : '') +
                (f.non2xx + f.errors + f.timeouts ? `  (${f.non2xx} non-2xx, ${f.errors} errors, ${f.timeouts} timeouts)` : ''),
            );
            if (!children[k]!.alive()) throw new Error(`${SERVER_LABELS[k]} died during ${s.key} ×${c}\n${children[k]!.log()}`);
            const drain = await drained(children[k]!.url);
            if (drain > 1000) log(`    ${SERVER_LABELS[k]} took ${(drain / 1000).toFixed(1)} s more to finish what it had been asked`);
          }
        const measured = Object.fromEntries(measuring.map((k) => [k, lowerOf(figures[k])])) as Record<ServerKey, ReturnType<typeof lowerOf>>;
        for (const k of measuring)
          if (failureRate(measured[k]) > 0.01)
            errors.push(
              `${r.name} ${s.key} ×${c}: ${SERVER_LABELS[k]} failed ${(failureRate(measured[k]) * 100).toFixed(1)}% ` +
                `(status ${JSON.stringify(measured[k].status)}, ${measured[k].errors} errors, ${measured[k].timeouts} timeouts)`,
            );
        result.results.push(row(s.key, c, measured, duration, args.cold));
      }
      memory.push(await memoryOf(ours.url, `after ${s.key}`));
    }
    if (platformatic && peers.platformatic?.rssMB) peers.platformatic.rssMB.end = rssOf(platformatic.pid);
    await Promise.all([ours.stop(), json?.stop(), ceiling.stop(), platformatic?.stop()]);
    await browserPart(r, dbOptions, result);
    return result;
  } finally {
    await Promise.all([stopAll(), stopPeers()]);
    if (pgUrl) await dropSchema(pgUrl, schema).catch(() => {});
    if (pgUrl && withPlatformatic) await dropSchema(pgUrl, pltSchema).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

process.once('SIGINT', () => {
  void Promise.all([stopAll(), stopPeers()]).then(() => process.exit(130));
});

let failed = false;
try {
  log(
    `bench: ${targets.map((t) => t.name).join(', ')}, ${rows.toLocaleString('en')} rows, ${duration} s × ${runs} run(s) per measurement ` +
      `(+${warmup} s warm-up), connections ${connections.join(', ')}, ${cpus().length} CPUs, Node ${process.version}`,
  );
  if (loadavg()[0] > cpus().length * 0.5)
    log(`  ⚠ the machine is already busy (load ${loadavg()[0].toFixed(2)} on ${cpus().length} CPUs): figures will be noisy`);
  for (const r of targets) results.resources.push(await benchResource(r));
  results.machine.loadAtEnd = loadavg().map((x) => Math.round(x * 100) / 100);
} catch (e) {
  failed = true;
  errors.push((e as Error).stack ?? String(e));
} finally {
  // A browser-only run keeps its journeys apart: under the run's label it would replace a whole run's figures.
  if (browserOnly) writeBrowserOnly(args.out, results);
  else writeResults(args.out, results);
  // docs/performance.md's table of this engine, mode and size follows the kept results (not a run written elsewhere).
  if (!browserOnly && args.out === DEFAULT_OUT && results.resources.length) updateBenchTables(BENCH_TABLES, results);
}
for (const r of results.resources as BrowserResult[]) {
  if (r.feltSpeed) log('\n' + feltSpeedLines(r.feltSpeed).join('\n'));
  if (browserOnly) continue;
  log(`\n${r.resource}: ${r.rows.toLocaleString('en')} rows (${Object.entries(r.seeded).map(([k, v]) => `${k} ${v}`).join(', ')}), ` +
    `${duration} s per run, lower of ${runs} run(s); latencies are ours\n`);
  log(table(r));
  const loads = r.results.flatMap((x) => Object.values(x.servers).flatMap((m) => m!.runs.map((f) => f.load ?? 0)));
  if (loads.length)
    log(`\n  load average during the runs: ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)} on ${cpus().length} CPUs` +
      (Math.max(...loads) > cpus().length ? ' (others were busy too: treat the figures as noisy)' : ''));
  for (const c of r.checks.filter((x) => !x.ok))
    log(`  ⚠ ${c.scenario}: ours and ${c.against === 'platformatic' ? PLATFORMATIC_LABEL : 'json-server'} answered differently: ${c.detail}`);
  for (const n of r.notes) log(`  note: ${n}`);
}
log(`\nresults: ${args.out}`);
if (errors.length) {
  console.error(`\nerrors:\n${errors.map((e) => `  ${e}`).join('\n')}`);
  process.exitCode = 1;
} else if (failed) process.exitCode = 1;
