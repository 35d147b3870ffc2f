/**
 * What a run skipped for want of a service, and how to have it: a laptop without PostgreSQL, Redis or
 * Chromium still passes `npm test`, and is told what it did not prove. Under CI (CI=true) the same
 * absence fails the run: CI's machine has them all (.ci/run), so a test skipped there is a gap.
 *
 * Tests skip by `describe.skipIf(...)` on what the machine has (DATABASE_URL, REDIS_URL,
 * /usr/bin/chromium: tests/support/server.ts, nodes.ts, tests/e2e/support/browser.ts); a skipped test is
 * put down to each missing service its file asks about.
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { TestCase, TestModule, TestSuite } from 'vitest/node';

export interface Service {
  name: string;
  /** Why it is missing, when it is; undefined when the run has it. */
  missing: string | undefined;
  /** How to have it. */
  remedy: string;
  /** Whether a test file's text (or its path) asks about it. */
  asks(path: string, source: string): boolean;
}

export const CHROMIUM = '/usr/bin/chromium';

export function services(env: NodeJS.ProcessEnv = process.env): Service[] {
  return [
    {
      name: 'PostgreSQL',
      missing: env.DATABASE_URL ? undefined : 'DATABASE_URL is not set',
      remedy: 'start PostgreSQL and set DATABASE_URL=postgres://postgres@127.0.0.1:5432/test',
      asks: (_path, source) => /DATABASE_URL|clusterUnavailable/.test(source),
    },
    {
      name: 'Redis',
      missing: env.REDIS_URL ? undefined : 'REDIS_URL is not set',
      remedy: 'start Redis (redis-server) and set REDIS_URL=redis://127.0.0.1:6379',
      asks: (_path, source) => /REDIS_URL|clusterUnavailable/.test(source),
    },
    {
      name: 'Chromium',
      missing: existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is absent`,
      remedy: 'apt-get install chromium (Debian\'s; never a downloaded build)',
      asks: (path, source) => path.includes('/tests/e2e/') || /hasChromium/.test(source),
    },
  ];
}

/**
 * How a test ended. One never run because its suite or file failed (a `beforeAll` that threw) was not
 * skipped: it failed with them.
 */
export function outcomeOf(test: TestCase): 'passed' | 'failed' | 'skipped' {
  const state = test.result().state;
  if (state === 'passed' || state === 'failed') return state;
  for (let at: TestSuite | TestModule | undefined = test.parent; at; at = at.type === 'suite' ? at.parent : undefined)
    if (at.state() === 'failed') return 'failed';
  return 'skipped';
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export interface SkipReport {
  /** The lines to print (none when nothing was skipped). */
  lines: string[];
  /** Whether a test was skipped for want of a service. */
  forWantOfAService: boolean;
}

/** Skipped tests of the run, by the missing service their files ask about, then the rest by file. */
export function skipReport(modules: ReadonlyArray<TestModule>, all: Service[] = services(), root = process.cwd()): SkipReport {
  const missing = all.filter((s) => s.missing);
  const byService = new Map<Service, { tests: number; files: string[] }>();
  const other: string[] = [];
  for (const m of modules) {
    let skipped = 0;
    for (const t of m.children.allTests()) if (outcomeOf(t) === 'skipped') skipped++;
    if (!skipped) continue;
    const path = m.moduleId;
    const file = relative(root, path);
    let source = '';
    try {
      source = readFileSync(path, 'utf8');
    } catch {
      // a module without a file of its own: only its path can tell
    }
    const reasons = missing.filter((s) => s.asks(path, source));
    for (const s of reasons) {
      const entry = byService.get(s) ?? { tests: 0, files: [] };
      entry.tests += skipped;
      entry.files.push(file);
      byService.set(s, entry);
    }
    if (!reasons.length) other.push(`${file} (${skipped})`);
  }

  const lines: string[] = [];
  for (const s of missing) {
    const entry = byService.get(s);
    const what = entry
      ? `${plural(entry.tests, 'test')} skipped in ${plural(entry.files.length, 'file')}: ${entry.files.join(', ')}`
      : 'no test skipped';
    lines.push(`${s.name}: ${s.missing}; ${what}.`);
    if (s.name === 'PostgreSQL') lines.push('  The tests that run on both engines ran on SQLite only.');
    lines.push(`  To run them: ${s.remedy}.`);
  }
  if (other.length) lines.push(`Skipped on other conditions of this machine (see each file): ${other.join(', ')}.`);
  if (lines.length) lines.unshift('Not proved by this run:');
  return { lines, forWantOfAService: byService.size > 0 };
}
