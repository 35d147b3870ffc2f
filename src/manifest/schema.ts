/**
 * Schemas derived from a resource: the body a dialog sends (zod, strict) and the form's JSON Schema.
 * Client and server both call these, so a form and its route can never disagree.
 */
import { z } from 'zod';
import type { DialogDef, FieldDef, ResourceDef } from './types.ts';

/** The declared fields a form dialog picks, in its order. */
export function pickedFields(resource: ResourceDef, dialog: DialogDef): FieldDef[] {
  if (!('pick' in dialog)) return [];
  return dialog.pick.map((name) => {
    const f = resource.fields.find((x) => x.name === name);
    if (!f) throw new Error(`${resource.name}: dialog picks unknown field '${name}'`);
    return f;
  });
}

/** The rule of a field, or a permissive optional one for fields declared without a rule. */
export function ruleOf(f: FieldDef): z.ZodType {
  if (f.rule) return f.rule;
  if (f.kind === 'number') return z.number().optional();
  if (f.kind === 'boolean') return z.boolean().optional();
  return z.string().optional();
}

/** The rule of a picked field as this dialog sends it (see `optional` and `wire` on form dialogs). */
export function dialogRuleOf(f: FieldDef, dialog: DialogDef): z.ZodType {
  let rule = ruleOf(f);
  if (!('pick' in dialog)) return rule;
  if (dialog.wire?.[f.name] === 'option') {
    // A missing or malformed option is answered with the field's own message ('Country is required!').
    const missing = rule.safeParse(undefined).error?.issues[0]?.message;
    rule = z.strictObject({ label: rule, value: rule }, missing ? { error: missing } : undefined);
  }
  if (dialog.optional?.includes(f.name)) rule = z.union([z.literal(''), rule]).optional();
  return rule;
}

/**
 * The zod schema of the body a dialog sends. Strict: a field the dialog does not pick is refused,
 * which is what keeps mass assignment out (an `id`, a `role`, a hash cannot be smuggled in).
 */
export function bodySchema(resource: ResourceDef, dialog: DialogDef) {
  const shape: Record<string, z.ZodType> = {};
  for (const f of pickedFields(resource, dialog)) shape[f.name] = dialogRuleOf(f, dialog);
  return z.strictObject(shape);
}

/**
 * A validated body as the record stores it: `{ label, value }` options become their value, and an
 * optional field left empty is dropped (so an update leaves it as it was).
 */
export function fromWire(dialog: DialogDef, body: Record<string, unknown>): Record<string, unknown> {
  if (!('pick' in dialog)) return body;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (dialog.optional?.includes(key) && (value === '' || value === undefined)) continue;
    out[key] = dialog.wire?.[key] === 'option' && value && typeof value === 'object' ? (value as { value: unknown }).value : value;
  }
  return out;
}

/** The dialog's JSON Schema for the form renderer, made by zod's own converter. */
export function formJsonSchema(resource: ResourceDef, dialog: DialogDef): Record<string, unknown> {
  const schema = z.toJSONSchema(bodySchema(resource, dialog), { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const f of pickedFields(resource, dialog)) {
    const p = properties[f.name];
    if (!p) continue;
    p.title = labelOf(f);
    if (f.hint) p.description = f.hint;
    if (f.kind === 'select' && f.options && !p.enum) p.enum = [...f.options];
    if (f.readOnly) p.readOnly = true;
  }
  delete schema.$schema;
  return schema;
}

/** Field label: declared, or the name with its first letter capitalised. */
export function labelOf(f: FieldDef): string {
  return f.label ?? f.name.charAt(0).toUpperCase() + f.name.slice(1);
}

/**
 * zod issues as `{ field: [messages] }`, the shape the server answers in 400s and the form shows
 * under each field. Issues about the whole object (unknown keys) are spread to each key named.
 */
export function issuesByField(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const add = (key: string, message: string) => {
    const list = (out[key] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(key, `Field '${key}' is not allowed.`);
    } else {
      add(issue.path.length ? String(issue.path[0]) : '_', issue.message);
    }
  }
  return out;
}
