/**
 * `npm run build`: builds the client with Vite, then prints every chunk's raw and gzipped size and
 * what loads it. "first" is the first load: index.html's entry chunk and everything it imports
 * statically (the browser fetches all of it, modulepreloaded or not, before anything is clicked).
 * Every other chunk is fetched on demand, by the dynamic imports named beside it. Fails (exit 1)
 * when the first load is over its gzip budget (issue #3). Sizes in kB of 1,000 bytes, as Vite's own.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const FIRST_LOAD_BUDGET_KB = 300;

/** One entry of `.vite/manifest.json` (Vite's build manifest, `build.manifest: true`). */
interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** Keys of the chunks `from` loads statically, itself included. */
function staticClosure(manifest: Manifest, from: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  from.forEach(visit);
  return seen;
}

const kB = (bytes: number) => (bytes / 1000).toFixed(2);
/** A dynamic entry's name in the table: its source file without the folders. */
const shortName = (chunk: ManifestChunk) => (chunk.src ?? chunk.name ?? chunk.file).replace(/^.*\//, '');

const started = performance.now();
let outDir = '';
// The folder is read from the config Vite resolves for this very build (resolving it separately
// beforehand would set NODE_ENV to 'development' and so bundle React's development build).
await build({
  logLevel: 'warn',
  build: { manifest: true },
  plugins: [{ name: 'out-dir', configResolved: (config) => void (outDir = resolve(config.root, config.build.outDir)) }],
});
const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;

const sizes = new Map<string, { raw: number; gzip: number }>();
const sizeOf = (file: string) => {
  let size = sizes.get(file);
  if (!size) {
    const content = readFileSync(join(outDir, file));
    size = { raw: content.length, gzip: gzipSync(content).length };
    sizes.set(file, size);
  }
  return size;
};
/** The files of a set of chunks, their CSS included, each once. */
const filesOf = (keys: Iterable<string>) => new Set([...keys].flatMap((k) => [manifest[k].file, ...(manifest[k].css ?? [])]));
const gzipOf = (files: Iterable<string>) => [...files].reduce((sum, f) => sum + sizeOf(f).gzip, 0);

const entries = Object.keys(manifest).filter((k) => manifest[k].isEntry);
const first = filesOf(staticClosure(manifest, entries));
const dynamicEntries = Object.keys(manifest).filter((k) => manifest[k].isDynamicEntry);
/** For each file outside the first load: the dynamic entries whose loading fetches it. */
const loadedBy = new Map<string, string[]>();
/** For each dynamic entry: what it adds to what is already loaded at first. */
const onDemand = dynamicEntries.map((key) => {
  const files = [...filesOf(staticClosure(manifest, [key]))].filter((f) => !first.has(f));
  for (const f of files) loadedBy.set(f, [...(loadedBy.get(f) ?? []), shortName(manifest[key])]);
  return { name: shortName(manifest[key]), gzip: gzipOf(files), files: files.length };
});

const rows = [...filesOf(Object.keys(manifest))]
  .map((file) => ({ file, ...sizeOf(file), first: first.has(file) }))
  .sort((a, b) => Number(b.first) - Number(a.first) || b.gzip - a.gzip);
const width = Math.max(...rows.map((r) => r.file.length), 4);
const line = (file: string, raw: string, gzip: string, loaded: string) =>
  `${file.padEnd(width)}  ${raw.padStart(9)}  ${gzip.padStart(9)}  ${loaded}`;

console.log(line('file', 'raw kB', 'gzip kB', 'loaded'));
for (const r of rows) console.log(line(r.file, kB(r.raw), kB(r.gzip), r.first ? 'first' : (loadedBy.get(r.file) ?? []).join(', ')));
const firstGzip = gzipOf(first);
const allGzip = gzipOf(rows.map((r) => r.file));
console.log(`\nall chunks: ${rows.length} files, ${kB(allGzip)} kB gzip`);
// Shared chunks count for every entry that needs them; the browser fetches each once, whichever comes first.
console.log('on demand: what the first use of each adds to the first load (gzip)');
for (const d of onDemand.sort((a, b) => b.gzip - a.gzip))
  console.log(`  ${d.name.padEnd(24)} ${kB(d.gzip).padStart(9)} kB in ${d.files} file${d.files === 1 ? '' : 's'}`);
console.log(
  `\nfirst load: ${first.size} files, ${kB(firstGzip)} kB gzip (budget ${FIRST_LOAD_BUDGET_KB} kB)` +
    `; built in ${((performance.now() - started) / 1000).toFixed(1)} s into ${outDir}`,
);
if (firstGzip > FIRST_LOAD_BUDGET_KB * 1000) {
  console.error(`The first load is over budget by ${kB(firstGzip - FIRST_LOAD_BUDGET_KB * 1000)} kB gzip.`);
  process.exitCode = 1;
}
