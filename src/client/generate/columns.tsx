/**
 * How a field's value is shown, by kind: a list column, and the same display in details dialogs.
 * References show the parent's title field; images a thumbnail; booleans a check or a cross; money
 * through the shared formatter; files a link; rich text only through DOMPurify; absent values
 * `emptyShownAs`.
 */
import { lazy, Suspense, type ReactElement } from 'react';
import { NumberField, ReferenceField, TextField } from 'react-admin';
import { isSortable, labelOf, type FieldDef, type ResourceDef } from '../../manifest/index.ts';
import { registry } from '../../../resources/index.ts';
import { BooleanField, FileField, ImageField, MoneyField, SelectField, type ColumnProps } from './displays.tsx';
import { ReferenceByField } from './reference-by.tsx';

// DOMPurify comes with the first rich text shown, not with every list.
const LazyHtmlField = lazy(() => import('./html.tsx'));

function HtmlField(props: ColumnProps) {
  return (
    <Suspense fallback={null}>
      <LazyHtmlField {...props} />
    </Suspense>
  );
}

export function fieldDisplay(resource: ResourceDef, f: FieldDef, sortable = false): ReactElement | null {
  const common = { source: f.name, label: labelOf(f), sortable };
  const emptyText = f.emptyShownAs === undefined ? undefined : String(f.emptyShownAs);
  switch (f.kind) {
    case 'password':
      return null;
    case 'image':
      return <ImageField key={f.name} {...common} titleSource={resource.title} />;
    case 'number':
      return f.display === 'money' ? (
        <MoneyField key={f.name} {...common} emptyText={emptyText} />
      ) : (
        <NumberField key={f.name} {...common} emptyText={emptyText} />
      );
    case 'boolean':
      return <BooleanField key={f.name} {...common} emptyText={emptyText} />;
    case 'file':
      return <FileField key={f.name} {...common} emptyText={emptyText} />;
    case 'html':
      return <HtmlField key={f.name} {...common} emptyText={emptyText} />;
    case 'select':
      return <SelectField key={f.name} {...common} emptyText={emptyText} />;
    case 'reference': {
      const parent = registry.resource(f.reference!);
      if (f.referenceBy)
        return (
          <ReferenceByField
            key={f.name}
            {...common}
            reference={parent.name}
            by={f.referenceBy}
            titleSource={parent.title}
            emptyText={emptyText}
          />
        );
      return (
        <ReferenceField key={f.name} {...common} reference={parent.name} link={false} emptyText={emptyText}>
          <TextField source={parent.title} />
        </ReferenceField>
      );
    }
    default:
      return <TextField key={f.name} {...common} emptyText={emptyText} />;
  }
}

export interface ColumnOptions {
  /** Whether headers sort at all (a list shown in its reorder order sorts by nothing else). */
  sortable?: boolean;
  /** A column that replaces a field's usual display (the toggle's switch). */
  replace?: (f: FieldDef) => ReactElement | undefined;
}

/** The list columns of a resource: its `list: true` fields, in order. */
export function listColumns(resource: ResourceDef, { sortable = true, replace }: ColumnOptions = {}): ReactElement[] {
  return resource.fields
    .filter((f) => f.list)
    .map((f) => replace?.(f) ?? fieldDisplay(resource, f, sortable && isSortable(f)))
    .filter((c): c is ReactElement => c !== null);
}
