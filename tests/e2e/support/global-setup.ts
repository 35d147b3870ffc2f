/**
 * Builds the client once for every browser test file, into a temporary folder (never `dist/`, which a
 * running `npm start` may be serving).
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

export default async function setup(project: TestProject) {
  const outDir = mkdtempSync(join(tmpdir(), 'marketplace-e2e-'));
  // Vitest sets NODE_ENV=test, which would give React's development build: test what ships.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ logLevel: 'error', build: { outDir, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  project.provide('clientDir', outDir);
  return () => rmSync(outDir, { recursive: true, force: true });
}
