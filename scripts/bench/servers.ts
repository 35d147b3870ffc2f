/**
 * The servers under test, each in a child process of its own, so the load generator (this process)
 * and a server never share an event loop. Started once, stopped at the end, watched in between: a
 * server that dies is an error of the bench, not a slow result.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../../src/server/node-flags.ts';
import { buildServer, SERVER_BUILD_DIR } from '../build-server.ts';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

export interface Child {
  name: string;
  /** `http://127.0.0.1:<port>` */
  url: string;
  pid: number;
  /** False once the process has exited. */
  alive(): boolean;
  /** The last lines it wrote to stderr (for error reports). */
  log(): string;
  stop(): Promise<void>;
}

const children = new Set<Child>();

/** Stops every child still running (on errors and at exit). */
export async function stopAll() {
  await Promise.all([...children].map((c) => c.stop()));
}

function track(name: string, proc: ChildProcess, port: number): Child {
  let tail = '';
  proc.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  });
  let exited = proc.exitCode !== null;
  const done = new Promise<void>((resolve) => proc.once('exit', () => ((exited = true), resolve())));
  const child: Child = {
    name,
    url: `http://127.0.0.1:${port}`,
    pid: proc.pid!,
    alive: () => !exited,
    log: () => tail,
    async stop() {
      children.delete(child);
      if (exited) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
      await done;
      clearTimeout(timer);
    },
  };
  children.add(child);
  return child;
}

/**
 * Spawns a TypeScript child that prints `{"port":…}` on its first line once it listens. It may collect
 * its garbage on demand (`--expose-gc`), so the memory it reports is what it holds.
 */
function spawnTs(name: string, script: string, args: string[], env: NodeJS.ProcessEnv = {}, nodeArgs: string[] = [], timeoutMs = 60_000, dir = here): Promise<Child> {
  return spawnNode(name, [...nodeArgs, '--import', 'tsx', join(dir, script)], args, env, timeoutMs);
}

/** The same for any script (`node --expose-gc <nodeArgs…> <args…>`): the compiled server has no TypeScript to load. */
function spawnNode(name: string, nodeArgs: string[], args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Child> {
  const proc = spawn(process.execPath, ['--expose-gc', ...nodeArgs, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production', ...env },
  });
  let stderr = '';
  proc.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`${name} did not start within ${timeoutMs / 1000} s`)), timeoutMs);
    const fail = (e: Error) => {
      clearTimeout(timer);
      proc.kill('SIGKILL');
      reject(new Error(`${e.message}\n${stderr}`));
    };
    proc.once('exit', (code) => fail(new Error(`${name} exited with ${code} before listening`)));
    proc.once('error', fail);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line || !out.includes('\n')) return;
      clearTimeout(timer);
      // Once: what the child prints later (its shutdown messages) must not start it over, which would
      // drop the exit listener `track` adds and leave `stop()` waiting forever.
      proc.stdout!.off('data', onData);
      proc.removeAllListeners('exit');
      const { port } = JSON.parse(line) as { port: number };
      const child = track(name, proc, port);
      // BENCH_SERVER_OUT=<folder>: what the server prints later (as --trace-gc's lines) kept in <folder>/<name>.log.
      if (process.env.BENCH_SERVER_OUT) proc.stdout!.pipe(createWriteStream(join(process.env.BENCH_SERVER_OUT, `${name}.log`), { flags: 'a' }));
      else proc.stdout!.resume();
      resolve(child);
    };
    proc.stdout!.on('data', onData);
  });
}

export interface OursOptions {
  file?: string;
  url?: string;
  schema?: string;
  clientDir?: string;
  /** Ours' read-cache bound, MiB (`READ_CACHE_MB`; 0: no cache); left out, the server's default. */
  cacheMb?: number;
}

/**
 * Ours, as the code in `checkout` (another commit's work tree, for an A/B run: `ab.ts`) or this one's
 * when left out.
 */
