/**
 * Sample data from a resource's own rules: every value is made from the constraints of the field's zod
 * rule (read through zod's JSON Schema: lengths, enums, numbers, patterns, formats), given a realistic
 * shape by the field's kind and name, and then checked with the rule itself, so refinements JSON Schema
 * cannot carry (the 'general' ban) hold too. Seeded, so a bench or a test sees the same data every time.
 * Pure: no Node-only APIs, ids of other records come from the caller.
 */
import { z } from 'zod';
import { bodySchema, offeredRuleOf, pickedFields, ruleOf, type DialogDef, type FieldDef, type ResourceDef } from '../manifest/index.ts';
import { slugify } from './slug.ts';

/** A small seeded PRNG (mulberry32): fast, repeatable, good enough for sample data. */
export interface Prng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
}

export function prng(seed: number): Prng {
  let a = seed >>> 0 || 0x9e3779b9;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: (items) => items[int(items.length)] };
}

// Words that make names look like a marketplace's: "Vintage Oak Bookshelves", "Organic Tea".
const ADJECTIVES = [
  'Vintage', 'Modern', 'Organic', 'Handmade', 'Rustic', 'Classic', 'Premium', 'Compact', 'Portable', 'Wireless',
  'Smart', 'Outdoor', 'Indoor', 'Luxury', 'Eco', 'Urban', 'Nordic', 'Tropical', 'Minimal', 'Deluxe',
  'Kids', 'Travel', 'Pro', 'Studio', 'Festive', 'Summer', 'Winter', 'Everyday', 'Heritage', 'Artisan',
  'Electric', 'Digital', 'Natural', 'Sporty', 'Gourmet', 'Royal', 'Golden', 'Silver', 'Coastal', 'Alpine',
] as const;
const MATERIALS = [
  'Oak', 'Walnut', 'Bamboo', 'Leather', 'Cotton', 'Linen', 'Wool', 'Silk', 'Ceramic', 'Glass',
  'Steel', 'Copper', 'Brass', 'Marble', 'Stone', 'Clay', 'Velvet', 'Denim', 'Rattan', 'Cork',
  'Porcelain', 'Crystal', 'Titanium', 'Carbon', 'Pine', 'Cedar', 'Jute', 'Hemp', 'Suede', 'Canvas',
] as const;
const NOUNS = [
  'Lamps', 'Chairs', 'Tables', 'Sofas', 'Rugs', 'Mirrors', 'Shelves', 'Bookshelves', 'Cushions', 'Curtains',
  'Mugs', 'Plates', 'Bowls', 'Knives', 'Kettles', 'Teapots', 'Jars', 'Vases', 'Candles', 'Clocks',
  'Jackets', 'Shirts', 'Dresses', 'Scarves', 'Sneakers', 'Boots', 'Sandals', 'Hats', 'Gloves', 'Wallets',
  'Backpacks', 'Handbags', 'Watches', 'Rings', 'Necklaces', 'Earrings', 'Headphones', 'Speakers', 'Cameras', 'Tablets',
  'Keyboards', 'Monitors', 'Chargers', 'Toys', 'Puzzles', 'Kites', 'Bicycles', 'Helmets', 'Tents', 'Lanterns',
  'Planters', 'Seeds', 'Tools', 'Paints', 'Brushes', 'Notebooks', 'Pens', 'Frames', 'Blankets', 'Towels',
] as const;
const FILLER = [
  'with', 'for', 'and', 'the', 'best', 'quality', 'made', 'from', 'fresh', 'durable', 'light', 'soft', 'warm',
  'bright', 'simple', 'elegant', 'strong', 'every', 'home', 'day', 'gift', 'style', 'comfort', 'care',
] as const;
const FIRST = ['Amina', 'Rahim', 'Sofia', 'Karim', 'Lena', 'Omar', 'Nadia', 'Tariq', 'Maya', 'Yusuf', 'Elena', 'Farid'] as const;
const LAST = ['Hossain', 'Rahman', 'Khan', 'Ahmed', 'Silva', 'Novak', 'Haddad', 'Costa', 'Islam', 'Chowdhury'] as const;

