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

/** Runs axe on the page as it is now; answers one finding per violated rule. */
export async function axeFindings(page: Page, view: string): Promise<Finding[]> {
  // Evaluated through the DevTools protocol: the app's CSP (script-src 'self') does not apply to it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      rule: v.id as string,
      impact: v.impact as string | null,
      help: v.help as string,
      targets: (v.nodes as { target: unknown[] }[]).map((n) => n.target.map(String).join(' ')),
    }));
  }, AXE_TAGS);
  return violations.map((v) => ({ view, ...v }));
}

/** The findings as readable lines, for a failure message. */
export function describeFindings(findings: Finding[]): string {
  return findings
    .map((f) => `${f.view}: ${f.rule} (${f.impact}) ${f.help}\n    ${f.targets.slice(0, 5).join('\n    ')}${f.targets.length > 5 ? `\n    … ${f.targets.length - 5} more` : ''}`)
    .join('\n');
}
