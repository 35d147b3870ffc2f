/**
 * The client as it ships, built for a browser measurement (browser.ts, journeys.ts): React's production
 * build, whatever NODE_ENV the caller runs with, into a folder of its own.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Builds the client of the work tree at `root` (React's production build, as it ships) into a new folder. */
export async function buildClient(root: string, log: (s: string) => void): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'marketplace-bench-client-'));
  const { build } = await import('vite');
  log(`  building the client of ${root}…`);
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    // BENCH_CLIENT_UNMINIFIED=1: names kept, for reading a profile of the journeys (journeys.ts, BENCH_JOURNEYS_PROF).
    const minify = process.env.BENCH_CLIENT_UNMINIFIED === '1' ? false : undefined;
    await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'error', build: { outDir, emptyOutDir: true, ...(minify === false && { minify }) } });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  return outDir;
}
