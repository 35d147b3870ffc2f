/**
 * Fields filled as the user types in another one (`fill: { from, by: 'slug' }`, spec §5: a top
 * category's href is made from its name by slug generation), until the user edits them.
 */
import type { FieldDef } from '../../manifest/index.ts';
import { slugify } from '../../domain/slug.ts';

type Data = Record<string, unknown>;

export interface FillTarget {
  /** The filled field. */
  name: string;
  /** The field it is made from. */
  from: string;
}

export function fillTargets(fields: readonly FieldDef[]): FillTarget[] {
  const names = new Set(fields.map((f) => f.name));
  // A source the dialog does not pick never changes in it: nothing to follow.
  return fields.filter((f) => f.fill && names.has(f.fill.from)).map((f) => ({ name: f.name, from: f.fill!.from }));
}

/** The filled value for a source text. */
export function filledFrom(source: unknown): string {
  return slugify(typeof source === 'string' ? source : source == null ? '' : String(source), { unique: false });
}

const textOf = (v: unknown) => (v == null ? '' : String(v));

/**
 * The targets that follow their source as the dialog opens: all of them on an empty field; on a
 * stored value only when it is still what its source makes (the user never chose another).
 */
export function initialFollowing(targets: readonly FillTarget[], data: Data): Set<string> {
  const following = new Set<string>();
  for (const t of targets) {
    const current = textOf(data[t.name]);
    if (current === '' || current === filledFrom(data[t.from])) following.add(t.name);
  }
  return following;
}

/**
 * The form data after one change from `prev` to `next`: a changed source refills the targets that
 * still follow it; a target the user changed stops following (`following` is updated in place).
 */
export function applyFill(targets: readonly FillTarget[], prev: Data, next: Data, following: Set<string>): Data {
  let out = next;
  for (const t of targets) {
    const sourceChanged = textOf(prev[t.from]) !== textOf(next[t.from]);
    const targetChanged = textOf(prev[t.name]) !== textOf(next[t.name]);
    if (targetChanged && !sourceChanged) {
      following.delete(t.name);
    } else if (sourceChanged && following.has(t.name)) {
      const filled = filledFrom(next[t.from]);
      if (textOf(out[t.name]) !== filled) out = { ...out, [t.name]: filled };
    }
  }
  return out;
}

/**
 * The form data with its computed fields (`computed: { by, from }`) made again from their sources, when
 * one of the sources changed from `prev` to `next` (as the server will make them: an agent's id appears
 * as its name is typed). A stored value is left as it is until then (it may carry a suffix the server
 * added to keep it unique).
 */
export function applyComputed(fields: readonly FieldDef[], prev: Data, next: Data): Data {
  let out = next;
  for (const f of fields) {
    const compute = f.computed?.by;
    if (!compute || !f.computed!.from.some((from) => textOf(prev[from]) !== textOf(next[from]))) continue;
    const value = compute(out);
    if (out[f.name] !== value) out = { ...out, [f.name]: value };
  }
  return out;
}
