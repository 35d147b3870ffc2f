/**
 * The server's Node.js flags (src/server/node-flags.ts) are on the command line `npm start` runs, and
 * each is one this Node.js knows: V8 reads them only when the process starts. So is its malloc setting
 * (SERVER_MALLOC_ENV), which scripts/start.js starts the server's process with.
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../../src/server/node-flags.ts';

const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.start;

describe('the server runs with its Node.js flags', () => {
  it('npm start runs node with every flag before the script', () => {
    const words = start.split(/\s+/);
    expect(words[0]).toBe('node');
    const script = words.findIndex((w) => /\.[jt]s$/.test(w));
    expect(script, `the script in "${start}"`).toBeGreaterThan(0);
    for (const flag of SERVER_NODE_FLAGS) {
      const at = words.indexOf(flag);
      expect(at, `${flag} in "${start}"`).toBeGreaterThan(0);
      expect(at).toBeLessThan(script);
    }
  });

  it.each(SERVER_NODE_FLAGS)('%s is a flag this Node.js accepts (an unknown one stops it)', (flag) => {
    const run = spawnSync(process.execPath, [flag, '-e', 'process.exit(0)'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('scripts/start.js starts the server with the malloc settings node-flags.ts names', () => {
    const launcher = readFileSync('scripts/start.js', 'utf8');
    const literal = /const MALLOC_ENV = (\{[^}]*\});/.exec(launcher)?.[1];
    expect(literal, 'MALLOC_ENV in scripts/start.js').toBeDefined();
    expect(JSON.parse(literal!.replace(/(\w+):/g, '"$1":').replace(/'/g, '"'))).toEqual(SERVER_MALLOC_ENV);
  });
});
