/** axe-core (Deque's engine) run inside a Playwright page, with the rules of WCAG 2.2 AA and best practice. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rule sets checked: every WCAG A/AA success criterion up to 2.2, and axe's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];

export interface Finding {
  view: string;
  rule: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Waits for every transition and animation that will end (a menu growing in, a dialog fading in) to end:
 * axe blends a half-transparent element's colours with what is behind it and reports a contrast that no
 * one sees once it has settled (CI: a menu entry judged mid-fade). Endless ones (a spinner) are not awaited.
 */
async function settled(page: Page) {
  await page.evaluate(async () => {
    // Two frames: a transition set in the last commit has started by then.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const ending = document.getAnimations().filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    const ended = Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  });
}

/**
 * Runs axe on the page once it has settled; answers one finding per violated rule. `within` (a CSS
 * selector) limits it to that part of the page (a dialog over a list already judged): axe's page-wide
 * rules (landmarks, the page's heading) then do not run.
 */
export async function axeFindings(page: Page, view: string, within?: string): Promise<Finding[]> {
  await settled(page);
  // Evaluated through the DevTools protocol: the app's CSP (script-src 'self') does not apply to it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async ({ tags, within }) => {
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: any[] }> } }).axe;
    const context = within ? { include: [[within]] } : document;
    const result = await axe.run(context, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      rule: v.id as string,
      impact: v.impact as string | null,
      help: v.help as string,
      targets: (v.nodes as { target: unknown[] }[]).map((n) => n.target.map(String).join(' ')),
    }));
  }, { tags: AXE_TAGS, within });
  return violations.map((v) => ({ view, ...v }));
}

/** The findings as readable lines, for a failure message. */
export function describeFindings(findings: Finding[]): string {
  return findings
    .map((f) => `${f.view}: ${f.rule} (${f.impact}) ${f.help}\n    ${f.targets.slice(0, 5).join('\n    ')}${f.targets.length > 5 ? `\n    … ${f.targets.length - 5} more` : ''}`)
    .join('\n');
}
