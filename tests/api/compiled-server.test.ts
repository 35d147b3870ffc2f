/**
 * Issue 54, "a heavy process": `npm start` runs the server compiled ahead (scripts/build-server.ts, into
 * dist-server/), in a process that loads neither a TypeScript loader nor Vite. Here the server is built,
 * then scripts/start.js is run as package.json's `start` runs it (its node flags, a client that needs no
 * build), on each engine, with a module-resolution probe (`--import`, a hook that writes down every URL
 * the process resolves). It must answer as the server run from source does, and what it loaded must
 * hold the compiled entry and nothing of tsx, esbuild, Vite or rolldown, no TypeScript file, and none of
 * the packages only other settings need (pg and pg-boss on SQLite, node-redis without REDIS_URL). On
 * glibc the server runs in a child of start.js, started with SERVER_MALLOC_ENV, which stops with it. No
 * memory is measured here: the bench and docs/performance.md ("A lean process (issue 54)") do that.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.ts';
import { dropSchema } from '../../src/server/db/connect.ts';
import { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../../src/server/node-flags.ts';
import { engines } from '../support/server.ts';
import { signInAt } from '../support/nodes.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const CLIENT_MARK = '<!-- compiled-server test client -->';

/** The probe: registers a resolve hook that appends every URL resolved to PROBE_FILE. */
const PROBE = `import { register } from 'node:module';
register(${JSON.stringify('data:text/javascript,' + encodeURIComponent(`import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(file, resolved.url + '\\n');
  return resolved;
}`))}, import.meta.url, { data: { file: process.env.PROBE_FILE } });
`;

interface Started {
  url: string;
  proc: ChildProcess;
  /** The URLs the process has resolved so far. */
  resolved(): string[];
  output(): string;
}

const dir = mkdtempSync(join(tmpdir(), 'compiled-server-'));
const probe = join(dir, 'probe.mjs');
const clientDir = join(dir, 'client');

beforeAll(async () => {
  await buildServer();
  writeFileSync(probe, PROBE);
  // A built client newer than its sources: start.js has no client to build.
  mkdirSync(clientDir);
  writeFileSync(join(clientDir, 'index.html'), `<!doctype html><title>test</title>${CLIENT_MARK}\n`);
  const later = new Date(Date.now() + 24 * 3600_000);
  utimesSync(join(clientDir, 'index.html'), later, later);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** package.json's `start` command (node, its flags, scripts/start.js), with the probe before the script. */
function startCommand(): string[] {
  const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.split(/\s+/);
  expect(start[0]).toBe('node');
  const script = start.findIndex((word) => word.endsWith('.js'));
  expect(start[script]).toBe('scripts/start.js');
  return [...start.slice(1, script), '--import', pathToFileURL(probe).href, join(ROOT, start[script])];
}

async function startCompiled(env: NodeJS.ProcessEnv, tag: string): Promise<Started> {
  const resolvedFile = join(dir, `${tag}.resolved`);
  const proc = spawn(process.execPath, startCommand(), {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Nothing of the test runner's own loaders: NODE_OPTIONS left out.
    env: { ...process.env, NODE_OPTIONS: '', PORT: '0', HOST: '127.0.0.1', REDIS_URL: '', SMTP_URL: '', CLIENT_DIR: clientDir, NODE_ENV: 'production', PROBE_FILE: resolvedFile, ...env },
  });
  let output = '';
  proc.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  proc.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`not listening after 90 s:\n${output}`)), 90_000);
    const early = (code: number | null) => reject(new Error(`exited with ${code} before listening:\n${output}`));
    proc.once('exit', early);
    const listening = () => {
      const match = /is running at (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      proc.off('exit', early);
      proc.stdout!.off('data', listening);
      resolvePromise(match[1]);
    };
    proc.stdout!.on('data', listening);
  });
  return {
    url,
    proc,
    resolved: () => (existsSync(resolvedFile) ? readFileSync(resolvedFile, 'utf8').split('\n').filter(Boolean) : []),
    output: () => output,
  };
}

async function stop(proc: ChildProcess) {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolvePromise) => proc.once('exit', resolvePromise));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** The processes whose parent is `pid` (Linux: /proc), each as `<pid> <command line>`. */
function childrenOf(pid: number): string[] {
  const children: string[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // `<pid> (<command>) <state> <ppid> …`: the command may hold spaces and parentheses, so from its last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid)
        children.push(`${entry} ${readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ')}`);
    } catch {
      // ended meanwhile
    }
  }
  return children;
}

/** What /proc tells (the process's command line and children): Linux only. */
const linux = existsSync('/proc/self/stat');
/** Where start.js runs the server in a child with SERVER_MALLOC_ENV (glibc); elsewhere in its own process. */
const glibc = linux && Boolean((process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime);

/** The process serving: start.js's child running dist-server/serve.js, or start.js's own process. */
function servingPid(launcher: number): number {
  const child = childrenOf(launcher).find((line) => line.includes(join('dist-server', 'serve.js')));
  return child ? Number(child.split(' ')[0]) : launcher;
}

const alive = (pid: number) => existsSync(`/proc/${pid}/stat`) && !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));

