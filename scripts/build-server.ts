/**
 * Compiles the server ahead of time: `src/server/serve.ts` (what `npm start` runs) and the bench's
 * server (`scripts/bench/serve-ours.ts`), each with everything of ours it imports (src/, resources/),
 * bundled by esbuild into an ES module each in `dist-server/`, with the code they share and what is
 * imported dynamically in `dist-server/chunks/`. Packages stay imports of node_modules, but for the few
 * in BUNDLED_PACKAGES. Source maps are written beside (`serve.js.map`, for `node --enable-source-maps`),
 * not loaded.
 *
 * Why: run through tsx, the server process also held tsx's loader and esbuild's service (a child
 * process of its own), and under `npm start` Vite (docs/performance.md, "A lean process (issue 54)").
 *
 * Not in `dist/`: the server serves that folder to anyone (app.ts, `@fastify/static`), and Vite empties
 * it on every client build.
 *
 * `dist-server/inputs.json` lists the files a build read (esbuild's metafile, this script, tsconfig.json
 * and package.json) and when it started: scripts/start.js rebuilds when any is newer than that, or gone.
 * Every file is written beside its place and renamed into it: a process starting meanwhile reads the old
 * file or the new, never half of one.
 *
 *   npm run build:server      (tsx scripts/build-server.ts) builds into dist-server/
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/** The project's root (this script's parent folder). */
export const ROOT = resolve(import.meta.dirname, '..');

/** Where the compiled server goes, under the root. scripts/start.js names it too. */
export const SERVER_BUILD_DIR = 'dist-server';

/** The compiled entries: `<name>.js` in SERVER_BUILD_DIR, from these sources. */
export const SERVER_ENTRIES = {
  /** What `npm start` runs (scripts/start.js). */
  serve: 'src/server/serve.ts',
  /** The bench's server (scripts/bench/servers.ts). */
  'bench-ours': 'scripts/bench/serve-ours.ts',
} as const;

/**
 * Packages bundled in rather than imported from node_modules: pure JavaScript whose ES module builds are
 * hundreds of files (kysely 262, zod 95), each a module Node would read, compile and keep records of.
 * Every other package stays an import (better-sqlite3 is native; fastify, pg and the rest load files of
 * their own by path, and are loaded as they ship).
 */
export const BUNDLED_PACKAGES: readonly string[] = ['kysely', 'zod'];

/** The package a bare import names (`@scope/name/sub` -> `@scope/name`). */
const packageOf = (path: string) => path.split('/').slice(0, path.startsWith('@') ? 2 : 1).join('/');

const externalPackages: Plugin = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, ({ path }) => (BUNDLED_PACKAGES.includes(packageOf(path)) ? undefined : { path, external: true }));
  },
};

/** What a build wrote, and the files it read. */
export interface ServerBuild {
  dir: string;
  /** Each entry's compiled file, absolute. */
  files: Record<keyof typeof SERVER_ENTRIES, string>;
  inputs: string[];
}

/**
 * esbuild writes strings, regular expressions and names in ASCII (`charset: 'ascii'`, its default) but
 * keeps comments as they are, and some of ours hold '…', '§' or '→'. One such character makes V8 keep the
 * whole file's source, which it holds for as long as the process runs, at two bytes a character instead
 * of one (1.8 MB more for the server's two largest chunks). Whatever is left outside ASCII is in a
 * comment, so escaping it changes nothing that runs.
 */
function asciiOnly(code: string): string {
  return code.replace(/[^\x00-\x7f]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/** Builds every entry into `<root>/dist-server/`; throws (with esbuild's messages) when a source does not compile. */
export async function buildServer(root = ROOT): Promise<ServerBuild> {
  const dir = join(root, SERVER_BUILD_DIR);
  // Before anything is read: a source changed while the build runs is newer than it, and so rebuilt next time.
  const builtAt = Date.now();
  const result = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(SERVER_ENTRIES).map(([name, source]) => [name, join(root, source)])),
    outdir: dir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [externalPackages],
    // What is imported dynamically stays a file of its own, loaded when first asked for, as it is when run
    // from source: the manifest's client components (`component: () => import('….tsx')`), which the server
    // never asks for. Bundled into the entry, their packages (react-admin, MUI) would be imported at start.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    // No minifying: stack traces and profiles keep our names.
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  const stamp = `.${process.pid}.${Date.now()}.tmp`;
  const write = (path: string, contents: string | Uint8Array) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path + stamp, contents);
    renameSync(path + stamp, path);
  };
  // Maps, then chunks, then the entries that import them, the inputs list last: a build is complete once
  // its list is there (start.js reads it), and a process starting meanwhile finds every chunk its entry names.
  const order = (path: string) => (path.endsWith('.map') ? 0 : dirname(path) !== dir ? 1 : 2);
  const outputs = [...result.outputFiles].sort((a, b) => order(a.path) - order(b.path));
  for (const file of outputs) write(file.path, file.path.endsWith('.js') ? asciiOnly(file.text) : file.contents);
  // Chunks of earlier builds go (their names carry their content's hash, so the ones still used are kept).
  const chunks = join(dir, 'chunks');
  const made = new Set(outputs.map((file) => file.path));
  for (const name of existsSync(chunks) ? readdirSync(chunks) : []) if (!made.has(join(chunks, name)) && !name.endsWith('.tmp')) rmSync(join(chunks, name), { force: true });
  // Besides what esbuild read: this script, and what tells esbuild how to read TypeScript.
  const inputs = [...Object.keys(result.metafile.inputs), relative(root, join(import.meta.dirname, 'build-server.ts')), 'tsconfig.json', 'package.json'].sort();
  write(join(dir, 'inputs.json'), JSON.stringify({ builtAt, inputs }, null, 1) + '\n');
  const files = Object.fromEntries(Object.keys(SERVER_ENTRIES).map((name) => [name, join(dir, `${name}.js`)])) as ServerBuild['files'];
  return { dir, files, inputs };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  const { dir, inputs } = await buildServer();
  console.log(`Built the server into ${relative(process.cwd(), dir) || '.'}/ from ${inputs.length} files in ${Math.round(performance.now() - started)} ms.`);
}
