/**
 * The manifest DSL's types. A manifest (`resources/*.ts`) is plain data built from these shapes;
 * the client generator, the server generator, the migrations and the spec check all read it.
 * Nothing here imports React or Fastify: manifests must load in every one of those places.
 */
import type { z } from 'zod';
import type { ResourceHooks } from './hooks.ts';
import type { HandlerName } from './handlers.ts';
import type { UploadEndpoint } from './uploads.ts';

/**
 * The tones a notification is shown in (its `type`). Notify is the core's (every resource may declare
 * it), so its vocabulary is the manifest's; the notifications feature's wire contract reads it from here.
 */
export const NOTIFICATION_TYPES = ['info', 'success', 'warning', 'error'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

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
 * - `boolean`: true or false (a switch in forms; stored as 0/1).
 * - `file`: a URL of an uploaded file that is not an image (a PDF: CV, invoice).
 * - `html`: rich text, shown only through DOMPurify.
 * - `items`: a list of typed sub-records (an order's lines), declared with `field.items` (see `ItemsDef`):
 *   kept in a child table of its own, written with the parent in one transaction, answered embedded.
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
  | 'slug'
  | 'boolean'
  | 'file'
  | 'html'
  | 'items';

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
  /**
   * What the server stores on create when the body leaves the field out (a create dialog that does not
   * pick it: a new currency is active although `POST /currencies` sends no status). Unlike `default`,
   * it is a stored value, not a form's starting value.
   */
  createdWith?: unknown;
  /** What lists and forms show when the stored value is absent (spec: category order shows 0). */
  emptyShownAs?: unknown;
  /** A hint under the form field (size hints for images, limits). */
  hint?: string;
  /**
   * For `textarea`: the form shows a live count of the characters typed against this most (spec §5:
   * a job application's message, 'n/500'); the rule keeps its own bound and messages.
   */
  counter?: number;
  /** Shown in forms but not editable there. */
  readOnly?: boolean;
  /**
   * Given when the record is made and never changed after (spec §3: a profile's email is not changeable):
   * an update dialog need not offer it, though the create does (`updateGaps`, src/manifest/offers.ts).
   */
  setOnce?: boolean;
  /** A value no other record of the resource may share (a unique index). */
  unique?: boolean;
  /**
   * The most characters a text value may have, checked by the field's rule in the form and on the
   * server. Default `MAX_TEXT` (255), or `MAX_LONG_TEXT` (10,000) for `textarea` and `html` (both in
   * `rules.ts`). A field allowed more than 255 is never sorted, filtered or unique: no index could hold it.
   */
  maxLength?: number;
  /** Overrides the storage type derived from the kind. */
  storage?: Storage;
  /**
   * For `image` and `file`: the upload widget replaces the URL input. The value stays the URL the
   * upload answered, so the field's rule still judges it.
   */
  upload?: UploadOptions;
  /**
   * Filled in the form as the user types in another field, until the user edits this one
   * (spec §5: a top category's href is made from its name by slug generation).
   */
  fill?: { from: string; by: 'slug' };
  /**
   * What the server stores when the field is sent empty. `'hostRoot'`: the root URL of the product
   * host the request came to (spec §9: "Default banner link is the product host root").
   */
  whenEmpty?: 'hostRoot';
  /**
   * How the value is displayed (lists, details):
   * - `'money'` (a `number`): the shared money formatter (en-US, USD);
   * - `'bytes'` (a `number`): a file size in the user's locale, '12.3 kB';
   * - `'datetime'` (ISO text): a date and time in the user's locale (`Intl.DateTimeFormat`), as every
   *   record's `createdAt` and `updatedAt` are;
   * - `'resource'` (text): the value names a resource (`topCategories`), shown by its label ('Top
   *   category') and filtered by a choice of the resources;
   * - `'changes'` (JSON text `{ field: { before, after } }`, the audit log's): a table of the changed
   *   fields of the record the entry names (its `resource`), each by its label, before and after shown
   *   as that resource's own fields show them (a reference by its title, money formatted);
   * - `'recordLink'` (JSON text holding `resource` and `recordId`, a notification's metadata): a link
   *   to that record, read as its resource's label and its title.
   */
  display?: 'money' | 'bytes' | 'datetime' | 'resource' | 'changes' | 'recordLink';
  /**
   * For `text` that holds a whole number because the specification sends it as text (a category's
   * `order`: '1', '2', '10'): the list sorts it by its value (1, 2, 10, not 1, 10, 2), on both engines
   * and from an index, and the field's rule refuses text that is not a whole number ('Order must be a
   * whole number.', 'Order must be a number.').
   */
  sortAs?: 'number';
  /**
   * The words people read for an enumerated value, declared once and used everywhere the value is
   * shown or picked: the form's select (`1` → 'Active'; a `boolean` keeps its switch), list cells
   * and chips, list filters.
   * Order is the order offered. Each `value` must be one the field's rule takes; a value the rule
   * takes but no choice names is shown as it is. Example (spec §3 status):
   * `choices: [{ value: 1, label: 'Active' }, { value: 0, label: 'Inactive' }]`.
   */
  choices?: readonly Choice[];
  /**
   * For an `image` with `upload`: the image is drawn in the form from another field's text, shown live,
   * and uploaded when the form is submitted; the uploaded URL is the value sent (spec: a QR code's
   * image is drawn from its title with qrcode.react).
   */
  drawn?: { from: string; as: 'qrcode' };
  /**
   * A value the server computes from other fields on every write, by a pure function of
   * `src/domain/computed.ts` referenced as a value (`by: computations.agentId`) over the fields in `from`: never taken from the client. The form
   * shows it read-only and fills it live with the same function (an agent's `agentId` appears as the
   * name is typed); a sent value that differs from the computed one is refused (400, under the field).
   */
  computed?: { by: (values: Record<string, unknown>) => string | number; from: readonly string[] };
  /**
   * For a `select`: its values are states, changed only by the transitions declared here (who may make
   * each, a guard, the fields it requires, a notification: see states.ts). Any other change is refused
   * (409 naming the current state); lists and details dialogs offer the allowed ones as actions.
   */
  states?: import('./states.ts').StatesDef;
  /**
   * For a `reference`: its choices depend on another reference of this resource (see `DependsOn`). The
   * form offers only the target records under the value chosen there, asks for that one first, and
   * clears this field when it changes; the server refuses a pair that does not match (400, under this
   * field). Example (a product's child category is one of its category's):
   * `field.reference('childCategory', 'childCategories', { dependsOn: { field: 'category', via: 'category' } })`.
   */
  dependsOn?: DependsOn;
}

/**
 * A reference whose choices depend on another (`FieldOptions.dependsOn`): the choices are the target
 * records whose `via` field holds this record's `field` value (both name the same resource by the same
 * key, which the registry checks). Messages, made from the labels unless given:
 * - `first`: this field holds a value while `field` is empty ('Choose the category first.');
 * - `mismatch`: the target record is not under the value of `field`
 *   ('Child category is not under the category chosen.').
 * The form shows `first` as the hint of the empty picker.
 */
export interface DependsOn {
  /** The reference field of this resource the choices depend on (the parent level: `category`). */
  field: string;
  /** The field of the target resource that holds the parent (a child category's `category`); filterable. */
  via: string;
  /** Told when this field is set and `field` is empty. */
  first?: string;
  /** Told when the chosen target record is not under the value of `field`. */
  mismatch?: string;
}

/**
 * One enumerated value and the word shown for it (see `FieldOptions.choices`). `tone` colours a chip
 * where the value is shown as one: `'success'` for an active or published state, `'default'` otherwise.
 */
export interface Choice {
  value: string | number | boolean;
  label: string;
  tone?: 'success' | 'warning' | 'error' | 'info' | 'default';
}

// The upload endpoints are declared, with what each takes, in src/manifest/uploads.ts.
export { UPLOAD_ENDPOINTS, type UploadEndpoint } from './uploads.ts';

/** How a field (or a list's Upload button) uploads. */
export interface UploadOptions {
  /**
   * The endpoint name sent with the files: where the server files them. Its declaration in
   * `src/manifest/uploads.ts` says the types, the size, how many files an upload carries (the widget
   * of a field, which holds one URL, takes one; the list's Upload button as many as the endpoint
   * takes) and who may fetch them; nothing of that is said again here.
   */
  endpoint: UploadEndpoint;
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
  /** For `reference`: the field of the target the value holds. Default `id` (`code` for countries). */
  referenceBy?: string;
  /** For `items`: the sub-records' fields and how many there may be (`field.items`). */
  items?: ItemsDef;
}

/**
 * The sub-records of an `items` field (an order's lines), as `field.items(name, { fields, min, max })`
 * declares them. Each sub-field is an ordinary field (`field.text`, `field.number`, `field.select`,
 * `field.boolean`, `field.reference`...) with its own `rule` and messages; the body rule is an array of
 * strict objects of those rules, so the form and the server judge each item alike, and a refused item's
 * messages are answered under `<field>.<index>.<sub-field>` (`lines.0.quantity`).
 *
 * Storage: a child table `<resource>_<field>` (`id`, `parentId`, `position`, a column per sub-field),
 * indexed on `(parentId, position)`; written, deleted, recycled and restored with its parent, in the
 * parent's transaction. A create stores the items sent (none when absent); an update sent the field
 * replaces them all, one not sending it leaves them as they are.
 *
 * Reads: every generated read (one record, lists, grouped) answers the items embedded as an array of
 * the sub-fields' values in position order; a list reads the items of its whole page in one query per
 * items field. Such a resource's reads skip the database-written JSON fast path (json-records.ts).
 */
export interface ItemsDef {
  /** The sub-records' fields, in the order forms and the details table show them. */
  fields: readonly FieldDef[];
  /** The fewest items a sent list may hold. With `min` > 0 the field must be sent (on a dialog not marking it `optional`). */
  min?: number;
  /** The most items a sent list may hold (default 100). */
  max?: number;
  /** Told when fewer than `min` are sent (default: '<Label> must have at least <min> item(s).'). */
  minMessage?: string;
  /** Told when more than `max` are sent (default: '<Label> may have at most <max> items.'). */
  maxMessage?: string;
  /**
   * The sub-records are another resource's records rather than rows of a child table: those of
   * `resource` whose reference `by` holds this record's id, oldest first, each answered as the
   * sub-fields' values (a sub-field names a field of `resource`, or `id`). Read-only: nothing writes
   * through the field, it is kept by the other resource's own writes and answered with every read of
   * this one (spec §3 Job: "jobApplication list (each with userId)").
   * `field.items('jobApplication', { readOnly: true, from: { resource: 'jobApplications', by: 'job' }, fields: [...] })`.
   */
  related?: { resource: string; by: string };
}

/** What every dialog declares. */
interface DialogBase {
  /** Title of the modal. Defaults to one made from the dialog kind and the resource label. */
  title?: string;
  /** Who may open it and call its endpoint. Defaults to the resource's `write` access. */
  access?: Access;
  /**
   * A hand-written client component draws this dialog instead of the generated form or view (docs/architecture.md:
   * hand-written UI only for commission, cart, push and support chat). Only the drawing changes: the
   * call, its route, access, body rule and messages stay what the dialog's kind declares, and the
   * component reads them from here. The component is one file in its feature folder, referenced here
   * as a loader (a misspelt path fails the type check), and loaded when the dialog first opens.
   * Example (spec §4, the product commission):
   * `component: () => import('../src/features/commission/CommissionDialog.tsx')`.
   */
  component?: DialogComponent;
}

/**
 * A hand-written dialog component (see `component` on every dialog): a loader of the module whose default
 * export draws the dialog's body (`DialogBodyProps`, src/client/dialogs/context.ts). The manifest layer
 * knows no React, so the module's shape is the client's to hold it to (src/client/dialogs/custom.tsx).
 */
export type DialogComponent = () => Promise<{ default: unknown }>;

/**
 * A notification the server sends after a call succeeded: the one declaration that makes an event notify
 * (src/features/notifications/server/declared.ts carries it out). It is about the record the call
 * answers (a create's or update's record, a handler's answer: a call answering none notifies nobody).
 * Several may be declared (an array): each whose `when` matches is sent.
 * The person who made the call is never notified of it. Example (a document's review):
 * `notify: { to: 'owner', when: { status: 'REJECTED' }, title: 'Document rejected',
 *   message: 'Your {kind} was rejected: {note}', type: 'error', category: 'documents' }`.
 */
export interface NotifyDef {
  /**
   * Who is told:
   * - `'owner'`: the record's owner, by the resource's `access.owner.field` (a resource declaring an
   *   `access.owner` without `via`);
   * - `'admins'`: every admin account that is not disabled;
   * - `{ field }`: the user whose id the record holds in `field` (`{ field: 'sellerId' }`; `'id'` on an account).
   */
  to: 'owner' | 'admins' | { field: string };
  /** Sent only when the record holds these values (`{ status: 'APPROVED' }`). Omit: always. */
  when?: Record<string, string | number | boolean | null>;
  /** The notification's title; `{field}` is replaced as in `message`. */
  title: string;
  /**
   * The text; each `{field}` is replaced by the record's value (by the word its `choices` give it, where
   * the declaring resource's field has them; empty when absent). A secret field cannot be named.
   */
  message: string;
  /** The tone it is shown in. */
  type: NotificationType;
  /** Its `metadata.category`: what the bell groups and filters it by ('commission', 'documents', 'account'). */
  category: string;
}

/** The values of a select field one dialog offers and accepts (`only` on form dialogs), and what it says to the others. */
export interface OnlyValues {
  /** The values offered, a part of the field's options, at least one. */
  values: readonly [string, ...string[]];
  /** The 400's message under the field for a value the field allows but this dialog does not. */
  message: string;
}

/**
 * A form dialog opened on a record whose list `field` (an `items` field of the record it opens with,
 * each entry with a `userId`) already holds the signed-in person: the form does not open; a warning
 * toast (`title`, `message`) shows and the dialog closes. The server refuses the call anyway (409
 * with `message`, by the resource's `single`), and the dialog answers that 409 with the same warning.
 */
export interface AlreadyDef {
  field: string;
  title: string;
  message: string;
}

/** A dialog that sends a form to a call: create, update and action dialogs. */
interface FormDialog extends DialogBase {
  /** The resource fields the form shows and the call sends, in order. */
  pick: readonly string[];
  /** The call the form submits to. Path parameters (`{id}`) are filled from the dialog's data. */
  call: Call;
  /** The 'Success!' toast's description. */
  success: string;
  /** The submit button's text. Default 'Create' on a create dialog, else 'Save' ('Submit application'). */
  submit?: string;
  /**
   * The success toast's title in place of 'Success!' (spec §8: 'Application Submitted Successfully!'
   * with 'We'll review your application and get back to you soon.').
   */
  successTitle?: string;
  /** The red toast's title when the call fails (spec §8); the server's answer is its description. */
  failure: string;
  /**
   * The red toast's description when the server said nothing to show (no answer: the network failed):
   * spec §8 'Application Failed' with the server's message or 'Something went wrong. Please try again.'.
   */
  failureFallback?: string;
  /**
   * The dialog is not for one who already took part (spec §6: 'Already Applied' / 'You have already
   * applied for this position.'): see `AlreadyDef`.
   */
  already?: AlreadyDef;
  /**
   * Picked fields this dialog may leave empty although their rule asks for a value: an empty one is
   * not sent and not changed (spec §5: a banner's image URL is required on create only).
   */
  optional?: readonly string[];
  /**
   * Picked fields this dialog sends in another shape than the field stores. `'option'`: a reference
   * sent as `{ label, value }`, each judged by the field's rule; `value` is stored (spec §5: currency
   * add sends country as an object, update as a string).
   */
  wire?: Record<string, 'option'>;
  /**
   * Picked select fields of which this dialog offers and accepts only some values: the form's select
   * offers `values` alone, and the server answers another value the field allows with `message` (400
   * under the field; a value the field itself refuses keeps the field's own message). Example (Create
   * user: agents, dealers and sellers are made from their own lists, with their profiles):
   * `only: { role: { values: ['admin', 'user', 'support'], message: 'Agents, dealers and sellers are created from their own lists…' } }`.
   */
  only?: Record<string, OnlyValues>;
  /** Notifications sent after the call succeeded (see `NotifyDef`). */
  notify?: NotifyDef | readonly NotifyDef[];
}

/** A create dialog: inserts a record from the picked fields. */
export interface CreateDialog extends FormDialog {
  kind: 'create';
  /** The list toolbar's button that opens it. Default 'Create' (the products' reads 'Create product'). */
  button?: string;
}
/** An update dialog: opened with a record, changes the picked fields of it. */
export interface UpdateDialog extends FormDialog {
  kind: 'update';
}
/** A custom form dialog whose call is handled by a named server handler (`handler`). */
export interface ActionDialog extends FormDialog {
  kind: 'action';
  /** Name of the server handler that carries the call out: a key of the server's map (`HandlerName`). */
  handler: HandlerName;
  /**
   * The resource whose record the call's `{id}` names, when not the declaring one (applyjob, a form of
   * the applications, is called on a job: `on: 'jobs'`). The handler's `record` is that one, within the
   * caller's reach; the list of that resource offers the dialog on its rows (`list.rowDialogs`).
   */
  on?: string;
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
  /**
   * The record goes to the recycle bin, from which an admin can restore it, instead of being deleted.
   * Defaults to true when the call's path ends in `/recycle` (docs/architecture.md: "deletes under /recycle").
   */
  recycle?: boolean;
}
/** A read-only view of a record. */
export interface DetailsDialog extends DialogBase {
  kind: 'details';
  /** Fields shown, in order. */
  show: readonly string[];
  /**
   * A named client view that shows the record instead of the field list: `'qrcode'` (the QR image at
   * 400x400, its title and 'Scan the qr code'), `'galleryImage'` (a preview with a download action).
   */
  view?: DetailsView;
  /** Who may open it. Details dialogs only read, so this defaults to the resource's `read` access. */
  access?: Access;
  /**
   * Made by `defineResource` for a listed resource that declares no details dialog (every list's rows
   * open): a list offers it only to a role that has no Edit on the row.
   */
  implicit?: boolean;
}

/**
 * The named views a details dialog can use. `'loginDetails'`: an account's login (its email), a link to
 * the role's area on the product host, and "Issue a one-time password" (agent-login-details).
 */
export type DetailsView = 'qrcode' | 'galleryImage' | 'loginDetails';

export type DialogDef = CreateDialog | UpdateDialog | ActionDialog | RemoveDialog | DetailsDialog;
export type DialogKind = DialogDef['kind'];

/**
 * Where a list read takes its parent from: `GET /categories/create-product/{id}/sub` lists the
 * records whose `field` equals the path parameter `param`; with `match: 'slug'` the parameter is
 * the parent's slug and the server looks the parent up first.
 */
export interface ParentScope {
  /**
   * The field of this resource that must equal the parameter. A reference is matched through its
   * parent (`match`); any other field is compared with the parameter directly (`?status=1`, `/type/{type}`).
   */
  field: string;
  /** The path or query parameter that names the parent. */
  param: string;
  /** Which field of the parent the parameter holds. Default `id`. */
  match?: 'id' | 'slug';
  /**
   * For a `field` that references an account (`users`): the parameter is matched against this field of
   * the account instead (`GET /sellers/?dealerId=…`: the sellers whose account's `dealerId` is the
   * parameter: `{ field: 'userId', param: 'dealerId', through: 'dealerId' }`).
   */
  through?: string;
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
  /**
   * The paging dialect. `'range'` (default): ra-data-simple-rest's `range` and `Content-Range`.
   * `'page'`: `?page=1&limit=20` (1-based), answered as `{ data, total, page, limit }` (spec: `/api/gallery`).
   */
  paging?: 'range' | 'page';
}
/** One record, found by `id` or another unique field named in the path (`{slug}`). */
export interface OneRead {
  kind: 'one';
  call: Call;
  /** The field the path parameter matches. Default `id`. */
  by?: string;
  /**
   * A fixed value of `by` for a path without a parameter: `GET /site-settings/delivery-time-notice`
   * is the setting whose `name` is 'delivery-time-notice'.
   */
  value?: string;
  embed?: Embed;
  access?: Access;
  /**
   * The 404's message when no record matches (or none the reader may see). Default '<Label> not found.';
   * spec §8: 'Unable to fetch single Urgency' for `GET /support-panel/manage/urgency/{id}`.
   */
  notFound?: string;
}
/** The signed-in user's own record (`GET /getcurrentuser`). */
export interface SelfRead {
  kind: 'self';
  call: Call;
  access?: Access;
}
/**
 * Every record (at most 1,000), grouped by a field: `{ [value]: records }`, each group in the
 * resource's sort (`GET /footer-menus/footer-info`: footer menus by their group).
 */
export interface GroupedRead {
  kind: 'grouped';
  call: Call;
  /** The field whose value names the group. */
  by: string;
  access?: Access;
}
export type ReadDef = ListRead | OneRead | SelfRead | GroupedRead;

/**
 * A declared call that is neither a dialog nor a read: carried out by a named server handler
 * (`src/server/routes/handlers.ts`), its body judged by `body` when given.
 */
export interface OperationDef {
  kind: 'operation';
  call: Call;
  /** Name of the server handler that carries the call out: a key of the server's map (`HandlerName`). */
  handler: HandlerName;
  /** Who may call it. Defaults to the resource's `write` access. */
  access?: Access;
  /** The request body's rule (strict objects refuse unknown fields). Omit for calls without a JSON body. */
  body?: z.ZodType;
  /**
   * Offered on each row of the list screen: a button that calls the operation with the row's `{id}`
   * and no body (the recycle bin's Restore), then toasts `success` or `failure` and refreshes.
   */
  row?: { label: string; icon?: string; success: string; failure: string };
  /** Notifications sent after the call succeeded (see `NotifyDef`). */
  notify?: NotifyDef | readonly NotifyDef[];
}

/** Behaviours of the generated list screen beyond columns, filters and row dialogs. */
export interface ListBehaviour {
  /**
   * Rows are reordered by dragging (and by keyboard: move up/down). The new order is sent to `call`
   * as `{ [key]: [{ id, [field]: n }] }`; the list is shown sorted by `field`.
   */
  reorder?: { call: Call; key: string; field: string };
  /** A `boolean` field switched right in the row, through the resource's update dialog's call. */
  toggle?: string;
  /** An Upload button that uploads straight into the list (the media gallery). */
  upload?: UploadOptions;
  /** The alert the list shows when it cannot load (spec §8 social links: 'Opps' / 'Something went wrong.'). */
  failure?: { title: string; message: string };
  /**
   * Dialogs declared by other resources that act on this list's rows, by type name: offered in each
   * row's "More actions" menu to the roles that may open them (spec §7: the replacement dialogs live on
   * `accountReplacements` but call `PATCH /agents/replace/{id}` with an agent's id). The registry
   * checks each: declared by another resource; an update or action whose call has `{id}` (the row's id
   * fills it; the form starts empty, as the row's fields are not that resource's), or a details dialog
   * drawn by a `view` (it is given the row: `userLoginDetails` reads the row's `userId`). A form so
   * borrowed acts on the borrowing list's rows only: its own resource's rows do not offer it.
   * Example (agents): `rowDialogs: ['replaceAgentModal', 'userLoginDetails']`.
   */
  rowDialogs?: readonly string[];
}

/**
 * A site setting that names one record of the resource as the default (spec §7 currencies:
 * `GET /currencies/settings`, `PUT /currencies/settings` with `id`). The list marks that record and
 * offers "Make default" on the others.
 */
export interface DefaultRecord {
  read: Call;
  write: Call;
  /** The key it is stored under in the settings table. */
  key: string;
  /**
   * What a record must hold to be the default, and keep holding while it is (only an active currency
   * can be the default: `{ field: 'status', value: 1, … }`). Making a record without it the default is
   * refused (400, `refused` under `id`); an update that takes it from the default record is refused
   * (400, `kept` under `field`); the list offers "Make default" only on rows that hold it.
   */
  requires?: { field: string; value: string | number | boolean; refused: string; kept: string };
  /** Who may change it. Defaults to the resource's `write` access; reading follows `read` access. */
  access?: Access;
}

/** Where the resource appears in the admin menu. */
export interface MenuEntry {
  /** Menu group heading. */
  group: string;
  /** A @mui/icons-material icon, by name (manifests hold no components). */
  icon?: string;
}

/**
 * How far a role reaches into an owned resource's rows (see `OwnerDef.roles`):
 * - `'all'`: every row;
 * - `'own'`: the rows whose owner is the signed-in user;
 * - `{ team: 'dealerId' }`: the rows whose owner's account names the signed-in user in that field of
 *   `users` (a dealer reaches the rows of the sellers whose `dealerId` is the dealer's id), and its own;
 * - `{ through: { items, via, field } }`: the rows whose sub-records point at a record the user owns
 *   (see `ThroughItems`): ownership through a relation;
 * - `{ party: 'dealerId' }`: the rows whose own reference field names the signed-in user, one who has a
 *   part in a record without owning it (a dealer reaches the orders carrying its commission share:
 *   an order keeps the seller's dealer of the day it was placed, so a seller who moves to another
 *   dealer leaves its earlier orders with the first). Like `through`, such a role reads and updates
 *   the records it reaches, never creates one, and cannot change that field.
 */
export type OwnerReach = 'all' | 'own' | { team: string } | { through: ThroughItems } | { party: string };

/**
 * Ownership through a relation held by sub-records (`OwnerReach` `{ through }`): a record is within a
 * user's reach when one of its `items` sub-records points (`via`, a reference sub-field) at a record whose
 * `field` is the user. The orders that hold a seller's products:
 * `seller: { through: { items: 'lines', via: 'product', field: 'sellerId' } }`. Such a role reads and
 * updates the records it reaches so; it creates none (it is not their owner).
 */
export interface ThroughItems {
  /** The `items` field of this resource holding the sub-records. */
  items: string;
  /** The reference sub-field of each item. */
  via: string;
  /** The field of the record `via` points at that holds its owner's user id. */
  field: string;
}

/**
 * Who owns each record of a resource, and which rows each role reaches (`ResourceAccess.owner`). The
 * server applies it to every read (lists, counts, one-record reads, exports) and every write (update,
 * remove, operations with an `{id}`); a row out of reach answers 404, as an id that does not exist does,
 * so ids cannot be probed. A role with access to the resource but not named in `roles` reaches no row.
 * On create, a role reaching only its own rows becomes the owner (a value it sends is refused unless it
 * is itself); a team role may create for itself or one of its team; a role reaching `through` creates none.
 */
export interface OwnerDef {
  /**
   * The field holding the owner's user id. With `via`, the field of the record `via` points at (a
   * payout's owner is its order's `sellerId`: `{ via: 'order', field: 'sellerId' }`).
   */
  field: string;
  /** A reference field of this resource through which the owner is found. */
  via?: string;
  /** Per role, how far it reaches. */
  roles: Partial<Record<Role, OwnerReach>>;
}

/**
 * A resource's access: the one declaration `authorize` (src/manifest/authorize.ts) answers from, asked by
 * the server's guard and records service and by the client alike. It answers two questions:
 * - who may call what: `read` covers the resource's reads (lists, one-record reads, exports, details
 *   dialogs), `write` its other dialogs and its operations; a dialog, read or operation may declare an
 *   `access` of its own in place of these (the buyer alone places an order: `access: ['user']`);
 * - which rows each role reaches: `owner`. Omit it and every role with access reaches every row.
 *
 * `owner` is a key beside `read` and `write`, not a reach written into each list, because a role's
 * reach is one for all its calls: a seller lists, reads, updates and removes the same rows, so it is
 * said once per role and cannot drift between reading and writing. Who owns a record (`field`, `via`) is
 * said once for the resource, as every role's reach is measured from the same owner.
 *
 * Examples:
 * - every row to whoever may call (site content):
 *   `access: { read: ['admin'], write: ['admin'] }`;
 * - own rows (an agent reads its own profile; admins read and write every one):
 *   `access: { read: ['admin', 'agent'], write: ['admin'], owner: { field: 'userId', roles: { admin: 'all', agent: 'own' } } }`;
 * - a team (a dealer reaches its sellers' products, and its own):
 *   `owner: { field: 'sellerId', roles: { admin: 'all', seller: 'own', dealer: { team: 'dealerId' } } }`;
 * - the owner found via a reference (a payout is its order's seller's):
 *   `owner: { via: 'order', field: 'sellerId', roles: { admin: 'all', seller: 'own' } }`;
 * - through sub-records (a seller reaches the orders whose lines hold its products; the buyer owns them):
 *   `owner: { field: 'buyerId', roles: { admin: 'all', user: 'own',
 *   seller: { through: { items: 'lines', via: 'product', field: 'sellerId' } } } }`.
 */
export interface ResourceAccess {
  /** Who may call the resource's reads. */
  read: Access;
  /** Who may call its writes: dialogs (other than details) and operations. */
  write: Access;
  /** Who owns each record and which rows each role reaches (see `OwnerDef`). Omit: every row. */
  owner?: OwnerDef;
}

/** The input of `defineResource`. */
export interface ResourceInput {
  /** The resource's name: react-admin resource name and table name. */
  name: string;
  /** Singular label, as the specification names the entity ('Child category'). */
  label: string;
  /** Plural label for menus and list titles. */
  plural: string;
  /** Who may call what, and which rows each role reaches: the one access declaration (`ResourceAccess`). */
  access: ResourceAccess;
  /** The fields, in form and column order. `id` is implicit. */
  fields: readonly FieldDef[];
  /** The field that names a record when it is shown elsewhere (parents shown by name). Default `name`. */
  title?: string;
  /** The list's default sort. */
  sort?: { field: string; order: 'ASC' | 'DESC' };
  /**
   * How the list has the records' timestamps (`createdAt`, `updatedAt`). `'sortable'` (the default):
   * columns, sorted and filtered by a date range. `'shown'`: columns only. Say `'shown'` where a declared
   * date gives that order and range and every write appends a row (the audit log's `at`): each sortable
   * column adds an index per filter, each range one more, and every write keeps each one up.
   */
  timestamps?: 'sortable' | 'shown';
  /**
   * Whether each record is also kept as its JSON text in a table beside its rows (db/stored-records.ts),
   * written in the write's own transaction, so list pages and record reads answer the kept text instead of
   * writing the record as they read it. `true` (the default): rows read again and again (a catalogue's,
   * read on every page by every visitor). Say `false` for a table written far more than each row is read
   * again: every write of it pays a second row (its text, a key in two indexes, a trigger), and a read
   * without one writes each record as it goes (a few microseconds a row). Both engines; the next
   * migration drops what an earlier server kept. Example: the audit log, which every write appends to and
   * only an admin's screen reads (docs/performance.md, "Issue 54, sixth part").
   */
  keptRecords?: boolean;
  /** The GET calls, by a name of your choosing. The one named `list` feeds the list screen. */
  reads?: Record<string, ReadDef>;
  /** Dialogs by their specification type name (`createCategory`). */
  dialogs?: Record<string, DialogDef>;
  /** Menu placement; omit to keep the resource out of the menu. */
  menu?: MenuEntry;
  /** Calls carried out by named server handlers, by a name of your choosing. */
  operations?: Record<string, OperationDef>;
  /** List-screen behaviours: reorder by dragging, a toggle, an upload button, a failure alert. */
  list?: ListBehaviour;
  /** A setting naming one record as the default. */
  defaultRecord?: DefaultRecord;
  /**
   * Not a key of its own: ownership is declared inside `access` (`access: { read, write, owner }`, see
   * `ResourceAccess`), so a manifest still writing `owner` here fails the typecheck (and `defineResource`).
   */
  owner?: never;
  /**
   * Lifecycle hooks (`beforeChange`, `afterChange`, `afterRemove`: see `ResourceHooks` in hooks.ts), run by
   * the records service inside the write's transaction. Referenced as a value imported from the feature
   * that owns the behaviour (`hooks: productHooks`), never by name.
   */
  hooks?: ResourceHooks;
  /** Scheduled work, by a name of your choosing: at a record's time field or every N seconds (jobs.ts). */
  jobs?: Record<string, import('./jobs.ts').JobDef>;
  /**
   * What the list says when it has no rows, in plain words ('No emails sent yet'). Default: 'No <plural>
   * yet' for a plural that is one ('No categories yet'), else 'The <plural> is empty' ('The recycle bin
   * is empty'): a collective name ('Recycle bin', 'Audit log') is not a count of things.
   */
  empty?: string;
  /**
   * Records waiting for someone's work, counted at the top of the landing page of each role named
   * (the admin's dashboard, a role's area) as a link to the list so filtered: proofs of payment to
   * check, payouts to pay. `filter` names filterable fields; the count is the list's total, within the
   * role's reach. `{ label: 'Payouts waiting to be paid', filter: { payoutStatus: 'REQUESTED' }, roles: ['admin'] }`.
   */
  waiting?: readonly WaitingDef[];
  /**
   * At most one record per owner and value of `field` while the record holds `while` (one pending document
   * per kind): the server refuses another (409, `message` under `field`, `{<field>}` read as the value's
   * choice label), and create forms do not offer a value already taken so.
   */
  single?: SingleDef;
}

/** See `ResourceInput.waiting`. */
export interface WaitingDef {
  label: string;
  filter: Record<string, string | number | boolean>;
  roles: readonly Role[];
}

/** See `ResourceInput.single`. */
export interface SingleDef {
  /** The field whose value there is one of (a document's `kind`); the owner field (`access.owner.field`) is the other. */
  field: string;
  /** What the record holds while it counts (`{ status: 'PENDING' }`). */
  while: Record<string, string | number | boolean>;
  /** The refusal, `{<field>}` replaced by the value's label ('A {kind} is already waiting for review.'). */
  message: string;
}

/** A resource after `defineResource` checked it; its ownership is read at `access.owner` only. */
export interface ResourceDef extends Omit<ResourceInput, 'owner'> {
  title: string;
  sort: { field: string; order: 'ASC' | 'DESC' };
  reads: Record<string, ReadDef>;
  dialogs: Record<string, DialogDef>;
  operations: Record<string, OperationDef>;
}
