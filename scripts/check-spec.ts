/**
 * `npm run check:spec`: the manifests against the specification catalogue (scripts/spec/).
 * Exit 1 on any mismatch; with `--strict` also while anything of the spec is missing.
 * `--json` prints the report as JSON; `--verbose` lists the missing names.
 */
import { registry } from '../resources/index.ts';
import { API_BASE } from '../src/manifest/index.ts';
import { SLIDER_ENTRY_FIELDS, SLIDER_LOAD_ERRORS } from '../src/domain/sliders.ts';
import { REFERRAL_RECORD_FIELDS } from '../src/client/areas/referral-storage.ts';
import { NOTIFICATION_FAILURES } from '../src/features/notifications/client/messages.ts';
import { PUSH_SPEC_TEXTS } from '../src/features/push/messages.ts';
import { SEARCH_MODAL } from '../src/features/cart/shop-query.ts';
import { fixedRoutes } from '../src/server/openapi/fixed-routes.ts';
import { catalogue } from './spec/catalogue.ts';
import { KINDS, checkSpec } from './spec/check.ts';
import { formatReport } from './spec/format.ts';

const args = new Set(process.argv.slice(2));
// The hand-written routes, as the OpenAPI document describes them (its test fails on an undescribed one).
const calls = fixedRoutes().map(({ method, path }) => ({
  call: `${method.toUpperCase()} ${path.startsWith(API_BASE + '/') ? path.slice(API_BASE.length) : path}`,
  owner: 'hand-written',
}));
// The §3 shapes hand-written code declares: the slider entries `GET /api/front/sliders` answers, the referral kept in browser storage.
const entities = [
  ...Object.entries(SLIDER_ENTRY_FIELDS).map(([name, fields]) => ({ name, owner: 'src/domain/sliders.ts', fields })),
  { name: 'Referral', owner: 'src/client/areas/referral-storage.ts', fields: REFERRAL_RECORD_FIELDS },
];
const report = checkSpec(registry, catalogue, {
  calls,
  texts: [...Object.values(SLIDER_LOAD_ERRORS), ...Object.values(NOTIFICATION_FAILURES), ...PUSH_SPEC_TEXTS],
  entities,
  dialogs: [{ type: SEARCH_MODAL, owner: 'src/features/cart/SearchModal.tsx' }],
});
const missing = KINDS.reduce((n, k) => n + report[k].missing.length, 0);

if (args.has('--json')) console.log(JSON.stringify(report, null, 2));
else {
  console.log(formatReport(report, { verbose: args.has('--verbose') }));
  if (args.has('--strict') && missing) console.log(`\n--strict: ${missing} spec items are not declared yet.`);
}

process.exitCode = report.mismatches.length || (args.has('--strict') && missing) ? 1 : 0;
