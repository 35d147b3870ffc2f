/**
 * `npm start`: builds what is missing or older than its sources, then serves client and API on one port
 * (PORT, default 3000; HOST, default 127.0.0.1).
 *
 * Plain JavaScript, run by node with the server's flags (package.json's `start`, src/server/node-flags.ts):
 * this process becomes the server, and it loads neither a TypeScript loader nor Vite (docs/performance.md,
 * "A lean process (issue 54)"). What needs building is built by processes of its own, which have ended
 * before the server starts:
 * - the client (Vite, into CLIENT_DIR, default `dist/`) when it is missing or older than its sources;
 * - the server (scripts/build-server.ts, through tsx, into `dist-server/`) when it is missing, or a file
 *   it was built from is newer than the build or gone (`dist-server/inputs.json`).
 * Then it runs `dist-server/serve.js` (src/server/serve.ts, compiled): in this process, or, where the C
 * library is glibc's, in a child started with MALLOC_ENV (below), this process staying as its parent.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..');
/** scripts/build-server.ts's SERVER_BUILD_DIR. */
const SERVER_DIR = join(ROOT, 'dist-server');
/** What the client bundle is built from. */
const CLIENT_SOURCES = ['index.html', 'vite.config.ts', 'package.json', 'public', 'src/client', 'src/features', 'src/manifest', 'src/domain', 'resources'];

/** The newest modification time under `path` (0 when it is missing). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

function clientIsStale(clientDir) {
  const built = join(clientDir, 'index.html');
  return !existsSync(built) || Math.max(...CLIENT_SOURCES.map((p) => newest(join(ROOT, p)))) > statSync(built).mtimeMs;
}

function serverIsStale() {
  let build;
  try {
    build = JSON.parse(readFileSync(join(SERVER_DIR, 'inputs.json'), 'utf8'));
  } catch {
    return true;
  }
  if (!existsSync(join(SERVER_DIR, 'serve.js'))) return true;
  return build.inputs.some((file) => {
    try {
      return statSync(join(ROOT, file)).mtimeMs > build.builtAt;
    } catch {
      return true;
    }
  });
}

/** Runs node on `args` in a process of its own and stops here, with its status, if it fails. */
function run(args) {
  const { status, signal } = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (status !== 0) {
    console.error(`${args.join(' ')} failed (${signal ?? `exit ${status}`})`);
    process.exit(status || 1);
  }
}

// Where the server looks for it (config.ts: CLIENT_DIR, relative to where it is started).
const clientDir = resolve(process.env.CLIENT_DIR ?? 'dist');
if (clientIsStale(clientDir)) {
  console.log('Building the client…');
  const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  run([vite, 'build', '--logLevel', 'warn', '--outDir', clientDir]);
}
if (serverIsStale()) {
  console.log('Building the server…');
  run(['--import', 'tsx', join(ROOT, 'scripts', 'build-server.ts')]);
}

/**
 * glibc's malloc keeps what the server frees in the arena of the thread that freed it once the first big
 * block has gone back (it then raises its threshold for handing memory back to 32 MiB). A password check
 * (scrypt, N = 16384) takes 16 MiB on one of libuv's 4 threads: each thread that ever checked one kept
 * it, 16 MiB after one sign-in, 64 MiB after four, for as long as the process ran. With the threshold
 * fixed at 1 MiB (which turns the raising off) the blocks go back when freed: an idle server after a
 * sign-in held 141–143 MiB against 159–162, 177–180 against 198–203 under 50 connections, at the same
 * req/s (docs/performance.md, "A lean process (issue 54)"). glibc reads it only as the process starts, so
 * the server runs in a child started with it. src/server/node-flags.ts names it too (SERVER_MALLOC_ENV).
 */
const MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: '1048576' };

const serve = join(SERVER_DIR, 'serve.js');
const glibc = process.platform === 'linux' && Boolean(process.report?.getReport?.().header?.glibcVersionRuntime);
if (!glibc || Object.keys(MALLOC_ENV).some((name) => name in process.env)) await import(pathToFileURL(serve).href);
else {
  // Its own process group: a terminal's Ctrl-C reaches it through here, as a process manager's SIGTERM
  // does. Its IPC channel tells it when this process is gone, killed outright (src/server/serve.ts).
  const server = spawn(process.execPath, [...process.execArgv, serve], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...MALLOC_ENV },
    detached: true,
  });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const forward = (signal) => server.kill(signal);
  for (const signal of signals) process.on(signal, forward);
  // What this process did before (the checks above) is garbage from now on (`--expose-gc`: package.json).
  globalThis.gc?.();
  server.once('exit', (code, signal) => {
    for (const name of signals) process.off(name, forward);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}
