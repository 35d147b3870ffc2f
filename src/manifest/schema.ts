/**
 * Schemas derived from a resource: the body a dialog sends (zod, strict) and the form's JSON Schema.
 * Client and server both call these, so a form and its route can never disagree.
 */
import { z } from 'zod';
import { withinStorage } from './rules.ts';
import { DEFAULT_MAX_ITEMS } from './items.ts';
import { fixedIn } from './fixed.ts';
import type { Choice, DialogDef, FieldDef, ResourceDef } from './types.ts';

/** The declared fields a form dialog picks, in its order. */
export function pickedFields(resource: ResourceDef, dialog: DialogDef): FieldDef[] {
  if (!('pick' in dialog)) return [];
  return dialog.pick.map((name) => {
    const f = resource.fields.find((x) => x.name === name);
    if (!f) throw new Error(`${resource.name}: dialog picks unknown field '${name}'`);
    return f;
  });
}

/**
 * The rule of a field (or a permissive optional one for fields declared without a rule), held to
 * what its storage keeps: a maximum length for text, whole 32-bit numbers for integers, finite reals
 * (`withinStorage`). Form and server both judge by this, so no engine ever sees a value it would refuse.
 */
export function ruleOf(f: FieldDef): z.ZodType {
  if (f.kind === 'items') return itemsRule(f);
  return withinStorage(f.rule ?? fallbackRule(f), f, labelOf(f));
}

/**
 * An `items` field's rule: an array (within `min`..`max`) of strict objects of its sub-fields' own rules,
 * so an item is judged field by field with the sub-fields' messages, and an unknown key in an item is
 * refused as in a body. Optional unless `min` asks for items (absent on an update: left as they are).
 */
function itemsRule(f: FieldDef): z.ZodType {
  const def = f.items!;
  const label = labelOf(f);
  const min = def.min ?? 0;
  const max = def.max ?? DEFAULT_MAX_ITEMS;
  const fewer = def.minMessage ?? `${label} must have at least ${min} ${min === 1 ? 'item' : 'items'}.`;
  const more = def.maxMessage ?? `${label} may have at most ${max} items.`;
  const item = z.strictObject(Object.fromEntries(def.fields.map((sub) => [sub.name, ruleOf(sub)])), {
    error: (issue) => (issue.code === 'invalid_type' ? `Each of the ${label.toLowerCase()} must be an object.` : undefined),
  });
  const list = z
    .array(item, { error: (issue) => (issue.input === undefined ? fewer : `${label} must be a list.`) })
    .min(min, fewer)
    .max(max, more);
  return min > 0 ? list : list.optional();
}

function fallbackRule(f: FieldDef): z.ZodType {
  if (f.kind === 'number') return z.number().optional();
  if (f.kind === 'boolean') return z.boolean().optional();
  return z.string().optional();
}

/**
 * The rule of a field in one dialog, before the shape it is sent in: the field's own, or, where the
 * dialog takes only some of a select's values (`only`), those values alone. Form and server both read
 * it, so a select never offers what the route refuses. A value outside them that the field allows is
 * answered with the dialog's message; anything else with the field's own.
 */
export function offeredRuleOf(f: FieldDef, dialog: DialogDef): z.ZodType {
  const rule = ruleOf(f);
  const only = 'pick' in dialog ? dialog.only?.[f.name] : undefined;
  if (!only) return rule;
  return z.enum(only.values, {
    error: (issue) => (rule.safeParse(issue.input).success ? only.message : rule.safeParse(issue.input).error?.issues[0]?.message),
  });
}

/** The rule of a picked field as this dialog sends it (see `only`, `optional` and `wire` on form dialogs). */
export function dialogRuleOf(f: FieldDef, dialog: DialogDef): z.ZodType {
  let rule = offeredRuleOf(f, dialog);
  if (!('pick' in dialog)) return rule;
  if (dialog.wire?.[f.name] === 'option') {
    // A missing or malformed option is answered with the field's own message ('Country is required!').
    const missing = rule.safeParse(undefined).error?.issues[0]?.message;
    rule = z.strictObject({ label: rule, value: rule }, missing ? { error: missing } : undefined);
  }
  // An optional list is left out, never sent as '' (an update not sending it keeps its items).
  if (dialog.optional?.includes(f.name)) {
    const own = rule;
    // A value neither empty nor allowed is told the field's own message, not the union's 'Invalid input'.
    const message = (issue: { input?: unknown }) => own.safeParse(issue.input).error?.issues[0]?.message;
    rule = f.kind === 'items' ? rule.optional() : z.union([z.literal(''), own], { error: message }).optional();
  }
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
    const raw = properties[f.name];
    if (raw) properties[f.name] = fieldJsonSchema(raw, f, fixedIn(f, dialog));
  }
  delete schema.$schema;
  return schema;
}

type JsonSchema = Record<string, unknown>;

