/**
 * Field messages of the self-service forms: the body's zod rule (resources/self-service.ts, the server's
 * own) judged in the browser, and the server's `{ errors: { field: [messages] } }` when it refuses.
 */
import type { z } from 'zod';
import { answerOf, fieldErrorsOf } from '../../dialogs/outcome.ts';

export type FieldErrors = Record<string, string | undefined>;

/** The first message of each field the rule refuses. */
export function ruleErrors(rule: z.ZodType, value: unknown): FieldErrors {
  const judged = rule.safeParse(value);
  const out: FieldErrors = {};
  if (!judged.success) for (const issue of judged.error.issues) out[String(issue.path[0] ?? '')] ??= issue.message;
  return out;
}

/** The first message of each field the server's answer names. */
export function serverErrors(error: unknown): FieldErrors {
  const byField = fieldErrorsOf(answerOf(error)) ?? {};
  return Object.fromEntries(Object.entries(byField).map(([k, v]) => [k, v[0]]));
}

export const hasErrors = (errors: FieldErrors) => Object.values(errors).some(Boolean);