export interface SamplerOptions {
  /** The PRNG seed. Same seed, same calls: same values. Default 1. */
  seed?: number;
  /** Attempts per value before giving up on a rule (a refine that refuses everything). Default 8. */
  maxTries?: number;
  /** Append a counter to name-like values, so every record's name differs (create bodies). */
  uniqueNames?: boolean;
}

export interface SampleContext {
  /** The id a reference field points at: the caller knows which parent records exist. */
  /** A reference's value; `values` are the record's fields sampled so far (a dependent reference's parent among them). */
  reference?: (field: FieldDef, target: string, values: Record<string, unknown>) => string;
}

export interface Sampler {
  readonly rng: Prng;
  /** A value for every declared field of the resource (secrets as plain text: the caller hashes them). */
  record(r: ResourceDef, ctx?: SampleContext): Record<string, unknown>;
  /** A dialog's body: exactly the fields it picks, valid against the server's strict body schema. */
  body(r: ResourceDef, dialog: DialogDef, ctx?: SampleContext): Record<string, unknown>;
  /** One field's value; `values` holds the record's other values so far (a slug reads its source). */
  value(r: ResourceDef, f: FieldDef, values?: Record<string, unknown>, ctx?: SampleContext): unknown;
}

type Schema = Record<string, any>;

/** The JSON Schema of a rule, cached: zod builds it once per rule, not once per row. */
const schemas = new WeakMap<z.ZodType, Schema>();
/**
 * A field's rule as the server judges it (`ruleOf`: its storage's limits included, such as a 32-bit
 * integer), made once per field so its JSON Schema is cached too.
 */
const effectiveRules = new WeakMap<FieldDef, z.ZodType>();
function effectiveRule(f: FieldDef): z.ZodType {
  let rule = effectiveRules.get(f);
  if (!rule) effectiveRules.set(f, (rule = ruleOf(f)));
  return rule;
}

function jsonSchemaOf(rule: z.ZodType): Schema {
  let s = schemas.get(rule);
  if (!s) {
    try {
      s = z.toJSONSchema(rule, { io: 'input', unrepresentable: 'any' }) as Schema;
    } catch {
      s = {}; // cycles and the like: the field's kind alone shapes the value, the rule still checks it
    }
    schemas.set(rule, s);
  }
  return s;
}

