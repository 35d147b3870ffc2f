/**
 * The whole specification as data (see types.ts): §2 dialogs, §3 entities, §5 messages, §7 endpoints
 * and §8 texts. Loading it checks that it agrees with itself, so an edit that breaks a cross-reference
 * (a dialog calling an endpoint the catalogue lacks) fails at once rather than as a puzzling report.
 */
import { dialogs as rawDialogs } from './dialogs.ts';
import { endpoints } from './endpoints.ts';
import { entities } from './entities.ts';
import { errors } from './errors.ts';
import { messages } from './messages.ts';
import { callKey } from './normalise.ts';
import type { Catalogue, SpecDialog } from './types.ts';

export type * from './types.ts';

function fail(what: string): never {
  throw new Error(`Spec catalogue: ${what}`);
}

const endpointByKey = new Map(endpoints.map((e) => [callKey(`${e.method} ${e.path}`), e]));
if (endpointByKey.size !== endpoints.length) fail('an endpoint is listed twice');

/** A dialog's fields default to its call's §7 body: written once, in endpoints.ts. */
const dialogs: SpecDialog[] = rawDialogs.map((d) => {
  if (!d.call) return d;
  const endpoint = endpointByKey.get(callKey(d.call)) ?? fail(`dialog ${d.type} calls '${d.call}', not a §7 endpoint`);
  return d.fields || !endpoint.body ? d : { ...d, fields: endpoint.body };
});
if (new Set(dialogs.map((d) => d.type)).size !== dialogs.length) fail('a dialog type is listed twice');

const entityNames = new Set(entities.map((e) => e.name));
if (entityNames.size !== entities.length) fail('an entity is listed twice');
for (const d of dialogs) if (d.entity && !entityNames.has(d.entity)) fail(`dialog ${d.type}: unknown entity '${d.entity}'`);
for (const m of messages)
  if (m.entity && !entityNames.has(m.entity)) fail(`message '${m.message}': unknown entity '${m.entity}'`);

export const catalogue: Catalogue = {
  dialogs,
  entities,
  messages,
  endpoints,
  errors,
  missingPattern: /^\S.* is missing\.$/,
};