describe.each(engines)('npm start runs the compiled server (%s)', (engine) => {
  let server: Started;
  let schema: string | undefined;

  beforeAll(async () => {
    const env: NodeJS.ProcessEnv = { SQLITE_FILE: join(dir, `${engine}.sqlite`), UPLOADS_DIR: join(dir, `${engine}-uploads`) };
    if (engine === 'postgres') {
      const base = process.env.DATABASE_URL!;
      schema = `compiled_${randomBytes(5).toString('hex')}`;
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`create schema "${schema}"`);
      await client.end();
      env.DATABASE_URL = `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    } else env.DATABASE_URL = '';
    server = await startCompiled(env, engine);
  }, 120_000);

  afterAll(async () => {
    if (server) await stop(server.proc);
    if (schema) await dropSchema(process.env.DATABASE_URL!, schema);
  }, 60_000);

  it('answers as the server does: a list as the admin, the API document with the package version, the client', async () => {
    const cookie = await signInAt(server.url, 'admin');
    const list = await fetch(`${server.url}/api/admin/v1/categories?range=${encodeURIComponent('[0,9]')}`, { headers: { cookie } });
    expect(list.status).toBe(200);
    const rows = (await list.json()) as { name: string }[];
    expect(rows.length).toBe(10);
    expect(typeof rows[0].name).toBe('string');
    const document = await fetch(`${server.url}/api/openapi.json`, { headers: { cookie } });
    expect(document.status).toBe(200);
    expect(((await document.json()) as { info: { version: string } }).info.version).toBe(VERSION);
    const page = await fetch(`${server.url}/`);
    expect(await page.text()).toContain(CLIENT_MARK);
  });

  it('loads the compiled build, and nothing of tsx, esbuild, Vite or TypeScript', () => {
    const resolved = server.resolved();
    expect(resolved).toContain(pathToFileURL(join(ROOT, 'dist-server', 'serve.js')).href);
    const ours = resolved.filter((url) => url.startsWith(pathToFileURL(ROOT).href + '/') && !url.includes('/node_modules/'));
    expect(ours.filter((url) => !url.startsWith(pathToFileURL(join(ROOT, 'dist-server')).href + '/') && !url.endsWith('/scripts/start.js'))).toEqual([]);
    expect(resolved.filter((url) => /\.[cm]?tsx?$/.test(url))).toEqual([]);
    expect(resolved.filter((url) => /\/node_modules\/(tsx|esbuild|@esbuild|vite|rolldown|@rolldown)\//.test(url))).toEqual([]);
    if (!linux) return;
    const pid = servingPid(server.proc.pid!);
    // On glibc, in a child of start.js's process, started with the malloc settings; elsewhere in that process.
    expect(pid !== server.proc.pid).toBe(glibc);
    const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    for (const [name, value] of Object.entries(SERVER_MALLOC_ENV)) expect(environment.includes(`${name}=${value}`)).toBe(glibc);
    // Its command line: node, the server's flags, the probe and the script; no loader.
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    for (const flag of SERVER_NODE_FLAGS) expect(argv).toContain(flag);
    expect(argv.filter((word) => /tsx|loader/.test(word))).toEqual([]);
    // No process of its own beside it (tsx ran esbuild as a service process beside the server).
    expect(childrenOf(pid)).toEqual([]);
  });

  it('loads none of the packages only other settings need', () => {
    const packages = new Set(server.resolved().flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []));
    expect(packages.has('fastify')).toBe(true);
    // Without REDIS_URL: no Redis client.
    expect(packages.has('redis')).toBe(false);
    if (engine === 'sqlite') {
      expect(packages.has('pg')).toBe(false);
      expect(packages.has('pg-boss')).toBe(false);
    } else expect(packages.has('pg')).toBe(true);
  });

  it('stops when npm start is told to (SIGTERM), the server with it, and exits with 0', async () => {
    const pid = linux ? servingPid(server.proc.pid!) : server.proc.pid!;
    const exited = new Promise<number | null>((resolvePromise) => server.proc.once('exit', (code) => resolvePromise(code)));
    server.proc.kill('SIGTERM');
    expect(await exited).toBe(0);
    if (linux) expect(alive(pid)).toBe(false);
  });
});

describe.skipIf(!glibc)('the server start.js runs in a child', () => {
  it('does not outlive start.js killed outright', async () => {
    const started = await startCompiled({ SQLITE_FILE: join(dir, 'orphan.sqlite'), UPLOADS_DIR: join(dir, 'orphan-uploads'), DATABASE_URL: '' }, 'orphan');
    const pid = servingPid(started.proc.pid!);
    try {
      expect(pid).not.toBe(started.proc.pid);
      started.proc.kill('SIGKILL');
      await expect.poll(() => alive(pid), { timeout: 20_000 }).toBe(false);
    } finally {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 120_000);
});
