/**
 * Prints one plain closing line, `Tests: N passed, N failed, N skipped`, after Vitest's own summary,
 * so CI logs state the count in a form any reader (and the CI's own check) understands; a test whose
 * suite failed before it ran counts as failed, not skipped (skipped.ts `outcomeOf`). Before it, what
 * the run skipped for want of PostgreSQL, Redis or Chromium and how to have them (skipped.ts); under CI
 * (CI=true) a missing one fails the run, since CI's machine has them all.
 */
import type { Reporter, TestModule } from 'vitest/node';
import { outcomeOf, services, skipReport } from './skipped.ts';

export default class ClosingLine implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of modules)
      for (const t of m.children.allTests()) {
        const outcome = outcomeOf(t);
        if (outcome === 'passed') passed++;
        else if (outcome === 'failed') failed++;
        else skipped++;
      }
    const all = services();
    const report = skipReport(modules, all);
    if (report.lines.length) process.stdout.write(`\n${report.lines.join('\n')}\n`);
    const missing = all.filter((s) => s.missing);
    if (process.env.CI === 'true' && missing.length) {
      process.stdout.write(`\nFAILED: under CI nothing may be skipped for want of a service, and ${missing.map((s) => s.name).join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing (.ci/run provides them).\n`);
      process.exitCode = 1;
    }
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
