/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const apiPort = Number(process.env.API_PORT ?? 3001);
/** The accessibility sweep: a project of its own (below). */
const A11Y = 'tests/e2e/a11y.test.ts';
/** What both browser projects (`e2e`, `a11y`) share: the built client, and a loaded machine's timeouts. */
const BROWSER_FILES = {
  environment: 'node',
  globalSetup: ['tests/e2e/support/global-setup.ts'],
  // A failed test prints what its file's open pages showed (failure-state.ts).
  setupFiles: ['tests/e2e/support/failure-state.ts'],
  testTimeout: 120_000,
  hookTimeout: 240_000,
};

/** RJSF's Markdown renderer swapped for plain text in the build: see src/client/dialogs/plain-markdown.tsx. */
const plainMarkdown: Plugin = {
  name: 'plain-markdown',
  apply: 'build',
  enforce: 'pre',
  resolveId: (id) =>
    id === 'markdown-to-jsx/react' ? fileURLToPath(new URL('./src/client/dialogs/plain-markdown.tsx', import.meta.url)) : undefined,
};

export default defineConfig({
  plugins: [react(), plainMarkdown],
  publicDir: 'public',
  // The manifest (.vite/manifest.json) tells which chunks the first load is: `npm run build` (scripts/build.ts)
  // and the browser tests read it.
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000, manifest: true },
  // `npm run dev`: Vite serves the client, the API runs beside it (scripts/dev.ts) behind this proxy.
  server: { proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, ws: true } } },
  test: {
    globals: true,
    // Vitest's default on 2 cores is one worker (cores - 1): every file would wait for the one before.
    // Two files at a time, each with its own server and database; the browser files then run one after
    // another (below): CI's suite measured 1,955 s → 1,413 s. More cores, more workers.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // expect.poll gives up after 1 s by default: a browser on CI's loaded cores may need several.
    expect: { poll: { timeout: 10_000 } },
    reporters: ['default', './tests/support/closing-line.ts'],
    projects: [
      // Timeouts are generous: CI's two shared cores run every project at once, many times slower than idle.
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', testTimeout: 30_000 } },
      {
        extends: true,
        test: {
          name: 'ui',
          include: ['tests/ui/**/*.test.tsx'],
          // happy-dom rather than jsdom: the same 531 tests in 125 s instead of 197 s (this project alone, 2
          // cores, one after the other). details-views.test.tsx asks for jsdom: its DOMPurify check needs
          // a DOM that parses HTML as a browser does.
          environment: 'happy-dom',
          setupFiles: ['tests/ui/setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        // A PostgreSQL test server (schema, migration, seed) takes seconds on loaded cores: hooks get 2 min.
        // Not isolated: each file starts servers of its own from the same modules, so a worker imports the
        // server once for every file it runs, not once a file (this project alone: 184 → 147 s; files that
        // set an environment variable put it back in afterAll).
        test: { name: 'api', include: ['tests/api/**/*.test.ts'], environment: 'node', testTimeout: 30_000, hookTimeout: 120_000, isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          exclude: [A11Y],
          ...BROWSER_FILES,
          // After the other projects (group 1), two browser files at a time. One Chromium left a core
          // idle: 29 % of the CPU over these files alone, 40–60 % once the accessibility sweep was done.
          // (Two at once while the other projects also ran timed out: 4 failures in 2,253 tests.)
          sequence: { groupOrder: 1 },
          // Every browser file imports the whole server (Fastify, Kysely, the registry) and starts its own
          // from it: in one worker they import it once (this project alone, 2 cores: 473 → 425 s).
          isolate: false,
        },
      },
      {
        extends: true,
        // The accessibility sweep alone, last: it keeps three pages of its own busy and both cores with
        // them (2 % idle), so a second browser file beside it would only slow both.
        test: {
          name: 'a11y',
          include: [A11Y],
          ...BROWSER_FILES,
          fileParallelism: false,
          // Its sweeps are concurrent tests, three pages at a time.
          maxConcurrency: 3,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
