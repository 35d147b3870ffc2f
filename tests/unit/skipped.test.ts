/**
 * The run's closing report of what it skipped for want of PostgreSQL, Redis or Chromium
 * (tests/support/skipped.ts), over test files written as the suite's are.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestCase, TestModule } from 'vitest/node';
import { outcomeOf, services, skipReport } from '../support/skipped.ts';

const dir = mkdtempSync(join(tmpdir(), 'skipped-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A test file of the run: its text on disk, and the states its tests ended in. */
function moduleOf(name: string, source: string, states: string[]): TestModule {
  const path = join(dir, name);
  writeFileSync(path, source);
  const tests = states.map((state) => ({ result: () => ({ state }) }));
  return { moduleId: path, children: { allTests: () => tests[Symbol.iterator]() } } as unknown as TestModule;
}

const pgFile = () => moduleOf('pg.test.ts', "describe.skipIf(!process.env.DATABASE_URL)('x', () => {})", ['skipped', 'skipped']);
const clusterFile = () => moduleOf('nodes.test.ts', 'const why = clusterUnavailable();', ['skipped']);
const procFile = () => moduleOf('proc.test.ts', "it.skipIf(!existsSync('/proc/self/stat'))", ['passed', 'skipped']);
const passing = () => moduleOf('plain.test.ts', 'it()', ['passed']);

describe('what a run skipped, and why', () => {
  it('names each missing service, the files it skipped and how to have it', () => {
    const missing = services({});
    const report = skipReport([pgFile(), clusterFile(), procFile(), passing()], missing, dir);
    const text = report.lines.join('\n');
    expect(report.lines[0]).toBe('Not proved by this run:');
    expect(text).toContain('PostgreSQL: DATABASE_URL is not set; 3 tests skipped in 2 files: pg.test.ts, nodes.test.ts.');
    expect(text).toContain('Redis: REDIS_URL is not set; 1 test skipped in 1 file: nodes.test.ts.');
    expect(text).toContain('set DATABASE_URL=postgres://postgres@127.0.0.1:5432/test');
    expect(text).toContain('Skipped on other conditions of this machine (see each file): proc.test.ts (1).');
    expect(text).not.toContain('plain.test.ts');
    expect(report.forWantOfAService).toBe(true);
  });

  it('says nothing of a service the run has', () => {
    const report = skipReport([pgFile(), passing()], services({ DATABASE_URL: 'postgres://x', REDIS_URL: 'redis://x' }), dir);
    expect(report.lines.join('\n')).not.toMatch(/PostgreSQL|Redis/);
    expect(report.forWantOfAService).toBe(false);
  });
});

describe('how a test ended', () => {
  const test = (state: string, parent?: object) => ({ result: () => ({ state }), parent }) as unknown as TestCase;
  const suite = (state: string, parent?: object) => ({ type: 'suite', state: () => state, parent });
  const file = (state: string) => ({ type: 'module', state: () => state });

  it('counts a test its failed suite or file never ran as failed, not skipped', () => {
    expect(outcomeOf(test('skipped', suite('failed', file('failed'))))).toBe('failed');
    expect(outcomeOf(test('skipped', suite('skipped', suite('failed'))))).toBe('failed');
    expect(outcomeOf(test('skipped', file('failed')))).toBe('failed');
  });

  it('keeps a skip a skip, and a pass a pass', () => {
    expect(outcomeOf(test('skipped', suite('skipped', file('passed'))))).toBe('skipped');
    expect(outcomeOf(test('pending', file('passed')))).toBe('skipped');
    expect(outcomeOf(test('passed', file('failed')))).toBe('passed');
  });
});