/** A field's JSON Schema as the form draws it: its choices, title, hint; an `items` field's sub-fields alike. */
function fieldJsonSchema(raw: JsonSchema, f: FieldDef, fixed = !!f.readOnly): JsonSchema {
  if (f.kind === 'select' && f.options && !constantsOf(raw)) raw.enum = [...f.options];
  const p = asChoices(raw, f.choices);
  p.title = labelOf(f);
  if (f.hint) p.description = f.hint;
  if (fixed) p.readOnly = true;
  const item = f.kind === 'items' ? (p.items as JsonSchema | undefined) : undefined;
  const subs = item?.properties as Record<string, JsonSchema> | undefined;
  if (subs) for (const sub of f.items!.fields) if (subs[sub.name]) subs[sub.name] = fieldJsonSchema(subs[sub.name], sub);
  return p;
}

/**
 * The constants a JSON Schema allows (`const` and `enum`, through nested `anyOf`/`oneOf`), and
 * whether it allows null besides; undefined when it allows anything that is not a constant.
 */
function constantsOf(s: JsonSchema): { values: unknown[]; nullable: boolean } | undefined {
  const branches = (s.anyOf ?? s.oneOf) as unknown;
  if (Array.isArray(branches)) {
    const values: unknown[] = [];
    let nullable = false;
    for (const b of branches as JsonSchema[]) {
      if (b?.type === 'null' && !('const' in b)) {
        nullable = true;
        continue;
      }
      const inner = b && typeof b === 'object' ? constantsOf(b) : undefined;
      if (!inner) return undefined;
      values.push(...inner.values);
      nullable ||= inner.nullable;
    }
    return values.length ? { values, nullable } : undefined;
  }
  if ('const' in s) return { values: [s.const], nullable: false };
  if (Array.isArray(s.enum)) return { values: s.enum.filter((v) => v !== null), nullable: s.enum.includes(null) };
  return undefined;
}

/**
 * A value offered from a fixed set, whatever zod made of it (`z.enum`: an `enum`; a union of literals:
 * an `anyOf` of `const`s, which RJSF cannot draw), as one typed schema with a titled `oneOf`, which
 * RJSF draws as a select of the titles and JSON Schema validators read as before. Titles are the
 * field's `choices` labels, or the values themselves; a plain typed `enum` without `choices` is kept
 * (RJSF draws it as it is). Nested objects and arrays are mended the same way.
 */
function asChoices(s: JsonSchema, choices?: readonly Choice[]): JsonSchema {
  const found = constantsOf(s);
  const types = new Set(found?.values.map((v) => typeof v));
  const [type] = types;
  // A plain typed `enum` is drawn as a select already; only titles (`choices`) need the titled form.
  const plainEnum = Array.isArray(s.enum) && typeof s.type === 'string' && !choices?.length;
  if (found && !plainEnum && types.size === 1 && (type === 'string' || type === 'number' || type === 'boolean')) {
    const { anyOf: _a, oneOf: _o, enum: _e, const: _c, ...rest } = s;
    const title = (v: unknown) => choices?.find((c) => c.value === v)?.label ?? String(v);
    const jsonType = type === 'number' && found.values.every((v) => Number.isInteger(v)) ? 'integer' : type;
    return {
      ...rest,
      type: found.nullable ? [jsonType, 'null'] : jsonType,
      oneOf: offeredOrder(found.values, choices).map((v) => ({ const: v, title: title(v) })),
    };
  }
  const out = { ...s };
  if (out.properties && typeof out.properties === 'object') {
    out.properties = Object.fromEntries(
      Object.entries(out.properties as Record<string, JsonSchema>).map(([k, v]) => [k, asChoices(v)]),
    );
  }
  if (out.items && typeof out.items === 'object' && !Array.isArray(out.items)) out.items = asChoices(out.items as JsonSchema);
  return out;
}

/** The values a rule allows, once each: those `choices` name first, in their order, then the rest. */
function offeredOrder(values: unknown[], choices?: readonly Choice[]): unknown[] {
  const allowed = new Set(values);
  const named = (choices ?? []).map((c) => c.value).filter((v) => allowed.has(v));
  return [...new Set([...named, ...values])];
}

/** The declared label of an enumerated value (`choices`), or undefined when none names it. */
export function choiceOf(f: FieldDef, value: unknown): Choice | undefined {
  // Stored and query values may come back as text ('1') or 0/1 for booleans: compare loosely by text.
  return f.choices?.find((c) => c.value === value || String(c.value) === String(value));
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
  // Keys are the client's: a body key named `toString` or `__proto__` must be an entry like any other,
  // never an inherited member, so the messages are gathered in a Map and made an object at the end.
  const byKey = new Map<string, string[]>();
  const add = (key: string, message: string) => {
    const list = byKey.get(key) ?? [];
    if (!list.includes(message)) list.push(message);
    byKey.set(key, list);
  };
  for (const issue of error.issues) {
    // Inside a list of items (`lines.0.quantity`) the whole path is the key: the form shows it under that item's field.
    const nested = typeof issue.path[1] === 'number' ? issue.path.map(String).join('.') : undefined;
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(nested ? `${nested}.${key}` : key, `Field '${key}' is not allowed.`);
    } else {
      add(nested ?? (issue.path.length ? String(issue.path[0]) : '_'), issue.message);
    }
  }
  // A null-prototype object: `__proto__` is an own key here (and JSON.stringify answers it as one).
  const out: Record<string, string[]> = Object.create(null);
  for (const [key, list] of byKey) out[key] = list;
  return out;
}
