/**
 * What the form renders and judges as the user types, made from the dialog's body schema:
 * - the JSON Schema, with an optional field's `anyOf: ['' | rule]` shown as the one input it is
 *   (RJSF would otherwise offer an "Option 1 / Option 2" picker) and drawn fields not marked required;
 * - the zod rule the form validates with before submit: a drawn field is filled during the submit
 *   (it is judged by the full rule then), and an empty `{ label, value }` option is judged as a blank
 *   one, so the field's own message ('Country is required!') is shown instead of "expected object";
 *   a read-only or computed field is not judged at all: nobody can type into it, so a rule message under
 *   it ('Agent ID must be at least 2 characters.' on an empty agent form) could not be acted on. The
 *   server still judges what is sent (a computed value it did not make is refused).
 */
import { z } from 'zod';
import {
  fixedIn,
  formJsonSchema,
  pickedFields,
  type DialogDef,
  type FieldDef,
  type ResourceDef,
} from '../../manifest/index.ts';

type Json = Record<string, unknown>;

/** The picked fields a dialog sends as `{ label, value }`. */
export function optionFields(resource: ResourceDef, dialog: DialogDef): FieldDef[] {
  if (!('pick' in dialog)) return [];
  return pickedFields(resource, dialog).filter((f) => dialog.wire?.[f.name] === 'option');
}

/** The picked fields drawn in the form and uploaded on submit (a QR code from its title). */
export function drawnFields(resource: ResourceDef, dialog: DialogDef): FieldDef[] {
  return pickedFields(resource, dialog).filter((f) => f.drawn && f.upload);
}

/** The leaves of nested `anyOf`/`oneOf` branches (a union of unions is one choice among them all). */
function leavesOf(prop: Json): Json[] {
  const branches = (prop.anyOf ?? prop.oneOf) as unknown;
  if (!Array.isArray(branches)) return [prop];
  return branches.flatMap((b) => (b && typeof b === 'object' ? leavesOf(b as Json) : [{}]));
}

/**
 * A union whose choices all hold one primitive type and are not a choice of constants (an optional
 * field's `'' | url`, a URL that may also be a path) becomes a plain input of that type: RJSF would
 * offer an "Option 1 / Option 2" picker. The zod rule still judges the value.
 */
function flattenUnion(prop: Json): Json {
  if (!Array.isArray(prop.anyOf) && !Array.isArray(prop.oneOf)) return prop;
  const leaves = leavesOf(prop);
  const types = new Set(leaves.map((l) => l.type));
  if (types.size !== 1) return prop;
  const [type] = types;
  if (typeof type !== 'string' || type === 'object' || type === 'array') return prop;
  if (leaves.every((l) => 'const' in l || 'enum' in l)) return prop; // a select
  const { anyOf: _a, oneOf: _o, ...rest } = prop;
  return { ...rest, type };
}

/** The dialog's JSON Schema as the form renders it. */
export function formSchemaOf(resource: ResourceDef, dialog: DialogDef): Json {
  const schema = formJsonSchema(resource, dialog);
  const properties = { ...((schema.properties ?? {}) as Record<string, Json>) };
  for (const [name, prop] of Object.entries(properties)) properties[name] = flattenUnion(prop);
  const drawn = new Set(drawnFields(resource, dialog).map((f) => f.name));
  const required = Array.isArray(schema.required) ? (schema.required as string[]).filter((n) => !drawn.has(n)) : undefined;
  return { ...schema, properties, ...(required ? { required } : {}) };
}

const isBlank = (v: unknown) =>
  v === undefined || v === null || v === '' || (typeof v === 'object' && Object.keys(v as object).length === 0);

/**
 * The rule the form validates with until submit (see the file comment). `rule` is the dialog's body
 * schema (`bodySchema`): a strict object, extended here so the form and the body keep the same keys.
 */
export function formRuleOf(resource: ResourceDef, dialog: DialogDef, rule: z.ZodType): z.ZodType {
  const drawn = drawnFields(resource, dialog);
  const options = optionFields(resource, dialog);
  const fixed = pickedFields(resource, dialog).filter((f) => fixedIn(f, dialog) || f.computed);
  if (!drawn.length && !options.length && !fixed.length) return rule;
  if (!(rule instanceof z.ZodObject)) return rule;
  const shape: Record<string, z.ZodType> = {};
  for (const f of options) {
    if ('pick' in dialog && dialog.optional?.includes(f.name)) continue; // '' is an answer there
    const own = rule.shape[f.name] as z.ZodType;
    shape[f.name] = z.preprocess((v) => (isBlank(v) ? { label: '', value: '' } : v), own);
  }
  for (const f of drawn) shape[f.name] = z.unknown();
  for (const f of fixed) shape[f.name] = z.unknown();
  return rule.extend(shape);
}
