/**
 * How a field's value is shown, by kind: a list column, and the same display in details dialogs.
 * References show the parent's title field, linked to the parent; images a thumbnail; enumerated
 * values (selects, flags, numbers with `choices`) their label on a chip; money through the shared
 * formatter; sizes and dates in the user's locale; files a link; rich text only through DOMPurify;
 * absent values `emptyShownAs`. Every list also offers the records' timestamps as columns.
 */
import { lazy, Suspense, type ReactElement } from 'react';
import { NumberField, TextField } from 'react-admin';
import { isSortable, labelOf, TIMESTAMP_FIELDS, timestampFields, type FieldDef, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { useRegistry } from '../registry/context.tsx';
import { readsReference } from './access.ts';
import {
  BooleanField,
  BytesField,
  ChoiceField,
  DateTimeField,
  FileField,
  ImageField,
  MoneyField,
  ResourceNameField,
  SelectField,
  type ColumnProps,
} from './displays.tsx';
import { ReferenceByField } from './reference-by.tsx';
import { ReferenceLinkField } from './reference-link.tsx';
import { PageReferenceCell } from './page-references.tsx';
import { ChangesField } from './changes.tsx';
import { RecordLinkField } from './record-link.tsx';
import { CELL_TEXT } from './cell-text.ts';
import { MoneyCell, NumberCell, TextCell } from './cell-displays.tsx';

// DOMPurify comes with the first rich text shown, not with every list.
const LazyHtmlField = lazy(() => import('./html.tsx'));

function HtmlField(props: ColumnProps) {
  return (
    <Suspense fallback={null}>
      <LazyHtmlField {...props} />
    </Suspense>
  );
}

/** A reference's cell: the target's title, linked; the target resource comes from the registry in context. */
function ReferenceCell({ field: f, light, ...props }: ColumnProps & { field: FieldDef; light?: boolean }) {
  const parent = useRegistry().resource(f.reference!);
  if (f.referenceBy) return <ReferenceByField {...props} reference={parent.name} by={f.referenceBy} titleSource={parent.title} />;
  const own = <ReferenceLinkField {...props} target={parent} light={light} />;
  // In a list, the page's references are read once for the page (page-references.tsx).
  return light ? <PageReferenceCell {...props} target={parent} fallback={own} /> : own;
}

/**
 * How a field is shown. `inTable`: as a list's column (a table's cell, a phone's card), where text,
 * numbers and amounts are drawn light (cell-displays.tsx); else as a details dialog shows it.
 */
export function fieldDisplay(resource: ResourceDef, f: FieldDef, sortable = false, inTable = false): ReactElement | null {
  const common = { source: f.name, label: labelOf(f), sortable };
  const emptyText = f.emptyShownAs === undefined ? undefined : String(f.emptyShownAs);
  if (f.kind === 'password') return null;
  // By what the value means before by how it is stored: `1` is 'Active', a size is '12.3 kB'.
  if (f.display === 'datetime') return <DateTimeField key={f.name} {...common} emptyText={emptyText} />;
  if (f.display === 'resource') return <ResourceNameField key={f.name} {...common} emptyText={emptyText} />;
  if (f.display === 'changes') return <ChangesField key={f.name} {...common} display={fieldDisplay} />;
  if (f.display === 'recordLink') return <RecordLinkField key={f.name} {...common} emptyText={emptyText} />;
  if (f.choices?.length && f.kind !== 'boolean' && f.kind !== 'select')
    return <ChoiceField key={f.name} {...common} emptyText={emptyText} choices={f.choices} />;
  switch (f.kind) {
    case 'image':
      return <ImageField key={f.name} {...common} titleSource={resource.title} />;
    case 'number':
      if (f.display === 'money')
        return inTable ? <MoneyCell key={f.name} {...common} emptyText={emptyText} /> : <MoneyField key={f.name} {...common} emptyText={emptyText} />;
      if (f.display === 'bytes') return <BytesField key={f.name} {...common} emptyText={emptyText} />;
      return inTable ? <NumberCell key={f.name} {...common} emptyText={emptyText} /> : <NumberField key={f.name} {...common} emptyText={emptyText} />;
    case 'boolean':
      return <BooleanField key={f.name} {...common} emptyText={emptyText} choices={f.choices} />;
    case 'file':
      return <FileField key={f.name} {...common} emptyText={emptyText} />;
    case 'html':
      return <HtmlField key={f.name} {...common} emptyText={emptyText} />;
    case 'select':
      return <SelectField key={f.name} {...common} emptyText={emptyText} choices={f.choices} />;
    case 'reference':
      return <ReferenceCell key={f.name} {...common} field={f} emptyText={emptyText} light={inTable} />;
    default:
      return inTable ? (
        <TextCell key={f.name} {...common} emptyText={emptyText} className={CELL_TEXT} />
      ) : (
        <TextField key={f.name} {...common} emptyText={emptyText} className={CELL_TEXT} />
      );
  }
}

/**
 * How much a column matters where not all fit (a phone's card, a narrow table): 0 an amount, 1 a state
 * (a select, a flag, a value with choices), 2 anything else. The lower, the longer it is kept.
 */
export function fieldWeight(f: FieldDef | undefined): number {
  if (!f) return 2;
  if (f.display === 'money') return 0;
  if (f.kind === 'select' || f.kind === 'boolean' || f.choices?.length) return 1;
  return 2;
}

export interface ColumnOptions {
  /** Whether headers sort at all (a list shown in its reorder order sorts by nothing else). */
  sortable?: boolean;
  /** A column that replaces a field's usual display (the toggle's switch). */
  replace?: (f: FieldDef) => ReactElement | undefined;
  /** The viewer's role: a reference to records it may not read is not shown (nor fetched). */
  role?: unknown;
  /** The registry the references' targets are judged in (the screen's, from context). */
  registry: Registry;
}

/**
 * Columns every list offers but shows only when asked (the column chooser): the records' timestamps,
 * 'Created' and 'Updated', sortable. A column chooser starts with these hidden.
 */
export const HIDDEN_BY_DEFAULT: readonly string[] = TIMESTAMP_FIELDS.map((f) => f.name);

/** The list columns of a resource: its `list: true` fields, in order, then the timestamps (`HIDDEN_BY_DEFAULT`). */
export function listColumns(resource: ResourceDef, { sortable = true, replace, role, registry }: ColumnOptions): ReactElement[] {
  return [...resource.fields.filter((f) => f.list && readsReference(registry, f, role)), ...timestampFields(resource)]
    .map((f) => replace?.(f) ?? fieldDisplay(resource, f, sortable && isSortable(f), true))
    .filter((c): c is ReactElement => c !== null);
}
