/**
 * No acknowledged write is lost when the server process is killed outright (SIGKILL: no shutdown, no
 * flush, no close). A real server process (tests/api/fixtures/durable-server.ts) takes creates from
 * many connections at once; it is killed while creates are still in flight; the database is then
 * opened again and every record the server answered 201 for must be there.
 *
 * On SQLite this is what `synchronous = NORMAL` in WAL mode promises (src/server/db/connect.ts): a
 * commit is in the WAL file, in the operating system's hands, before the server answers, and the OS
 * keeps it when a process dies. (A power cut is another matter: see connect.ts.)
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { registry } from '../../resources/index.ts';
import { API_BASE, parseCall } from '../../src/manifest/index.ts';
import { createSampler } from '../../src/domain/sample.ts';
import { connect, dropSchema } from '../../src/server/db/connect.ts';
import { DEMO_PASSWORD, demoEmail } from '../../src/server/seed/index.ts';
import { engines } from '../support/server.ts';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'durable-server.ts');
/** Creates acknowledged before the kill: enough that the kill lands among commits, not after them. */
const ACKNOWLEDGED_BEFORE_KILL = 150;
const CONNECTIONS = 16;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(engines)('a server killed with SIGKILL (%s)', (engine) => {
  it('loses no create it acknowledged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marketplace-durable-'));
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const pg = engine === 'postgres' ? { FIXTURE_DATABASE_URL: process.env.DATABASE_URL!, FIXTURE_SCHEMA: schema } : {};
    const proc = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
      env: { ...process.env, FIXTURE_DIR: dir, ...pg },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let errors = '';
    proc.stderr!.on('data', (chunk) => (errors += chunk));
    const exited = new Promise<string | number | null>((resolve) => proc.once('exit', (code, signal) => resolve(signal ?? code)));
    cleanups.push(async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
      rmSync(dir, { recursive: true, force: true });
      if (engine === 'postgres') await dropSchema(process.env.DATABASE_URL!, schema);
    });
    const port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: proc.stdout! }).on('line', (line) => {
        if (line.startsWith('{"port"')) resolve(JSON.parse(line).port);
      });
      void exited.then((code) => reject(new Error(`the server exited (${code}) before listening: ${errors}`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: demoEmail('admin'), password: DEMO_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0];

    // Valid create bodies of a resource, through its create dialog, as a client sends them.
    const r = registry.resource('topCategories');
    const [, create] = Object.entries(r.dialogs).find(([, d]) => d.kind === 'create')!;
    if (create.kind !== 'create') throw new Error('no create dialog');
    const url = base + API_BASE + parseCall(create.call).path;
    const sampler = createSampler({ seed: 11, uniqueNames: true });

    const acknowledged: string[] = [];
    let killed = false;
    let resolveEnough: () => void;
    const enough = new Promise<void>((resolve) => (resolveEnough = resolve));
    const worker = async () => {
      while (!killed) {
        try {
          const res = await fetch(url, {
            method: 'POST',
            headers: { cookie, 'content-type': 'application/json' },
            body: JSON.stringify(sampler.body(r, create)),
          });
          const text = await res.text();
          expect(res.status, text).toBe(201);
          acknowledged.push(JSON.parse(text).id);
          if (acknowledged.length >= ACKNOWLEDGED_BEFORE_KILL) resolveEnough();
        } catch (error) {
          if (!killed) throw error;
          // the connection died with the process: this create was never acknowledged
        }
      }
    };
    const workers = Array.from({ length: CONNECTIONS }, worker);
    await Promise.race([enough, ...workers]);
    // Killed with creates in flight on every connection.
    killed = true;
    proc.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    await Promise.all(workers);
    const ids = acknowledged.slice();
    expect(ids.length).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL);

    const database = await connect(engine === 'postgres' ? { url: process.env.DATABASE_URL, schema } : { file: join(dir, 'test.sqlite') });
    try {
      const found = new Set<string>();
      for (let i = 0; i < ids.length; i += 500)
        for (const row of await database.db.selectFrom(r.name).select('id').where('id', 'in', ids.slice(i, i + 500)).execute())
          found.add(row.id as string);
      expect(ids.filter((id) => !found.has(id))).toEqual([]);
    } finally {
      await database.close();
    }
  }, 120_000);
});
