/**
 * A small structural JSON Schema check: type, enum, const, required, properties, items, $ref,
 * allOf/anyOf/oneOf and the string/number bounds. RJSF asks it which oneOf/anyOf branch some data
 * fits; the messages users read come from zod (zod-validator.ts). It compiles nothing, so it runs
 * under a CSP without 'unsafe-eval' (ajv does not).
 */
import { deepEquals } from '@rjsf/utils';

type Schema = boolean | Record<string, unknown>;

export interface StructuralError {
  /** Where, in RJSF's property notation: `.name`, `.tags.0`; empty for the root. */
  property: string;
  /** The keyword that failed. */
  name: string;
  message: string;
  schemaPath: string;
}

const typeOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
};

const fits = (type: string, value: unknown) => {
  const actual = typeOf(value);
  return type === actual || (type === 'number' && actual === 'integer');
};

function resolveRef(ref: string, root: Schema): Schema {
  if (!ref.startsWith('#')) throw new Error(`Only local $refs are supported: '${ref}'`);
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  if (node === undefined) throw new Error(`Unresolvable $ref '${ref}'`);
  return node as Schema;
}

export function structuralErrors(schema: Schema, value: unknown, root: Schema = schema): StructuralError[] {
  const errors: StructuralError[] = [];
  walk(schema, value, root, '', '#', errors);
  return errors;
}

function walk(schema: Schema, value: unknown, root: Schema, property: string, at: string, out: StructuralError[]) {
  const fail = (name: string, message: string) => out.push({ property, name, message, schemaPath: `${at}/${name}` });
  if (schema === true) return;
  if (schema === false) return fail('false', 'no value is allowed here');
  const s = schema;
  if (typeof s.$ref === 'string') walk(resolveRef(s.$ref, root), value, root, property, `${at}/$ref`, out);
  // `undefined` is an absent value: only `required` on the parent speaks about it.
  if (value === undefined) return;

  if (s.type !== undefined) {
    const types = (Array.isArray(s.type) ? s.type : [s.type]) as string[];
    if (!types.some((t) => fits(t, value))) return fail('type', `must be ${types.join(' or ')}`);
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => deepEquals(e, value))) fail('enum', 'must be one of the allowed values');
  if ('const' in s && !deepEquals(s.const, value)) fail('const', 'must be the constant value');

  if (typeof value === 'string') {
    if (typeof s.minLength === 'number' && [...value].length < s.minLength) fail('minLength', `must have at least ${s.minLength} characters`);
    if (typeof s.maxLength === 'number' && [...value].length > s.maxLength) fail('maxLength', `must have at most ${s.maxLength} characters`);
    if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(value)) fail('pattern', 'must match the pattern');
  }
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) fail('minimum', `must be at least ${s.minimum}`);
    if (typeof s.maximum === 'number' && value > s.maximum) fail('maximum', `must be at most ${s.maximum}`);
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) fail('exclusiveMinimum', `must be more than ${s.exclusiveMinimum}`);
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum) fail('exclusiveMaximum', `must be less than ${s.exclusiveMaximum}`);
  }

  if (typeOf(value) === 'object') {
    const obj = value as Record<string, unknown>;
    const props = (s.properties ?? {}) as Record<string, Schema>;
    for (const key of (s.required ?? []) as string[])
      if (obj[key] === undefined) out.push({ property: `${property}.${key}`, name: 'required', message: 'is required', schemaPath: `${at}/required` });
    for (const [key, sub] of Object.entries(props)) walk(sub, obj[key], root, `${property}.${key}`, `${at}/properties/${key}`, out);
    const extra = s.additionalProperties;
    if (extra !== undefined && extra !== true)
      for (const key of Object.keys(obj))
        if (!(key in props) && obj[key] !== undefined) walk(extra as Schema, obj[key], root, `${property}.${key}`, `${at}/additionalProperties`, out);
  }

  if (Array.isArray(value)) {
    if (Array.isArray(s.prefixItems)) (s.prefixItems as Schema[]).forEach((sub, i) => walk(sub, value[i], root, `${property}.${i}`, `${at}/prefixItems/${i}`, out));
    const from = Array.isArray(s.prefixItems) ? s.prefixItems.length : 0;
    if (s.items !== undefined && !Array.isArray(s.items))
      value.slice(from).forEach((item, i) => walk(s.items as Schema, item, root, `${property}.${i + from}`, `${at}/items`, out));
    if (typeof s.minItems === 'number' && value.length < s.minItems) fail('minItems', `must have at least ${s.minItems} items`);
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) fail('maxItems', `must have at most ${s.maxItems} items`);
  }

  const branches = (key: string) => (Array.isArray(s[key]) ? (s[key] as Schema[]) : []);
  branches('allOf').forEach((sub, i) => walk(sub, value, root, property, `${at}/allOf/${i}`, out));
  const passing = (key: string) =>
    branches(key).filter((sub) => structuralErrors(sub, value, root).length === 0).length;
  if (branches('anyOf').length && passing('anyOf') === 0) fail('anyOf', 'must match a schema in anyOf');
  if (branches('oneOf').length && passing('oneOf') !== 1) fail('oneOf', 'must match exactly one schema in oneOf');
  if (s.not !== undefined && structuralErrors(s.not as Schema, value, root).length === 0) fail('not', 'must not match');
}
