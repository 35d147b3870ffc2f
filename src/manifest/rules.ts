/**
 * Shared zod rules. They carry the message for a missing value too (`error`), so the server answers
 * the specification's text whether a field is empty or absent, exactly as the form shows it.
 */
import { z } from 'zod';
import { messages } from './messages.ts';

/** A string of at least `min` characters; `message` is used for a missing value as well. */
export function text(min: number, message: string, max?: { length: number; message: string }) {
  let rule = z.string({ error: message }).trim().min(min, message);
  if (max) rule = rule.max(max.length, max.message);
  return rule;
}

/** A required name that may not be the reserved 'general' (§9), compared case-insensitively. */
export function notGeneral(requiredMessage: string, generalMessage: string) {
  return text(1, requiredMessage).refine((v) => v.toLowerCase() !== messages.reservedName, {
    message: generalMessage,
  });
}

/** An optional string (absent, empty or any text). */
export function optionalText() {
  return z.string().trim().optional();
}

/** A record id as the marketplace uses them: 24 hexadecimal characters. */
export function hex24(message: string) {
  return z.string({ error: message }).regex(/^[0-9a-f]{24}$/i, message);
}

export const rules = { text, notGeneral, optionalText, hex24 };
