/**
 * Shared zod rules. They carry the message for a missing value too (`error`), so the server answers
 * the specification's text whether a field is empty or absent, exactly as the form shows it.
 *
 * Also the limits every stored value is held to (`withinStorage`, applied to every field's rule by
 * `ruleOf`): text has a maximum length, integers are whole and fit 32 bits, reals are finite. Both
 * engines store what passes, so neither answers a client's value with a database error.
 */
import { z } from 'zod';
import { messages } from './messages.ts';
import type { FieldDef } from './types.ts';

/** The most characters a single-line text field may hold unless it declares its own `maxLength`. */
export const MAX_TEXT = 255;
/** The most characters a `textarea` or `html` field may hold unless it declares its own `maxLength`. */
export const MAX_LONG_TEXT = 10_000;
/**
 * The longest text an index may be built on. PostgreSQL's btree takes about 2,700 bytes a row; 255
 * UTF-16 units are at most 765 bytes of UTF-8, so even an index over two such fields, an id and one
 * field's lowered text (a searched sort field's, on PostgreSQL: `IndexDef.lowered`) fits (2,391 bytes at
 * most: tests/unit/storage-rules.test.ts).
 */
export const MAX_INDEXED_TEXT = MAX_TEXT;
/** PostgreSQL's `integer` (and what SQLite answers alike): 32-bit, signed. */
export const INT32 = { min: -2_147_483_648, max: 2_147_483_647 } as const;

/** The most characters a field's text may have: its own `maxLength`, else the default of its kind. */
export function maxLengthOf(f: Pick<FieldDef, 'kind' | 'maxLength'>): number {
  return f.maxLength ?? (f.kind === 'textarea' || f.kind === 'html' ? MAX_LONG_TEXT : MAX_TEXT);
}

/** Whether an index can hold the field's values: numbers always, text only when it is short enough. */
export function isIndexable(f: Pick<FieldDef, 'kind' | 'maxLength' | 'storage'>): boolean {
  return f.storage !== 'text' || maxLengthOf(f) <= MAX_INDEXED_TEXT;
}

/** What a stored value is held to, with messages naming the field (`label`). */
export const storageMessages = {
  tooLong: (label: string, max: number) => `${label} must be at most ${max.toLocaleString('en-US')} characters.`,
  notWhole: (label: string) => `${label} must be a whole number.`,
  outOfRange: (label: string) => `${label} must be between ${INT32.min} and ${INT32.max}.`,
  notFinite: (label: string) => `${label} must be a finite number.`,
  notNumber: (label: string) => `${label} must be a number.`,
};

/** The text of a whole number as a `sortAs: 'number'` field holds it: digits, perhaps after a minus. */
export const WHOLE_NUMBER_TEXT = /^-?\d+$/;
/** Any decimal number written out ('1.5', '-2', '.5', '1e3'): told 'must be a whole number', not 'must be a number'. */
const NUMBER_TEXT = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/**
 * A number rule that says what is wrong in words a person can act on, whatever its own `error` says
 * for a missing value ('Position is required!'): a value that is not a number is told '<Label> must be
 * a number.', a fraction where a whole number is wanted '<Label> must be a whole number.'. zod gives a
 * schema's own `error` every issue of that schema, the type's and `.int()`'s too, so without this a
 * decimal position would be answered 'Position is required!'. The rule's checks are kept as they are
 * (`clone` with the same definition), so its JSON Schema, and the form made from it, do not change.
 */
function withNumberMessages(rule: z.ZodNumber, label: string): z.ZodNumber {
  const own = rule._zod.def.error as z.core.$ZodErrorMap | undefined;
  return rule.clone({
    ...rule._zod.def,
    error: (issue: z.core.$ZodRawIssue) => {
      if (issue.code === 'invalid_type' && issue.input !== undefined)
        return issue.expected === 'int' ? storageMessages.notWhole(label) : storageMessages.notNumber(label);
      return own?.(issue);
    },
  });
}

/**
 * A `sortAs: 'number'` text held to a whole number: '1.5' is told '<Label> must be a whole number.',
 * 'abc' '<Label> must be a number.', one message each. Empty text is the rule's own business (its
 * 'required' message). The value fits 32 bits, like every integer we store.
 */
