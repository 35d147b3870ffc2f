/**
 * Dependent references (`dependsOn`, types.ts `DependsOn`): their messages, made once from the labels
 * for the server's refusal and the form's hint alike, and the form's rule that choosing a parent clears
 * what depended on it. Pure: manifests, the client and the server all read it.
 */
import type { FieldDef } from './types.ts';
import { labelOf } from './schema.ts';

type Data = Record<string, unknown>;

/** The field `f` depends on, among `fields` (undefined when `f` depends on none). */
export function parentOf(f: FieldDef, fields: readonly FieldDef[]): FieldDef | undefined {
  return f.dependsOn ? fields.find((x) => x.name === f.dependsOn!.field) : undefined;
}

/** What is told while `f` is set and its parent is not ('Choose the category first.'); also the picker's hint. */
export function chooseFirstMessage(f: FieldDef, parent: FieldDef): string {
  return f.dependsOn?.first ?? `Choose the ${labelOf(parent).toLowerCase()} first.`;
}

/** What is told when `f`'s record is not under the parent chosen ('Child category is not under the category chosen.'). */
export function mismatchMessage(f: FieldDef, parent: FieldDef): string {
  return f.dependsOn?.mismatch ?? `${labelOf(f)} is not under the ${labelOf(parent).toLowerCase()} chosen.`;
}

/** The key a reference's form value holds: the value, or a `{ label, value }` option's `value`; undefined when empty. */
export function referenceKey(value: unknown): string | undefined {
  const raw = value && typeof value === 'object' ? (value as { value?: unknown }).value : value;
  return raw === undefined || raw === null || raw === '' ? undefined : String(raw);
}

/**
 * The form data after one change from `prev` to `next`, with every field whose parent changed emptied
 * ('' for a plain value, undefined for an option): the old choice is not under the new parent. Emptying
 * a field is a change too, so a whole branch below a changed level is emptied (category → child → sub).
 */
export function clearDependents(fields: readonly FieldDef[], prev: Data, next: Data): Data {
  let out = next;
  const changed = new Set(fields.filter((f) => referenceKey(prev[f.name]) !== referenceKey(next[f.name])).map((f) => f.name));
  // Parents come before their dependents in no guaranteed order: go round until nothing more empties.
  for (let again = true; again; ) {
    again = false;
    for (const f of fields) {
      if (!f.dependsOn || !changed.has(f.dependsOn.field) || referenceKey(out[f.name]) === undefined) continue;
      out = { ...out, [f.name]: out[f.name] && typeof out[f.name] === 'object' ? undefined : '' };
      changed.add(f.name);
      again = true;
    }
  }
  return out;
}
