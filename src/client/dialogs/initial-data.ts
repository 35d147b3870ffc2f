/**
 * A form dialog's first values. Strings start as '' (never undefined) so an untouched or emptied
 * field is judged by its rule's own message. Update dialogs start from the record, create dialogs
 * from the field defaults; both take what `openDialog(type, data)` passed for the picked fields.
 */
import type { DialogDef, ResourceDef } from '../../manifest/index.ts';
import { pickedFields } from '../../manifest/index.ts';

type Data = Record<string, unknown>;

/** A stored value as the form holds it: a nested parent record becomes its id. */
function formValue(value: unknown, isString: boolean): unknown {
  if (value && typeof value === 'object' && 'id' in value) value = (value as { id: unknown }).id;
  if (value === undefined || value === null) return undefined;
  return isString && typeof value !== 'string' ? String(value) : value;
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
    const isString = props[f.name]?.type === 'string';
    const given = formValue(data?.[f.name], isString);
    // Update dialogs show what lists show for an absent value (order: 0); create dialogs the default.
    const fallback = dialog.kind === 'update' ? (f.emptyShownAs ?? f.default) : f.default;
    const value = given ?? formValue(fallback, isString) ?? (isString ? '' : undefined);
    if (value !== undefined) out[f.name] = value;
  }
  return out;
}
