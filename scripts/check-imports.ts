/**
 * `tsx scripts/check-imports.ts [root]`: the import rules of `src/` (issue 49, part 7):
 *
 * - no import circle, counting `import type` and `export … from` (a circle of types still ties the
 *   files' meanings together, and one of values may read a binding before it is made);
 * - each layer imports only what is below it (LAYERS).
 *
 * Each violation is printed as `file -> imported (rule)`; the exit code is 1 when there is any.
 * `npm test` runs it (tests/unit/import-rules.test.ts). The graph is read with TypeScript's own
 * `preProcessFile` (every `import`/`export … from`, `import type`, dynamic `import()` and `typeof
 * import()`); only relative specifiers are followed: packages and `node:` modules are outside the rules.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Where a layer's files may import from: folders end with `/`, anything else names one file. */
export interface Layer {
  name: string;
  /** The folder (or file) the layer is; a file belongs to the most specific layer that holds it. */
  files: string;
  /** Only these may be imported (where given). */
  may?: readonly string[];
  /** These may never be imported (checked before `may`). */
  mayNot?: readonly string[];
}

/**
 * Leaf modules (importing nothing of ours but types.ts) that each engine's machinery may use: the
 * engine folders are the lowest layer of the database room, under the query layer both engines share.
 */
const ENGINE_LEAVES = ['src/server/db/types.ts', 'src/server/db/sql-names.ts', 'src/server/db/taken-rows.ts', 'src/server/slots.ts'];
const ENGINES = ['src/server/db/sqlite/', 'src/server/db/postgres/'];

export const LAYERS: readonly Layer[] = [
  { name: 'domain imports domain only', files: 'src/domain/', may: ['src/domain/'] },
  { name: 'manifest imports manifest, domain', files: 'src/manifest/', may: ['src/manifest/', 'src/domain/'] },
  { name: 'sqlite engine imports its folder and db leaves', files: 'src/server/db/sqlite/', may: ['src/server/db/sqlite/', ...ENGINE_LEAVES] },
  { name: 'postgres engine imports its folder and db leaves', files: 'src/server/db/postgres/', may: ['src/server/db/postgres/', ...ENGINE_LEAVES] },
  {
    name: 'db imports db, manifest, domain, server leaves',
    files: 'src/server/db/',
    // The settings table is made by the migrations; errors and the input guard answer a bad list query.
    may: ['src/server/db/', 'src/manifest/', 'src/domain/', 'src/server/errors.ts', 'src/server/input-guard.ts', 'src/server/settings/index.ts'],
  },
  {
    name: 'records imports records, db, manifest, domain, server leaves',
    files: 'src/server/records/',
    mayNot: ENGINES,
    may: ['src/server/records/', 'src/server/db/', 'src/manifest/', 'src/domain/', 'src/server/errors.ts', 'src/server/settings/index.ts', 'src/server/auth/password.ts'],
  },
  // Screens get the registry through React context (src/client/registry/context.tsx), which App.tsx, the
  // composition root, provides: a screen then works with whatever registry it is given (a test's own).
  { name: 'client never imports the server, nor the registry but through context', files: 'src/client/', mayNot: ['src/server/', 'resources/index.ts'] },
  { name: 'the app (the client\'s root) provides the registry', files: 'src/client/App.tsx', mayNot: ['src/server/'] },
  // Features read and write through the records service (`src/server/records/index.ts` is their door):
  // the query layer and the engines change without a feature noticing; their screens take the registry
  // from context as the client's do.
  { name: 'features reach the database through the records layer', files: 'src/features/', mayNot: ['src/server/db/', 'resources/index.ts'] },
  // Above the database room, its engines are reached through the query layer only.
  { name: 'server never imports the client or a db engine', files: 'src/server/', mayNot: ['src/client/', ...ENGINES] },
];

/**
 * Imports that break a rule today and are known, each with why it is still there (`from`, `to`: a file,
 * or a folder ending with `/`). Every entry must still match an import that breaks a rule (one that
 * no longer does is itself reported), so the list only ever shrinks.
 */
export const ALLOWED: readonly { from: string; to: string; why: string }[] = [
  // Issue 49, parts 1 to 3, being built: the lead is moving these.
  {
    from: 'src/server/records/',
    to: 'resources/system.ts',
    why: 'the core still names particular system resources (recycle bin, audit log, jobs) from a manifest file; they are to belong to the core',
  },
  { from: 'src/manifest/types.ts', to: 'src/manifest/hooks.ts', why: 'ResourceDef names its hooks, whose types name ResourceDef: one file of types, or hooks declared generically' },
  { from: 'src/manifest/types.ts', to: 'src/manifest/jobs.ts', why: 'ResourceDef names its jobs, whose types name ResourceDef and the Registry: as for hooks' },
  { from: 'src/manifest/types.ts', to: 'src/manifest/states.ts', why: 'a field names its states, whose transitions name roles and NotifyDef: as for hooks' },
  // In another helper's work of today: the limits' file reads the one type of config.ts it needs.
  { from: 'src/server/connections.ts', to: 'src/server/config.ts', why: 'TrustProxy (a type) is declared in config.ts, which imports the limits: declared in connections.ts, it closes no circle' },
  // Older than issue 49, outside the database room: each is a file of domain/ that belongs a layer up, or a type to move down.
  {
    from: 'src/domain/sample.ts',
    to: 'src/manifest/index.ts',
    why: 'the sampler makes values from a manifest rule (ruleOf, bodySchema): it belongs in src/manifest/ (its twenty importers, tests and the bench, would follow)',
  },
  { from: 'src/domain/file-type.ts', to: 'src/manifest/uploads.ts', why: 'FileType (a type only) is keyof the manifest\'s FILE_TYPES; the list of types could live in src/domain/file-type.ts' },
];

