/**
 * Field builders: `field.text('name', { rule, list: true })`. Each sets the kind and the storage the
 * migrations use; everything else is the caller's options (see `FieldOptions`).
 */
import type { FieldDef, FieldKind, FieldOptions, Storage } from './types.ts';

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
  /** An image URL, shown as a thumbnail. */
  image: make('image', 'text'),
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
  /** The id of a record of the resource `target`: a parent picker in forms, the parent's title in lists. */
  reference: (name: string, target: string, opts: FieldOptions = {}): FieldDef => ({
    storage: 'text',
    filterable: true,
    ...opts,
    name,
    kind: 'reference',
    reference: target,
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
};