export function createSampler(options: SamplerOptions = {}): Sampler {
  const rng = prng(options.seed ?? 1);
  const maxTries = options.maxTries ?? 8;
  const counters = new Map<string, number>();
  const count = (key: string) => {
    const n = (counters.get(key) ?? 0) + 1;
    counters.set(key, n);
    return n;
  };

  const title = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const phrase = () => {
    const roll = rng.next();
    if (roll < 0.6) return `${rng.pick(ADJECTIVES)} ${rng.pick(MATERIALS)} ${rng.pick(NOUNS)}`;
    if (roll < 0.8) return `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`;
    return `${rng.pick(MATERIALS)} ${rng.pick(NOUNS)}`;
  };
  const sentence = () => {
    const words = [phrase()];
    for (let i = 4 + rng.int(12); i > 0; i--) words.push(rng.next() < 0.7 ? rng.pick(FILLER) : rng.pick(NOUNS).toLowerCase());
    return `${words.join(' ')}.`;
  };
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[rng.int(16)]).join('');
  const person = () => `${rng.pick(FIRST)} ${rng.pick(LAST)}`;

  /** The realistic shape of a string for this field, before the rule's constraints are applied. */
  function candidate(r: ResourceDef, f: FieldDef, values: Record<string, unknown>): string {
    const key = `${r.name}.${f.name}`;
    const name = f.name.toLowerCase();
    switch (f.kind) {
      case 'email': {
        const [first, last] = person().toLowerCase().split(' ');
        return `${first}.${last}${count(key)}@example.test`;
      }
      case 'url':
        return `https://example.test/${slugify(phrase(), { unique: false })}`;
      case 'image':
        return `/images/${slugify(phrase(), { unique: false })}-${rng.int(1000)}.jpg`;
      case 'file':
        return `/files/${slugify(phrase(), { unique: false })}-${rng.int(1000)}.pdf`;
      case 'password':
        return `pw-${hex(12)}`;
      case 'textarea':
        return sentence();
      case 'select':
        return f.options?.length ? rng.pick(f.options) : phrase();
      case 'reference':
        return hex(24);
      case 'slug': {
        const base = slugify(String(values[f.from ?? ''] ?? ''), { unique: false }) || 'item';
        return `${base}-${count(key).toString(36)}`;
      }
    }
    if (/country/.test(name)) return rng.pick(['BD', 'IN', 'US', 'GB', 'DE', 'AE', 'MY']);
    if (/phone|whatsapp|mobile/.test(name)) return `+8801${String(rng.int(1e9)).padStart(9, '0')}`;
    if (/code$/.test(name)) return hex(8).toUpperCase();
    // Position-like text fields ('order' of a category) read as small numbers.
    if (/^(order|position|rank|count|qty|quantity|number)$|(Order|Position|Rank|Count|Qty|Number)$/.test(f.name))
      return String(1 + rng.int(99));
    let text = f.name === r.title || /name|title|label/.test(name) ? phrase() : sentence().slice(0, -1);
    if (/^(user|person|owner|customer)?name$/.test(name) && r.name === 'users') text = person();
    if (options.uniqueNames) text += ` ${count(key).toString(36)}`;
    return text;
  }

  /** A string that fits the schema's lengths, grown with words or cut back as needed. */
  function fit(text: string, s: Schema): string {
    const min: number = s.minLength ?? 0;
    const max: number = s.maxLength ?? Infinity;
    let out = text;
    while (out.length < min) out += (out ? ' ' : '') + title(rng.pick(FILLER));
    if (out.length > max) out = out.slice(0, max).trimEnd();
    while (out.length < min) out += 'x';
    return out;
  }

  /** A value of the JSON Schema `s`; `make` gives the field's realistic candidate string. */
  function fromSchema(s: Schema, make: () => string, refused: ReadonlySet<unknown> = new Set()): unknown {
    const alternatives = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
    if (alternatives) {
      const usable = alternatives.filter((a) => a.type !== 'null');
      return fromSchema(usable.length ? rng.pick(usable) : alternatives[0], make, refused);
    }
    if (s.allOf) return fromSchema(Object.assign({}, ...s.allOf, { ...s, allOf: undefined }), make, refused);
    if ('const' in s) return s.const;
    if (Array.isArray(s.enum)) {
      // A few choices: try each once rather than drawing the refused one again.
      const left = s.enum.filter((v: unknown) => !refused.has(v));
      return rng.pick(left.length ? left : s.enum);
    }
    const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
    switch (type) {
      case 'integer':
      case 'number':
        return number(s, type === 'integer');
      case 'boolean':
        return rng.next() < 0.5;
      case 'null':
        return null;
      case 'array': {
        const n = (s.minItems ?? 0) + rng.int(Math.max(1, Math.min(s.maxItems ?? 3, (s.minItems ?? 0) + 3) - (s.minItems ?? 0) + 1));
        return Array.from({ length: n }, () => fromSchema(s.items ?? {}, make));
      }
      case 'object': {
        const out: Record<string, unknown> = {};
        for (const [k, p] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) out[k] = fromSchema(p, make);
        return out;
      }
    }
    // A string (or a schema that says nothing, such as a rule JSON Schema cannot express).
    const format = s.format as string | undefined;
    if (format === 'email') return fit(`${slugify(person(), { unique: false }).replace('-', '.')}${rng.int(1e6)}@example.test`, s);
    if (format === 'uri' || format === 'url') return `https://example.test/${slugify(phrase(), { unique: false })}`;
    if (format === 'uuid') return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
    if (format === 'date-time') return new Date(Date.UTC(2024, 0, 1) + rng.int(365 * 86400) * 1000).toISOString();
    if (format === 'date') return new Date(Date.UTC(2024, 0, 1) + rng.int(365) * 86400000).toISOString().slice(0, 10);
    if (typeof s.pattern === 'string') {
      // The field's realistic candidate when the pattern takes it (a WhatsApp number), else one drawn from the pattern.
      const made = make();
      const fits = made.length >= (s.minLength ?? 0) && made.length <= (s.maxLength ?? Infinity);
      return fits && new RegExp(s.pattern).test(made) ? made : fromPattern(s.pattern, rng);
    }
    return fit(make(), s);
  }

  function number(s: Schema, integer: boolean): number {
    let lo: number = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum : 0);
    let hi: number = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum : Math.max(lo + 1000, 1000));
    if (s.exclusiveMinimum !== undefined) lo += integer ? 1 : 0.01;
    if (s.exclusiveMaximum !== undefined) hi -= integer ? 1 : 0.01;
    if (s.multipleOf) {
      const k = Math.ceil(lo / s.multipleOf) + rng.int(Math.max(1, Math.floor(hi / s.multipleOf) - Math.ceil(lo / s.multipleOf) + 1));
      return k * s.multipleOf;
    }
    if (integer) return Math.ceil(lo) + rng.int(Math.max(1, Math.floor(hi) - Math.ceil(lo) + 1));
    return Math.round((lo + rng.next() * (hi - lo)) * 100) / 100;
  }

  /** `own`: the rule to judge by when a dialog takes only part of what the field allows (`offeredRuleOf`). */
  function value(r: ResourceDef, f: FieldDef, values: Record<string, unknown> = {}, ctx: SampleContext = {}, own?: z.ZodType): unknown {
    const make = () =>
      f.kind === 'reference' && ctx.reference ? ctx.reference(f, f.reference!, values) : candidate(r, f, values);
    if (!f.rule) {
      if (f.kind === 'number') return number({}, f.storage === 'integer');
      if (f.kind === 'boolean') return rng.next() < 0.5;
      return make();
    }
    // Slugs and references are shaped by what they point at, not by the rule's pattern.
    const rule = own ?? effectiveRule(f);
    let s: Schema = f.kind === 'slug' || f.kind === 'reference' ? {} : jsonSchemaOf(rule);
    if (f.kind === 'number' && !s.type && !s.anyOf && !s.oneOf) s = { ...s, type: f.storage === 'integer' ? 'integer' : 'number' };
    let last: unknown;
    let issues = '';
    const refused = new Set<unknown>();
    for (let attempt = 0; attempt < maxTries; attempt++) {
      last = f.kind === 'slug' || f.kind === 'reference' ? make() : fromSchema(s, make, refused);
      const parsed = rule.safeParse(last);
      if (parsed.success) return parsed.data;
      refused.add(last);
      issues = parsed.error.issues.map((i) => i.message).join('; ');
    }
    throw new Error(
      `sample: no valid value for ${r.name}.${f.name} after ${maxTries} tries (last ${JSON.stringify(last)}: ${issues})`,
    );
  }

  /** Slugs after the fields they are made from, whatever the declaration order. */
  const ordered = (fields: readonly FieldDef[]) => [...fields.filter((f) => f.kind !== 'slug'), ...fields.filter((f) => f.kind === 'slug')];

  return {
    rng,
    value,
    record(r, ctx = {}) {
      const out: Record<string, unknown> = {};
      for (const f of ordered(r.fields)) out[f.name] = value(r, f, out, ctx);
      return Object.fromEntries(r.fields.map((f) => [f.name, out[f.name]]));
    },
    body(r, dialog, ctx = {}) {
      const picked = pickedFields(r, dialog);
      const out: Record<string, unknown> = {};
      const only = 'pick' in dialog ? (dialog.only ?? {}) : {};
      for (const f of ordered(picked)) out[f.name] = value(r, f, out, ctx, only[f.name] ? offeredRuleOf(f, dialog) : undefined);
      // A dialog may send a reference as `{ label, value }` (its `wire`): the value is what was sampled.
      const wire = 'pick' in dialog ? (dialog.wire ?? {}) : {};
      const sent = (f: FieldDef) => (wire[f.name] === 'option' ? { label: String(out[f.name]), value: out[f.name] } : out[f.name]);
      const body = Object.fromEntries(picked.map((f) => [f.name, sent(f)]));
      const parsed = bodySchema(r, dialog).safeParse(body);
      if (!parsed.success) throw new Error(`sample: body for ${r.name} is refused: ${parsed.error.message}`);
      return body;
    },
  };
}

