/**
 * Field builders: `field.text('name', { rule, list: true })`. Each sets the kind and the storage the
 * migrations use; everything else is the caller's options (see `FieldOptions`).
 */
import type { FieldDef, FieldKind, FieldOptions, ItemsDef, Storage } from './types.ts';

function make(kind: FieldKind, storage: Storage) {
  return (name: string, options: FieldOptions = {}): FieldDef => ({ storage, ...options, name, kind });
}

export const field = {
  /** A single-line string. */
  text: make('text', 'text'),
  /** A multi-line string. */
  textarea: make('textarea', 'text'),
  /** A JSON number (stored as a real unless `storage: 'integer'`). */
  number: make('number', 'real'),
  /** An email address; the rule decides how strictly it is checked. */
  email: make('email', 'text'),
  /** A URL. */
  url: make('url', 'text'),
  /** An image URL, shown as a thumbnail; with `upload`, filled by the upload widget. */
  image: make('image', 'text'),
  /** A URL of an uploaded document (a PDF), shown as a link; with `upload`, filled by the upload widget. */
  file: make('file', 'text'),
  /** Rich text. Shown only through DOMPurify. */
  html: make('html', 'text'),
  /** True or false: a switch in forms, stored as 0/1, answered as a JSON boolean. */
  boolean: make('boolean', 'integer'),
  /** A password: write-only, hashed by the server, never answered. */
  password: (name: string, options: FieldOptions = {}): FieldDef => ({
    storage: 'text',
    ...options,
    name,
    kind: 'password',
    secret: true,
  }),
  /** One of a fixed list of values. */
  select: (name: string, options: readonly string[], opts: FieldOptions = {}): FieldDef => ({
    storage: 'text',
    filterable: true,
    ...opts,
    name,
    kind: 'select',
    options,
  }),
  /**
   * The id of a record of the resource `target`: a parent picker in forms, the parent's title in lists.
   * `by` names another unique field of the target the value holds instead of its id (a country's `code`).
   */
  reference: (name: string, target: string, { by, ...opts }: FieldOptions & { by?: string } = {}): FieldDef => ({
    storage: 'text',
    filterable: true,
    ...opts,
    name,
    kind: 'reference',
    reference: target,
    ...(by && by !== 'id' ? { referenceBy: by } : {}),
  }),
  /** A slug generated from the field `from` (spec §5 Other) when the sender leaves it empty. */
  slug: (name: string, from: string, opts: FieldOptions = {}): FieldDef => ({
    storage: 'text',
    unique: true,
    ...opts,
    name,
    kind: 'slug',
    from,
  }),
  /**
   * A list of typed sub-records kept in a child table (an order's lines), or read from another
   * resource's records that point at this one (`related`: a job's applications): `fields` are ordinary field
   * declarations with their own rules and messages; `min`/`max` bound how many (see `ItemsDef`).
   * Example: `field.items('lines', { fields: [field.text('sku', { rule }), field.number('quantity', { rule })], min: 1 })`.
   */
  items: (name: string, { fields, min, max, minMessage, maxMessage, related, ...opts }: FieldOptions & ItemsDef): FieldDef => ({
    storage: 'text',
    ...opts,
    name,
    kind: 'items',
    items: { fields, min, max, minMessage, maxMessage, ...(related ? { related } : {}) },
  }),
};
