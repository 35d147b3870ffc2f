/**
 * The manifest DSL's types. A manifest (`resources/*.ts`) is plain data built from these shapes;
 * the client generator, the server generator, the migrations and the spec check all read it.
 * Nothing here imports React or Fastify: manifests must load in every one of those places.
 */
import type { z } from 'zod';

/** Every role of the marketplace (spec §6). `user` is the buyer. */
export const ROLES = ['admin', 'seller', 'dealer', 'agent', 'user', 'support'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Who may call an operation: a list of roles, or `'signedIn'` for any role with a session.
 * There is no public access in the admin API: every route needs a session.
 */
export type Access = readonly Role[] | 'signedIn';

/** An HTTP call written as in the specification: `'PATCH /categories/{id}'`, relative to the API base. */
export type Call = `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} /${string}`;

/**
 * Field kinds. Each maps to a form widget (client), a column type (migrations) and a display (lists).
 * - `text`, `textarea`, `email`, `url`, `password`: strings; `password` is write-only and stored hashed.
 * - `number`: a JSON number.
 * - `image`: a URL of an image, shown as a thumbnail.
 * - `select`: one of `options`.
 * - `reference`: the id of a record of another resource (a parent picker in forms, its name in lists).
 * - `slug`: generated from another field by the slug rule of spec §5 when left empty.
 */
export type FieldKind =
  | 'text'
  | 'textarea'
  | 'number'
  | 'email'
  | 'url'
  | 'password'
  | 'image'
  | 'select'
  | 'reference'
  | 'slug';

/** How a field's value is stored. Derived from the kind unless set. */
export type Storage = 'text' | 'real' | 'integer';

/** Options shared by every field kind. */
export interface FieldOptions {
  /**
   * The zod rule for the value a client sends, carrying the specification's exact messages.
   * The same rule validates the form (client) and the request body (server).
   * Omit it for fields nobody writes through a dialog (ids, server-generated values).
   */
  rule?: z.ZodType;
  /** Human label in forms and list headers. Defaults to the field name, capitalised. */
  label?: string;
  /** Shown as a column on the generated list screen. */
  list?: boolean;
  /** Users may sort the list by it (the server allows only these, plus `id`). Defaults to `list`. */
  sortable?: boolean;
  /** Users may filter the list by it with an exact match. References and selects default to true. */
  filterable?: boolean;
  /** Included in the list's free-text search (`filter={"q":…}`). */
  searchable?: boolean;
  /** The form's initial value on create dialogs. */
  default?: unknown;
  /** What lists and forms show when the stored value is absent (spec: category order shows 0). */
  emptyShownAs?: unknown;
  /** A hint under the form field (size hints for images, limits). */
  hint?: string;
  /** Shown in forms but not editable there. */
  readOnly?: boolean;
  /** A value no other record of the resource may share (a unique index). */
  unique?: boolean;
  /** Overrides the storage type derived from the kind. */
  storage?: Storage;
}

/** A declared field: its name, kind and options, as `field.*` builders produce it. */
export interface FieldDef extends FieldOptions {
  name: string;
  kind: FieldKind;
  storage: Storage;
  /** For `reference`: the name of the resource it points at. */
  reference?: string;
  /** For `select`: the allowed values. */
  options?: readonly string[];
  /** For `slug`: the field it is generated from. */
  from?: string;
  /** For `password`: never returned by the server; stored as a hash in `<name>Hash`. */
  secret?: boolean;
}

/** What every dialog declares. */
interface DialogBase {
  /** Title of the modal. Defaults to one made from the dialog kind and the resource label. */
  title?: string;
  /** Who may open it and call its endpoint. Defaults to the resource's `write` access. */
  access?: Access;
}

/** A dialog that sends a form to a call: create, update and action dialogs. */
interface FormDialog extends DialogBase {
  /** The resource fields the form shows and the call sends, in order. */
  pick: readonly string[];
  /** The call the form submits to. Path parameters (`{id}`) are filled from the dialog's data. */
  call: Call;
  /** The 'Success!' toast's description. */
  success: string;
  /** The red toast's title when the call fails (spec §8); the server's answer is its description. */
  failure: string;
}

/** A create dialog: inserts a record from the picked fields. */
export interface CreateDialog extends FormDialog {
  kind: 'create';
}
/** An update dialog: opened with a record, changes the picked fields of it. */
export interface UpdateDialog extends FormDialog {
  kind: 'update';
}
/** A custom form dialog whose call is handled by a named server handler (`handler`). */
export interface ActionDialog extends FormDialog {
  kind: 'action';
  /** Name of the server handler in the handler registry that carries the call out. */
  handler: string;
}
/** A delete confirmation. */
export interface RemoveDialog extends DialogBase {
  kind: 'remove';
  call: Call;
  /** Shown when the dialog is opened without a target (spec §7: '<Entity> is missing.'). */
  missing: string;
  success: string;
  /** Toast title when the delete fails. Spec §8: 'Someting went wrong.'. */
  failure: string;
}
/** A read-only view of a record. */
export interface DetailsDialog extends DialogBase {
  kind: 'details';
  /** Fields shown, in order. */
  show: readonly string[];
}

export type DialogDef = CreateDialog | UpdateDialog | ActionDialog | RemoveDialog | DetailsDialog;
export type DialogKind = DialogDef['kind'];

/**
 * Where a list read takes its parent from: `GET /categories/create-product/{id}/sub` lists the
 * records whose `field` equals the path parameter `param`; with `match: 'slug'` the parameter is
 * the parent's slug and the server looks the parent up first.
 */
export interface ParentScope {
  /** The reference field of this resource that must equal the parent. */
  field: string;
  /** The path or query parameter that names the parent. */
  param: string;
  /** Which field of the parent the parameter holds. Default `id`. */
  match?: 'id' | 'slug';
}

/**
 * Related records nested into each answered record: `{ childcategory: { via: 'category' } }` puts the
 * record that the `category` reference points at under the key `childcategory`; `embed` nests further.
 */
export type Embed = Record<string, { via: string; embed?: Embed }>;

/** A paged, sorted, filtered list in the ra-data-simple-rest dialect. */
export interface ListRead {
  kind: 'list';
  call: Call;
  scope?: ParentScope;
  embed?: Embed;
  access?: Access;
}
/** One record, found by `id` or another unique field named in the path (`{slug}`). */
export interface OneRead {
  kind: 'one';
  call: Call;
  /** The field the path parameter matches. Default `id`. */
  by?: string;
  embed?: Embed;
  access?: Access;
}
/** The signed-in user's own record (`GET /getcurrentuser`). */
export interface SelfRead {
  kind: 'self';
  call: Call;
  access?: Access;
}
export type ReadDef = ListRead | OneRead | SelfRead;

/** Where the resource appears in the admin menu. */
export interface MenuEntry {
  /** Menu group heading. */
  group: string;
  /** A @mui/icons-material icon, by name (manifests hold no components). */
  icon?: string;
}

/** The input of `defineResource`. */
export interface ResourceInput {
  /** The resource's name: react-admin resource name and table name. */
  name: string;
  /** Singular label, as the specification names the entity ('Child category'). */
  label: string;
  /** Plural label for menus and list titles. */
  plural: string;
  /** Role access. `read` covers the reads, `write` the dialogs unless a dialog narrows it. */
  access: { read: Access; write: Access };
  /** The fields, in form and column order. `id` is implicit. */
  fields: readonly FieldDef[];
  /** The field that names a record when it is shown elsewhere (parents shown by name). Default `name`. */
  title?: string;
  /** The list's default sort. */
  sort?: { field: string; order: 'ASC' | 'DESC' };
  /** The GET calls, by a name of your choosing. The one named `list` feeds the list screen. */
  reads?: Record<string, ReadDef>;
  /** Dialogs by their specification type name (`createCategory`). */
  dialogs?: Record<string, DialogDef>;
  /** Menu placement; omit to keep the resource out of the menu. */
  menu?: MenuEntry;
}

/** A resource after `defineResource` checked it. */
export interface ResourceDef extends ResourceInput {
  title: string;
  sort: { field: string; order: 'ASC' | 'DESC' };
  reads: Record<string, ReadDef>;
  dialogs: Record<string, DialogDef>;
}
