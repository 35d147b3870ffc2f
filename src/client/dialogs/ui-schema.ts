/** The RJSF uiSchema of a form dialog: one widget per field kind, from the manifest. */
import type { UiSchema } from '@rjsf/utils';
import type { DialogDef, FieldDef, FieldKind, ResourceDef, UploadOptions } from '../../manifest/index.ts';
import { chooseFirstMessage, fixedIn, parentOf, pickedFields } from '../../manifest/index.ts';

/** Options the reference picker reads from `ui:options`. */
export interface ReferenceWidgetOptions {
  /** The referenced resource's name. */
  reference: string;
  /** The field of the target the value holds (`code3`); the target's `id` when absent. */
  referenceBy?: string;
  /** `'option'`: the value is `{ label, value }` (label: the target's title, value: its `referenceBy`). */
  wire?: 'option';
  /**
   * The choices depend on another field of the form (`dependsOn`): only target records whose `via`
   * holds its value are offered; while it is empty none are, and `first` says to choose it.
   */
  dependsOn?: { field: string; via: string; first: string };
}

/** Options the upload widgets read from `ui:options` (`props.options.upload`). */
export interface UploadWidgetOptions {
  upload: UploadOptions;
}

/** Options the drawn-image widget (`QrWidget`) reads from `ui:options`. */
export interface DrawnWidgetOptions {
  /** The field whose text is drawn, and how. */
  drawn: NonNullable<FieldDef['drawn']>;
  upload: UploadOptions;
}

/** Registry names of the custom widgets and fields (FormDialog registers them under these). */
export const CUSTOM = { reference: 'reference', image: 'image', qrcode: 'qrcode', referenceOption: 'referenceOption', counted: 'counted' } as const;

const WIDGETS: Partial<Record<FieldKind, string>> = {
  textarea: 'textarea',
  password: 'password',
  email: 'email',
  url: 'uri',
  image: CUSTOM.image,
  // A document URL: the same widget uploads it (PDFs where the endpoint takes them) or takes a URL.
  file: CUSTOM.image,
  html: 'textarea',
  reference: CUSTOM.reference,
};

type PropSchema = { type?: unknown; items?: { properties?: Record<string, PropSchema> } } | undefined;

function fieldUi(f: FieldDef, dialog: DialogDef, schema: PropSchema, first: boolean): Record<string, unknown> {
  const ui: Record<string, unknown> = {};
  const options: Record<string, unknown> = {};
  const widget = WIDGETS[f.kind];
  if (widget) ui['ui:widget'] = widget;
  // Without it RJSF turns an emptied input into `undefined`, and the key vanishes: the rule would then
  // answer "expected string" instead of the spec's "… is required!".
  if (schema?.type === 'string') ui['ui:emptyValue'] = '';
  if (fixedIn(f, dialog)) ui['ui:disabled'] = true;
  if (first && !fixedIn(f, dialog)) ui['ui:autofocus'] = true;
  if (f.kind === 'reference') {
    const wire = 'pick' in dialog ? dialog.wire?.[f.name] : undefined;
    Object.assign(options, {
      reference: f.reference!,
      ...(f.referenceBy ? { referenceBy: f.referenceBy } : {}),
      ...(wire ? { wire } : {}),
    } satisfies ReferenceWidgetOptions);
    // The `{ label, value }` shape is an object in the JSON Schema: RJSF renders objects through a
    // field, not a widget, so a field adapts the same picker.
    if (wire === 'option') {
      delete ui['ui:widget'];
      ui['ui:field'] = CUSTOM.referenceOption;
    }
  }
  if ((f.kind === 'image' || f.kind === 'file') && f.upload) Object.assign(options, { upload: f.upload } satisfies UploadWidgetOptions);
  if (f.drawn && f.upload) {
    ui['ui:widget'] = CUSTOM.qrcode;
    Object.assign(options, { drawn: f.drawn, upload: f.upload } satisfies DrawnWidgetOptions);
  }
  if (f.kind === 'password') options.autoComplete = 'new-password';
  // A textarea with a live count against its most (spec §5: 'n/500').
  if (f.counter && (f.kind === 'textarea' || f.kind === 'html')) {
    ui['ui:widget'] = CUSTOM.counted;
    options.counter = f.counter;
  }
  if (f.kind === 'items') Object.assign(ui, itemsUi(f, dialog, schema));
  if (Object.keys(options).length) ui['ui:options'] = options;
  return ui;
}

/**
 * An `items` field: RJSF's array field (add, remove, move up and down), each item's sub-fields drawn
 * as fields are, in their declared order.
 */
function itemsUi(f: FieldDef, dialog: DialogDef, schema: PropSchema): Record<string, unknown> {
  const item = schema?.items?.properties ?? {};
  const subs = f.items!.fields;
  const itemUi: Record<string, unknown> = { 'ui:order': [...subs.map((sub) => sub.name), '*'] };
  for (const sub of subs) itemUi[sub.name] = fieldUi(sub, dialog, item[sub.name], false);
  return { items: itemUi, 'ui:options': { orderable: true, addable: true, removable: true } };
}

export function buildUiSchema(resource: ResourceDef, dialog: DialogDef, jsonSchema: Record<string, unknown>): UiSchema {
  const props = (jsonSchema.properties ?? {}) as Record<string, PropSchema>;
  const fields = pickedFields(resource, dialog);
  // A drawn field is not typed into: the focus goes to the first field the user fills.
  const firstEditable = fields.find((f) => !fixedIn(f, dialog) && !f.drawn);
  const ui: UiSchema = { 'ui:order': [...fields.map((f) => f.name), '*'] };
  for (const f of fields) ui[f.name] = fieldUi(f, dialog, props[f.name], f === firstEditable);
  // A dependent reference narrows by its parent's value in this form; a dialog that does not pick the
  // parent offers every choice (the server still refuses a mismatch with the stored parent).
  for (const f of fields) {
    const parent = parentOf(f, fields);
    if (!parent) continue;
    const options = (ui[f.name]['ui:options'] ??= {}) as Partial<ReferenceWidgetOptions>;
    options.dependsOn = { field: parent.name, via: f.dependsOn!.via, first: chooseFirstMessage(f, parent) };
  }
  return ui;
}
