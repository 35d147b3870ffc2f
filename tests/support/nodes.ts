/**
 * N real server processes (tests/support/node-main.ts → `startServer`) on N loopback ports, sharing one
 * PostgreSQL schema made fresh for them and one Redis under a channel prefix of their own: a cluster
 * as production runs it behind a proxy, for the multi-node test, the browser test and the socket bench.
 * The first node migrates and seeds; the others start once it listens (two migrating at once would race).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { dropSchema } from '../../src/server/db/connect.ts';
import { DEMO_PASSWORD, demoEmail } from '../../src/server/seed/index.ts';

export interface ServerNode {
  /** `http://127.0.0.1:<port>` */
  url: string;
  pid: number;
  /** What it wrote to stderr lately (for failure reports). */
  log(): string;
}

export interface Cluster {
  nodes: ServerNode[];
  /** The PostgreSQL schema they share (dropped by `close`), or undefined for a single SQLite node. */
  schema?: string;
  /** The SQLite file of a single node without PostgreSQL (removed by `close`). */
  sqliteFile?: string;
  /** Their Redis channel prefix (REDIS_PREFIX). */
  prefix: string;
  /** Stops every node (SIGTERM, then SIGKILL after 10 s) and drops the schema. */
  close(): Promise<void>;
}

export interface ClusterOptions {
  /**
   * Default DATABASE_URL; PostgreSQL for more than one node (they share it). `sqlite`: one node on a
   * temporary SQLite file, without Redis (the socket bench's fallback).
   */
  databaseUrl?: string | 'sqlite';
  /** Default REDIS_URL. */
  redisUrl?: string;
  /** The built client to serve (`dist/`); left out, the nodes serve the API only. */
  clientDir?: string;
  /** More environment for every node. */
  env?: NodeJS.ProcessEnv;
  /** How long one node may take to start. */
  startTimeoutMs?: number;
  /**
   * The module each node runs (default node-main.ts): one serving a test's fixture resources too, or a
   * compiled `.js` (the bench's `dist-server/serve.js`, run as `npm start` runs it, without tsx).
   */
  entry?: string;
  /** Node.js flags for every node, before the entry (`SERVER_NODE_FLAGS`: as `npm start` runs it). */
  nodeArgs?: readonly string[];
}

/** Whether this machine can run a cluster: PostgreSQL and Redis both given; else why not. */
export function clusterUnavailable(): string | undefined {
  if (!process.env.DATABASE_URL?.startsWith('postgres')) return 'DATABASE_URL (PostgreSQL) is not set';
  if (!process.env.REDIS_URL) return 'REDIS_URL is not set';
  return undefined;
}

const ENTRY = join(import.meta.dirname, 'node-main.ts');

/** `url` with `search_path` set to `schema` for every connection of the pool (pg reads `options`). */
function inSchema(url: string, schema: string) {
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

function startNode(env: NodeJS.ProcessEnv, timeoutMs: number, children: ChildProcess[], entry = ENTRY, nodeArgs: readonly string[] = []): Promise<ServerNode> {
  // A compiled entry (dist-server/serve.js, as `npm start` runs it) needs no TypeScript loader.
  const args = entry.endsWith('.js') ? [...nodeArgs, entry] : [...nodeArgs, '--import', 'tsx', entry];
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.push(proc);
  let stderr = '';
  proc.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8000)));
  return new Promise((resolve, reject) => {
    let out = '';
    const fail = (message: string) => {
      clearTimeout(timer);
      reject(new Error(`${message}\n${stderr}`));
    };
    const timer = setTimeout(() => fail(`a server node did not start within ${timeoutMs / 1000} s`), timeoutMs);
    proc.once('exit', (code) => fail(`a server node exited with ${code} before listening`));
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /is running at (http:\/\/[^\s]+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      proc.removeAllListeners('exit');
      proc.stdout!.removeAllListeners('data');
      proc.stdout!.resume();
      resolve({ url: match[1], pid: proc.pid!, log: () => stderr });
    });
  });
}

async function stop(proc: ChildProcess) {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** One node on a fresh SQLite file, no Redis: all a machine without PostgreSQL can run. */
async function startSqliteNode(options: ClusterOptions): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'marketplace-node-'));
  const sqliteFile = join(dir, 'node.sqlite');
  const children: ChildProcess[] = [];
  const env = { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: '', REDIS_URL: '', SQLITE_FILE: sqliteFile, UPLOADS_DIR: join(dir, 'uploads'), CLIENT_DIR: options.clientDir ?? join(import.meta.dirname, 'no-client'), NODE_ENV: 'production', ...options.env };
  const close = async () => {
    await Promise.all(children.map(stop));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    return { nodes: [await startNode(env, options.startTimeoutMs ?? 60_000, children, options.entry, options.nodeArgs)], prefix: '', sqliteFile, close };
  } catch (error) {
    await close();
    throw error;
  }
}

export async function startCluster(count: number, options: ClusterOptions = {}): Promise<Cluster> {
  if (options.databaseUrl === 'sqlite') {
    if (count !== 1) throw new Error('Only one node can run on SQLite (its file belongs to one process)');
    return startSqliteNode(options);
  }
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL;
  if (!databaseUrl?.startsWith('postgres') || !redisUrl) throw new Error('A cluster needs DATABASE_URL (PostgreSQL) and REDIS_URL');
  const tag = randomBytes(6).toString('hex');
  const schema = `nodes_${tag}`;
  const prefix = `nodes_${tag}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`create schema "${schema}"`);
  await client.end();

  const children: ChildProcess[] = [];
  const env: NodeJS.ProcessEnv = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: inSchema(databaseUrl, schema),
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    CLIENT_DIR: options.clientDir ?? join(import.meta.dirname, 'no-client'),
    NODE_ENV: 'production',
    ...options.env,
  };
  const close = async () => {
    await Promise.all(children.map(stop));
    await dropSchema(databaseUrl, schema);
  };
  try {
    const timeoutMs = options.startTimeoutMs ?? 60_000;
    const nodes = [await startNode(env, timeoutMs, children, options.entry, options.nodeArgs)];
    nodes.push(...(await Promise.all(Array.from({ length: count - 1 }, () => startNode({ ...env, SEED: '0' }, timeoutMs, children, options.entry, options.nodeArgs)))));
    return { nodes, schema, prefix, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Signs in as the demo account of `role` on `url` and answers a new session's cookie. */
export async function signInAt(url: string, role: string, email = demoEmail(role)): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${email} at ${url}: ${res.status} ${await res.text()}`);
  return res.headers.get('set-cookie')!.split(';')[0];
}
