/**
 * Builds the client once for every browser test file, into a temporary folder (never `dist/`, which a
 * running `npm start` may be serving).
 *
 * Two projects run browser files (`e2e`, then `a11y`: vite.config.ts) and each calls this: the build is
 * made once and shared, and its folder removed when the last of them is torn down.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    clientDir: string;
  }
}

let built: Promise<string> | undefined;
let users = 0;

async function buildClient() {
  const outDir = mkdtempSync(join(tmpdir(), 'marketplace-e2e-'));
  // Vitest sets NODE_ENV=test, which would give React's development build: test what ships.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ logLevel: 'error', build: { outDir, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  return outDir;
}

export default async function setup(project: TestProject) {
  users++;
  const outDir = await (built ??= buildClient());
  project.provide('clientDir', outDir);
  return () => {
    if (--users === 0) rmSync(outDir, { recursive: true, force: true });
  };
}
