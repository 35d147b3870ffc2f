/** The RJSF uiSchema of a form dialog: one widget per field kind, from the manifest. */
import type { UiSchema } from '@rjsf/utils';
import type { DialogDef, FieldDef, FieldKind, ResourceDef } from '../../manifest/index.ts';
import { pickedFields } from '../../manifest/index.ts';

/** Options the custom widgets read from `ui:options`. */
export interface ReferenceWidgetOptions {
  /** The referenced resource's name. */
  reference: string;
}

const WIDGETS: Partial<Record<FieldKind, string>> = {
  textarea: 'textarea',
  password: 'password',
  email: 'email',
  url: 'uri',
  image: 'image',
  reference: 'reference',
};

function fieldUi(f: FieldDef, schemaType: unknown, first: boolean): Record<string, unknown> {
  const ui: Record<string, unknown> = {};
  const widget = WIDGETS[f.kind];
  if (widget) ui['ui:widget'] = widget;
  // Without it RJSF turns an emptied input into `undefined`, and the key vanishes: the rule would then
  // answer "expected string" instead of the spec's "… is required!".
  if (schemaType === 'string') ui['ui:emptyValue'] = '';
  if (f.readOnly) ui['ui:disabled'] = true;
  if (first && !f.readOnly) ui['ui:autofocus'] = true;
  if (f.kind === 'reference') ui['ui:options'] = { reference: f.reference! } satisfies ReferenceWidgetOptions;
  if (f.kind === 'password') ui['ui:options'] = { autoComplete: 'new-password' };
  return ui;
}

export function buildUiSchema(resource: ResourceDef, dialog: DialogDef, jsonSchema: Record<string, unknown>): UiSchema {
  const props = (jsonSchema.properties ?? {}) as Record<string, { type?: unknown }>;
  const fields = pickedFields(resource, dialog);
  const firstEditable = fields.find((f) => !f.readOnly);
  const ui: UiSchema = { 'ui:order': [...fields.map((f) => f.name), '*'] };
  for (const f of fields) ui[f.name] = fieldUi(f, props[f.name]?.type, f === firstEditable);
  return ui;
}
