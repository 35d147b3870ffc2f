/**
 * `npm run check:spec`: the manifests against the specification catalogue (scripts/spec/).
 * Exit 1 on any mismatch; with `--strict` also while anything of the spec is missing.
 * `--json` prints the report as JSON; `--verbose` lists the missing names.
 */
import { registry } from '../resources/index.ts';
import { catalogue } from './spec/catalogue.ts';
import { KINDS, checkSpec } from './spec/check.ts';
import { formatReport } from './spec/format.ts';

const args = new Set(process.argv.slice(2));
const report = checkSpec(registry, catalogue);
const missing = KINDS.reduce((n, k) => n + report[k].missing.length, 0);

if (args.has('--json')) console.log(JSON.stringify(report, null, 2));
else {
  console.log(formatReport(report, { verbose: args.has('--verbose') }));
  if (args.has('--strict') && missing) console.log(`\n--strict: ${missing} spec items are not declared yet.`);
}

process.exitCode = report.mismatches.length || (args.has('--strict') && missing) ? 1 : 0;
