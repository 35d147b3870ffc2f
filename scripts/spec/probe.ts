/**
 * Which messages a field's zod rule gives, found by parsing probe values. Only messages a manifest
 * wrote count: zod's own defaults are swapped for a sentinel by a per-parse error map, which zod
 * consults only for issues that carry no message of their own.
 */
import type { z } from 'zod';

const ZOD_DEFAULT = '\u0000zod-default';

/** Values that reach the usual checks: absent, empty, the reserved name, short, long, wrong types. */
export const generalProbes: readonly unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'x',
  'xx',
  'general',
  'GENERAL',
  'General',
  'not-an-email',
  'not a url',
  -1,
  0,
  1,
  Number.NaN,
  true,
  {},
  [],
  { label: '', value: '' },
  'a'.repeat(300),
  'a'.repeat(600),
];

/** The custom messages `rule` gives for any of `probes`. */
export function ruleMessages(rule: z.ZodType, probes: readonly unknown[]): Set<string> {
  const found = new Set<string>();
  for (const value of probes) {
    try {
      const result = rule.safeParse(value, { error: () => ZOD_DEFAULT });
      if (result.success) continue;
      for (const issue of result.error.issues) if (issue.message !== ZOD_DEFAULT) found.add(issue.message);
    } catch {
      // An async refinement or a refinement that throws on an odd probe: nothing to learn from this value.
    }
  }
  return found;
}
