/**
 * A form dialog's first values. Strings start as '' (never undefined) so an untouched or emptied
 * field is judged by its rule's own message. Update dialogs start from the record, create dialogs
 * from the field defaults; both take what `openDialog(type, data)` passed for the picked fields.
 */
import type { DialogDef, FieldDef, ResourceDef } from '../../manifest/index.ts';
import { pickedFields } from '../../manifest/index.ts';

type Data = Record<string, unknown>;

/**
 * A stored value as the form holds it: a nested parent record becomes the field it is referenced by
 * (its id, or its `referenceBy`: a country's `code3`).
 */
function formValue(f: FieldDef, value: unknown, isString: boolean): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const by = f.kind === 'reference' ? (f.referenceBy ?? 'id') : 'id';
    if (by in value) value = (value as Record<string, unknown>)[by];
  }
  if (value === undefined || value === null) return undefined;
  return isString && typeof value !== 'string' ? String(value) : value;
}

/**
 * A `{ label, value }` option as the form holds it: an option as given, or a bare value (a prefill,
 * a stored record) with its label still to be found by the picker.
 */
function optionValue(value: unknown): Data | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'object' && !Array.isArray(value) && 'value' in value) {
    const { label, value: v } = value as { label?: unknown; value?: unknown };
    return { label: label == null ? '' : String(label), value: v == null ? '' : String(v) };
  }
  return { label: '', value: String(value) };
}

/**
 * An `items` field's list as the form holds it: each item's sub-fields that hold a value (an absent one,
 * answered null, is left out: the sub-field's rule then judges it as not given, as the server would).
 */
function itemsValue(value: unknown): Data[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((item) =>
    Object.fromEntries(Object.entries((item ?? {}) as Data).filter(([, v]) => v !== null && v !== undefined)),
  );
}

export function initialFormData(
  resource: ResourceDef,
  dialog: DialogDef,
  jsonSchema: Record<string, unknown>,
  data: Data | undefined,
): Data {
  const props = (jsonSchema.properties ?? {}) as Record<string, { type?: unknown }>;
  const out: Data = {};
  for (const f of pickedFields(resource, dialog)) {
    if ('pick' in dialog && dialog.wire?.[f.name] === 'option') {
      const option = optionValue(data?.[f.name] ?? f.default);
      if (option) out[f.name] = option;
      continue;
    }
    if (f.kind === 'items') {
      const items = itemsValue(data?.[f.name] ?? f.default);
      if (items) out[f.name] = items;
      continue;
    }
    const isString = props[f.name]?.type === 'string';
    const given = formValue(f, data?.[f.name], isString);
    // Update dialogs show what lists show for an absent value (order: 0); create dialogs the default.
    const fallback = dialog.kind === 'update' ? (f.emptyShownAs ?? f.default) : f.default;
    const value = given ?? formValue(f, fallback, isString) ?? (isString ? '' : undefined);
    if (value !== undefined) out[f.name] = value;
  }
  return out;
}