function wholeNumberText(rule: z.ZodType, label: string): z.ZodType {
  const isText = (v: unknown): v is string => typeof v === 'string' && v !== '';
  const range = storageMessages.outOfRange(label);
  return rule
    .refine((v) => !isText(v) || WHOLE_NUMBER_TEXT.test(v), {
      error: (issue) => (NUMBER_TEXT.test(String(issue.input)) ? storageMessages.notWhole(label) : storageMessages.notNumber(label)),
    })
    .refine((v) => !isText(v) || !WHOLE_NUMBER_TEXT.test(v) || (Number(v) >= INT32.min && Number(v) <= INT32.max), range);
}

/**
 * `rule` held to what the field's storage can keep (see the module's comment). A plain string or
 * number rule gets zod's own `max`/`min` checks, so the limits also show in the JSON Schema (forms,
 * API description); any other rule (unions, enums) gets the same checks as a refinement. Booleans
 * (stored 0/1) and values of another type are left to the rule itself.
 */
export function withinStorage(rule: z.ZodType, f: FieldDef, label: string): z.ZodType {
  if (f.kind === 'boolean') return rule;
  if (rule instanceof z.ZodOptional) return withinStorage(rule.unwrap() as z.ZodType, f, label).optional();
  if (f.storage === 'text') {
    const max = maxLengthOf(f);
    const message = storageMessages.tooLong(label, max);
    const held = rule instanceof z.ZodString ? rule.max(max, message) : rule.refine((v) => typeof v !== 'string' || v.length <= max, message);
    return f.sortAs === 'number' ? wholeNumberText(held, label) : held;
  }
  // An enumeration (`choices`: 1 → Active) is told by its own message; any other number in words.
  if (rule instanceof z.ZodNumber && f.kind === 'number' && !f.choices) rule = withNumberMessages(rule, label);
  if (f.storage === 'real') return rule.refine((v) => typeof v !== 'number' || Number.isFinite(v), storageMessages.notFinite(label));
  const whole = storageMessages.notWhole(label);
  const range = storageMessages.outOfRange(label);
  if (rule instanceof z.ZodNumber) return rule.int(whole).min(INT32.min, range).max(INT32.max, range);
  return rule
    .refine((v) => typeof v !== 'number' || Number.isInteger(v), whole)
    .refine((v) => typeof v !== 'number' || (v >= INT32.min && v <= INT32.max), range);
}

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

/** What a refused link is told unless its field has a message of its own. */
export const LINK_MESSAGE = 'A link must be an http(s) URL, a path on this site, mailto: or tel:.';

/**
 * Whether `value` is safe to put in an `href`: an absolute http(s) URL, a path on this site
 * ('/banners', 'electronics', '#top'), `mailto:` or `tel:`, or a plain phone number ('+8801712345678').
 * Every other scheme (`javascript:`, `data:`, `vbscript:`, …) is refused, in any case. Browsers drop
 * tabs and newlines inside a URL and spaces around it, and read a backslash as a slash, so a link
 * holding any control character or backslash is refused rather than second-guessed, and one starting
 * with `//` (another host, whatever it looks like) too.
 */
export function isSafeLink(value: string): boolean {
  const link = value.trim();
  // eslint-disable-next-line no-control-regex
  if (!link || /[\u0000-\u001f\u007f\\]/.test(link) || link.startsWith('//')) return false;
  // A scheme is what comes before the first ':' when only scheme characters precede it (RFC 3986).
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(link)?.[1]?.toLowerCase();
  if (scheme === undefined) return true; // a relative reference: a path, a query, a fragment, a number
  if (scheme === 'mailto' || scheme === 'tel') return link.length > scheme.length + 1;
  if (scheme === 'http' || scheme === 'https') return z.url({ protocol: /^https?$/ }).safeParse(link).success;
  return false;
}

/**
 * A link (`href`, a social link): at least `min` characters (`required` otherwise, also for a missing
 * value), and safe to put in an `href` (`isSafeLink`), else `invalid`.
 */
export function link(required: string, options: { min?: number; invalid?: string } = {}) {
  return text(options.min ?? 1, required).refine(isSafeLink, options.invalid ?? LINK_MESSAGE);
}

/**
 * An image or file address: an absolute http(s) URL, or a path on this site ('/logo.jpg'). Nothing
 * else: an image is never a `javascript:` or `data:` URL. `message` is for a missing value too.
 */
export function webUrl(message: string) {
  return z
    .string({ error: message })
    .refine((v) => /^\/(?![/\\])\S*$/.test(v) || z.url({ protocol: /^https?$/ }).safeParse(v).success, message);
}

export const rules = { text, notGeneral, optionalText, hex24, link, webUrl };