/**
 * A string matching a regular expression's source: literals, escapes (\d \w \s \.), classes with
 * ranges, `.`, groups with alternatives, and the quantifiers ? * + {n} {n,} {n,m}. Enough for the
 * patterns rules use (hex ids, codes); anything else throws, which names the rule to look at.
 */
export function fromPattern(pattern: string, rng: Prng): string {
  let i = 0;
  const src = pattern;
  const PRINTABLE = Array.from({ length: 95 }, (_, k) => String.fromCharCode(32 + k));
  const DIGITS = '0123456789'.split('');
  const WORD = [...'abcdefghijklmnopqrstuvwxyz', ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ', ...DIGITS, '_'];
  const fail = (why: string): never => {
    throw new Error(`sample: unsupported pattern /${pattern}/ (${why})`);
  };

  type Node = () => string;
  function escape(): string[] {
    const c = src[i++];
    if (c === 'd') return DIGITS;
    if (c === 'w') return WORD;
    if (c === 's') return [' '];
    if (c === undefined) fail('trailing backslash');
    if (/[A-Za-z]/.test(c) && !'nrt'.includes(c)) fail(`escape \\${c}`);
    return [c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : c];
  }
  function charClass(): string[] {
    let negate = false;
    if (src[i] === '^') {
      negate = true;
      i++;
    }
    const set = new Set<string>();
    let first = true;
    while (i < src.length && (src[i] !== ']' || first)) {
      first = false;
      let from: string[];
      if (src[i] === '\\') {
        i++;
        from = escape();
      } else from = [src[i++]];
      if (from.length === 1 && src[i] === '-' && src[i + 1] && src[i + 1] !== ']') {
        i++;
        const to = src[i] === '\\' ? (i++, escape()[0]) : src[i++];
        for (let c = from[0].charCodeAt(0); c <= to.charCodeAt(0); c++) set.add(String.fromCharCode(c));
      } else from.forEach((c) => set.add(c));
    }
    if (src[i++] !== ']') fail('unclosed class');
    const chars = negate ? PRINTABLE.filter((c) => !set.has(c)) : [...set];
    if (!chars.length) fail('empty class');
    return chars;
  }
  function atom(): Node | null {
    const c = src[i];
    if (c === '(') {
      i++;
      if (src[i] === '?') {
        if (src[i + 1] !== ':') fail('lookaround or named group');
        i += 2;
      }
      const alt = alternatives();
      if (src[i++] !== ')') fail('unclosed group');
      return alt;
    }
    if (c === '[') {
      i++;
      const chars = charClass();
      return () => rng.pick(chars);
    }
    if (c === '\\') {
      i++;
      const chars = escape();
      return () => rng.pick(chars);
    }
    if (c === '.') {
      i++;
      return () => rng.pick(WORD);
    }
    if (c === '^' || c === '$') {
      i++;
      return () => '';
    }
    i++;
    return () => c;
  }
  function quantified(node: Node): Node {
    let min = 1;
    let max = 1;
    const c = src[i];
    if (c === '?') [min, max] = [0, 1];
    else if (c === '*') [min, max] = [0, 4];
    else if (c === '+') [min, max] = [1, 5];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i));
      if (!m) return node;
      min = Number(m[1]);
      max = m[2] ? (m[3] ? Number(m[3]) : min + 4) : min;
      i += m[0].length - 1;
    } else return node;
    i++;
    if (src[i] === '?' || src[i] === '+') i++; // lazy or possessive: same strings
    return () => {
      const n = min + rng.int(max - min + 1);
      let out = '';
      for (let k = 0; k < n; k++) out += node();
      return out;
    };
  }
  function sequence(): Node {
    const nodes: Node[] = [];
    while (i < src.length && src[i] !== '|' && src[i] !== ')') {
      const a = atom();
      if (a) nodes.push(quantified(a));
    }
    return () => nodes.map((n) => n()).join('');
  }
  function alternatives(): Node {
    const options = [sequence()];
    while (src[i] === '|') {
      i++;
      options.push(sequence());
    }
    return () => rng.pick(options)();
  }
  const root = alternatives();
  if (i < src.length) fail(`unexpected '${src[i]}'`);
  return root();
}
