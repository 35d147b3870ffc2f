/** The spec check's report as terminal text: short by default, every missing name with `verbose`. */
import { KINDS, type Finding, type SpecReport } from './check.ts';

export function formatReport(report: SpecReport, options: { verbose?: boolean } = {}): string {
  const lines = ['Spec coverage (declared/total)'];
  for (const kind of KINDS) {
    const { total, declared } = report[kind];
    lines.push(`  ${kind.padEnd(10)} ${String(declared.length).padStart(4)}/${total}`);
  }
  lines.push('', report.mismatches.length ? `Mismatches (${report.mismatches.length}):` : 'Mismatches: none');
  lines.push(...report.mismatches.map(findingLine));
  const withMissing = KINDS.filter((k) => report[k].missing.length);
  const counts = withMissing.map((k) => `${k} ${report[k].missing.length}`).join(', ');
  lines.push('', counts ? `Missing: ${counts}${options.verbose ? '' : ' (--verbose lists them)'}` : 'Missing: none');
  if (options.verbose)
    for (const kind of withMissing) lines.push(`  ${kind}:`, ...report[kind].missing.map((name) => `    ${name}`));
  if (report.extras.length)
    lines.push('', `Not in the spec (information, ${report.extras.length}):`, ...report.extras.map(findingLine));
  return lines.join('\n');
}

const findingLine = (f: Finding) => `  ${f.kind.padEnd(8)} ${f.subject}: ${f.detail}`;
