/**
 * The server's Node.js flags (src/server/node-flags.ts) are on the command line `npm start` runs, and
 * each is one this Node.js knows: V8 reads them only when the process starts.
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../src/server/node-flags.ts';

const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.start;

describe('the server runs with its Node.js flags', () => {
  it('npm start runs node with every flag before the script', () => {
    const words = start.split(/\s+/);
    expect(words[0]).toBe('node');
    const script = words.findIndex((w) => w.endsWith('.ts'));
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
});
