/**
 * Enumerated values and the words people read for them, for lists' cells and filters alike: a field's
 * `choices` (1 → 'Active'), a flag's 'Yes'/'No' when it declares none, a select's options, the
 * resources a value may name. No JSX here: the API tests check every choice a filter offers against
 * the server.
 */
import type { Choice, FieldDef, Registry } from '../../manifest/index.ts';

/** The flag's own words when it declares none: what a chip says for true and false. */
export const FLAG_CHOICES: readonly Choice[] = [
  { value: true, label: 'Yes', tone: 'success' },
  { value: false, label: 'No' },
];

const isAbsent = (value: unknown) => value === undefined || value === null || value === '';
const isOn = (value: unknown) => value === true || value === 1 || value === '1' || value === 'true';

/** The choice naming `value`, matched as the API answers it (a status `1`, a flag `true` or `1`, text). */
export function choiceOf(choices: readonly Choice[], value: unknown): Choice | undefined {
  return choices.find((c) =>
    typeof c.value === 'boolean' ? !isAbsent(value) && isOn(value) === c.value : String(c.value) === String(value),
  );
}

/** The label of a resource named by the value ('topCategories' → 'Top category'), or the name when unknown. */
export function resourceLabel(registry: Registry, name: unknown): string {
  const found = registry.resources.find((r) => r.name === name);
  return found ? found.label : String(name ?? '');
}

/** The kinds of filter input a field can get: what `filterInputKind` answers. */
export type FilterKind = 'reference' | 'select' | 'number' | 'text';

/**
 * The values a select filter offers, as react-admin choices (`id` is the value sent), or undefined
 * when the field is not enumerated. A flag sends 'true'/'false', which the server reads as its 1/0.
 */
export function filterChoices(registry: Registry, f: FieldDef): { id: string | number; name: string }[] | undefined {
  const named = (choices: readonly Choice[]) =>
    choices.map((c) => ({ id: typeof c.value === 'boolean' ? String(c.value) : c.value, name: c.label }));
  if (f.kind === 'boolean') return named(f.choices?.length ? f.choices : FLAG_CHOICES);
  if (f.choices?.length) return named(f.choices);
  if (f.kind === 'select') return (f.options ?? []).map((o) => ({ id: o, name: o }));
  if (f.display === 'resource') return registry.resources.map((r) => ({ id: r.name, name: r.label }));
  return undefined;
}

/**
 * Which input filters the field: a parent picker, a select of its values, a number box, or a text box
 * (text only: the server compares text exactly and refuses none, where a number or a flag typed as
 * words would be a 400).
 */
export function filterInputKind(registry: Registry, f: FieldDef): FilterKind {
  if (f.kind === 'reference') return 'reference';
  if (filterChoices(registry, f)) return 'select';
  if (f.storage !== 'text') return 'number';
  return 'text';
}