export function startOurs(o: OursOptions, name = 'ours', checkout?: string): Promise<Child> {
  const args: string[] = [];
  if (o.file) args.push('--file', o.file);
  if (o.url) args.push('--url', o.url);
  if (o.schema) args.push('--schema', o.schema);
  if (o.clientDir) args.push('--client-dir', o.clientDir);
  // BENCH_CPU_PROF=<folder>: ours writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // BENCH_HEAP_PROF=<folder>: a sampled allocation profile instead (what allocates, and so what the collector pays for).
  if (process.env.BENCH_HEAP_PROF) profile.push('--heap-prof', `--heap-prof-dir=${process.env.BENCH_HEAP_PROF}`);
  // BENCH_NODE_FLAGS='--trace-gc …': more flags for both servers (what the collector does, turn by turn).
  if (process.env.BENCH_NODE_FLAGS) profile.push(...process.env.BENCH_NODE_FLAGS.split(/\s+/).filter(Boolean));
  // The flags `npm start` runs the server with (node-flags.ts): the bench measures the server as it runs.
  const env = o.cacheMb === undefined ? {} : { READ_CACHE_MB: String(o.cacheMb) };
  const dir = checkout ? join(checkout, 'scripts/bench') : here;
  // Compiled ahead, as `npm start` runs it (serve-ours.ts as scripts/build-server.ts builds it); a tree
  // from before that build existed runs serve-ours.ts through tsx, as the bench then did.
  const compiled = compiledOurs(checkout);
  // With the malloc settings npm start's server runs with on glibc (scripts/start.js); unset elsewhere.
  const mallocEnv = process.platform === 'linux' ? SERVER_MALLOC_ENV : {};
  if (compiled) return compiled.then((script) => spawnNode(name, [...SERVER_NODE_FLAGS, ...profile, script], args, { ...mallocEnv, ...env }, 60_000));
  return spawnTs(name, 'serve-ours.ts', args, env, [...SERVER_NODE_FLAGS, ...profile], 60_000, dir);
}

/** Each tree's compiled bench server, built once a bench run. */
const compiledBuilds = new Map<string, Promise<string>>();

/**
 * `dist-server/bench-ours.js` of this tree or of `checkout` (another commit's, ab.ts), built now; undefined
 * when that tree has no scripts/build-server.ts.
 */
function compiledOurs(checkout?: string): Promise<string> | undefined {
  const key = checkout ?? '';
  if (checkout && !existsSync(join(checkout, 'scripts/build-server.ts'))) return undefined;
  let build = compiledBuilds.get(key);
  if (!build) {
    build = checkout
      ? Promise.resolve().then(() => {
          // Its own build script, with its own options, in a process of its own.
          const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts'], { cwd: checkout, encoding: 'utf8' });
          if (run.status !== 0) throw new Error(`building the server of ${checkout} failed:\n${run.stderr}`);
          return join(checkout, SERVER_BUILD_DIR, 'bench-ours.js');
        })
      : buildServer().then((built) => built.files['bench-ours']);
    compiledBuilds.set(key, build);
  }
  return build;
}

export function startCeiling(routesFile: string): Promise<Child> {
  return spawnTs('ceiling', 'serve-ceiling.ts', [routesFile]);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * json-server 0.17 as its users run it: its own CLI over a db.json (`--quiet` keeps the per-request
 * log off, which would only slow it down). `probe` is a path that answers 200 once the file is loaded.
 */
export async function startJsonServer(dbFile: string, probe: string, timeoutMs = 120_000): Promise<Child> {
  const port = await freePort();
  const bin = join(dirname(require.resolve('json-server/package.json')), 'lib/cli/bin.js');
  const proc = spawn(process.execPath, [bin, '--quiet', '--host', '127.0.0.1', '--port', String(port), dbFile], {
    cwd: dirname(dbFile),
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const child = track('json-server', proc, port);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!child.alive()) throw new Error(`json-server exited before listening\n${child.log()}`);
    try {
      const res = await fetch(child.url + probe);
      await res.arrayBuffer();
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await child.stop();
  throw new Error(`json-server did not answer ${probe} within ${timeoutMs / 1000} s\n${child.log()}`);
}

/**
 * `workers` nodes of ours behind one address (serve-cluster.ts: Node's cluster, round robin), over a
 * seeded PostgreSQL schema, sharing the Redis of REDIS_URL: the one-node and two-node runs of nodes.ts.
 */
export function startOursCluster(workers: number, o: { url: string; schema?: string; cacheMb?: number }): Promise<Child> {
  const args = ['--workers', String(workers), '--url', o.url, ...(o.schema ? ['--schema', o.schema] : [])];
  const env = o.cacheMb === undefined ? {} : { READ_CACHE_MB: String(o.cacheMb) };
  return spawnTs(`ours ×${workers}`, 'serve-cluster.ts', args, env, [...SERVER_NODE_FLAGS], 120_000);
}