export interface Violation {
  from: string;
  to: string;
  rule: string;
}

const SOURCE = /\.(ts|tsx|mts|cts)$/;

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** A relative specifier as the file it names (as the bundler resolution finds it), or undefined. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = SOURCE.test(base) ? [base] : [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find((c) => SOURCE.test(c) && existsSync(c) && statSync(c).isFile());
}

/** Every file reachable from `src/` under `root` and what each imports (both as paths relative to root, `/`-separated). */
export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const name = (path: string) => relative(root, path).split(sep).join('/');
  const queue = sourceFiles(join(root, 'src'));
  while (queue.length) {
    const file = queue.pop()!;
    if (graph.has(name(file))) continue;
    const imported = ts
      .preProcessFile(readFileSync(file, 'utf8'), true, true)
      .importedFiles.map((f) => f.fileName)
      .filter((s) => s.startsWith('.'))
      .map((s) => resolveSpecifier(file, s))
      .filter((path): path is string => path !== undefined);
    graph.set(name(file), [...new Set(imported.map(name))]);
    queue.push(...imported.filter((path) => !path.includes(`${sep}node_modules${sep}`)));
  }
  return graph;
}

const within = (path: string, where: string) => (where.endsWith('/') ? path.startsWith(where) : path === where);

/** The layer a file belongs to: the one whose folder holds it most closely. */
function layerOf(file: string, layers: readonly Layer[]): Layer | undefined {
  return layers.filter((l) => within(file, l.files)).sort((a, b) => b.files.length - a.files.length)[0];
}

function layerViolations(graph: Map<string, string[]>, layers: readonly Layer[]): Violation[] {
  const out: Violation[] = [];
  for (const [from, imports] of graph) {
    const layer = layerOf(from, layers);
    if (!layer) continue;
    for (const to of imports) {
      const refused = layer.mayNot?.some((w) => within(to, w)) || (layer.may && !layer.may.some((w) => within(to, w)));
      if (refused) out.push({ from, to, rule: layer.name });
    }
  }
  return out;
}

/** The strongly connected parts of the graph with more than one file (or a file importing itself): Tarjan's. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const part: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      part.push(w);
    } while (w !== v);
    if (part.length > 1 || graph.get(v)?.includes(v)) out.push(part.sort());
  }
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

/** The shortest path from `start` to `goal` inside `part` (breadth first), both ends included. */
function shortestPath(graph: Map<string, string[]>, part: Set<string>, start: string, goal: string): string[] {
  const before = new Map<string, string>([[start, start]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    if (v === goal) break;
    for (const w of graph.get(v) ?? []) if (part.has(w) && !before.has(w)) before.set(w, v), queue.push(w);
  }
  const path = [goal];
  while (path[0] !== start) path.unshift(before.get(path[0])!);
  return path;
}

/** Every import inside a circle, with the shortest circle it closes. */
function circleViolations(graph: Map<string, string[]>): Violation[] {
  const out: Violation[] = [];
  for (const part of circles(graph).map((p) => new Set(p)))
    for (const from of [...part].sort())
      for (const to of graph.get(from) ?? [])
        if (part.has(to)) out.push({ from, to, rule: `import circle: ${[from, ...shortestPath(graph, part, to, from)].join(' -> ')}; ${part.size} files tied in all` });
  return out;
}

/**
 * The violations of the rules under `root`, but for the imports `allowed` names; an allowed import that
 * closes a circle is left out of the graph before circles are sought, so allowing it allows that circle.
 * Each allowance that matches no import breaking a rule is reported itself.
 */
export function checkImports(root: string, { layers = LAYERS, allowed = ALLOWED } = {}): Violation[] {
  const graph = importGraph(root);
  const matches = (a: { from: string; to: string }, from: string, to: string) => within(from, a.from) && within(to, a.to);
  const isAllowed = (from: string, to: string) => allowed.some((a) => matches(a, from, to));
  const pruned = new Map([...graph].map(([from, imports]) => [from, imports.filter((to) => !isAllowed(from, to))]));
  const layered = layerViolations(graph, layers);
  const every = [...circleViolations(graph), ...layered];
  const stale = allowed
    .filter((a) => !every.some((v) => matches(a, v.from, v.to)))
    .map((a) => ({ from: a.from, to: a.to, rule: 'allowed in scripts/check-imports.ts but no longer a violation: remove it from ALLOWED' }));
  return [...circleViolations(pruned), ...layered.filter((v) => !isAllowed(v.from, v.to)), ...stale];
}

export const formatViolation = (v: Violation) => `${v.from} -> ${v.to} (${v.rule})`;

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const violations = checkImports(root);
  for (const v of violations) console.log(formatViolation(v));
  console.log(violations.length ? `${violations.length} import rule violations` : 'Import rules: no violation');
  process.exitCode = violations.length ? 1 : 0;
}
