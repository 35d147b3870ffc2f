/**
 * A list table's rows, drawn light (issue 51.10). react-admin's DatagridBody keys each row by its
 * record's id, so a next page or a search unmounted 25 rows and mounted 25 new ones, and each row was
 * react-admin's DatagridRow (with a store subscription and a navigate of its own) around MUI's TableRow
 * and a DatagridCell and TableCell per column, each a styled component drawn with its styles at every
 * drawing. Here:
 *  - a row is keyed by its place on the page: a new page's rows are the same rows given new records, so
 *    React updates their cells in place instead of tearing them down and building them again;
 *  - a row and its cells are plain `<tr>` and `<td>` wearing MUI's and react-admin's classes, their looks
 *    given once by the table (`listBodySx`, MUI's TableRow and TableCell styles as they are, at the same
 *    weight), so a cell costs nothing of its own, and a row whose columns change (the table fitting its
 *    screen) draws no cell again, only the `<td>`s that come or go;
 *  - one click handler on the body opens the clicked row's record (react-admin's `rowClick`, as its
 *    rows called it), rather than one per row.
 * Selection (selection.tsx), the row actions and the cells read their record from the row's context, as
 * under DatagridBody; the keyboard (Enter on a focused row) clicks the row, as before.
 */
import { isValidElement, memo, useCallback, useMemo, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import type { Theme } from '@mui/material';
import { DatagridClasses, RecordContextProvider, type Identifier, type RaRecord } from 'react-admin';

type RowClick = (id: Identifier, resource: string, record: RaRecord) => unknown;

/** This body's class: its rows' and cells' looks (`listBodySx`) are for its plain elements only, not for MUI's. */
const LIST_BODY: string = 'list-body';

interface ListBodyProps {
  /** Given by react-admin's Datagrid. */
  data?: RaRecord[];
  resource?: string;
  rowClick?: RowClick | string | false;
  children?: ReactNode;
  className?: string;
  /** Rows the keyboard reaches (each opens its record with Enter). */
  focusableRows?: boolean;
}

/** A column as react-admin's Datagrid reads it. */
type Field = ReactElement<{ source?: string; textAlign?: string; cellClassName?: string }> & { type: { textAlign?: string } };

/** The columns given (arrays of columns, nested as the list screen gives them), each element as it is. */
function fieldsOf(children: ReactNode, out: Field[] = []): Field[] {
  if (Array.isArray(children)) for (const child of children) fieldsOf(child, out);
  else if (isValidElement(children)) out.push(children as Field);
  return out;
}

interface Cell {
  key: string;
  className: string;
  field: Field;
}

/** A cell's classes as MUI's TableCell (body, small) and react-admin's DatagridCell gave them. */
function cellsOf(fields: Field[]): Cell[] {
  return fields.map((field, index) => {
    const { source, textAlign, cellClassName } = field.props;
    const align = textAlign ?? (typeof field.type === 'function' || typeof field.type === 'object' ? field.type.textAlign : undefined);
    const className = [
      'MuiTableCell-root MuiTableCell-body',
      align && align !== 'inherit' && `MuiTableCell-align${align[0].toUpperCase()}${align.slice(1)}`,
      'MuiTableCell-sizeSmall',
      `column-${source}`,
      DatagridClasses.rowCell,
      cellClassName,
    ]
      .filter(Boolean)
      .join(' ');
    return { key: String(field.key ?? source ?? index), className, field };
  });
}

interface RowProps {
  record: RaRecord;
  index: number;
  cells: Cell[];
  clickable: boolean;
  focusable: boolean;
}

/** One row: drawn again when its record, its place or its columns change (its cells' content draws itself). */
const Row = memo(function Row({ record, index, cells, clickable, focusable }: RowProps) {
  const className = [
    'MuiTableRow-root MuiTableRow-hover',
    DatagridClasses.row,
    index % 2 ? DatagridClasses.rowOdd : DatagridClasses.rowEven,
    DatagridClasses.selectable,
    clickable && DatagridClasses.clickableRow,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <RecordContextProvider value={record}>
      <tr className={className} tabIndex={focusable ? 0 : undefined} data-row={index}>
        {cells.map((cell) => (
          <td key={cell.key} className={cell.className}>
            {cell.field}
          </td>
        ))}
      </tr>
    </RecordContextProvider>
  );
});

/** The table's body for react-admin's Datagrid (its `body`): rows keyed by their place, one click handler. */
export function ListBody({ data = [], resource = '', rowClick, children, className, focusableRows = false }: ListBodyProps) {
  const cells = useMemo(() => cellsOf(fieldsOf(children)), [children]);
  const clickable = typeof rowClick === 'function';
  const onClick = useCallback(
    (e: MouseEvent<HTMLTableSectionElement>) => {
      if (typeof rowClick !== 'function') return;
      // The row clicked, in this table (a click in a dialog a row opened comes up through React too: not a row's).
      const row = e.target instanceof Element ? e.target.closest('tr[data-row]') : null;
      if (!(row instanceof HTMLElement) || row.parentElement !== e.currentTarget) return;
      const record = data[Number(row.dataset.row)];
      if (record) rowClick(record.id, resource, record);
    },
    [rowClick, data, resource],
  );
  return (
    <tbody className={['MuiTableBody-root datagrid-body', className, DatagridClasses.tbody, LIST_BODY].filter(Boolean).join(' ')} onClick={onClick}>
      {data.map((record, index) => (
        // Keyed by place: the next page's rows are these rows with other records.
        <Row key={index} record={record} index={index} cells={cells} clickable={clickable} focusable={focusableRows} />
      ))}
    </tbody>
  );
}

// MUI's Table takes it for one of its own bodies (as react-admin's DatagridBody is).
(ListBody as unknown as { muiName: string }).muiName = 'TableBody';

/**
 * The rows' and cells' looks, for the table's `sx`: MUI's TableRow and TableCell (body, small) styles,
 * as those components give them, at the weight of their one class (`:where` adds none), so that what
 * overrode them before (react-admin's and the list's own rules) still does.
 */
export function listBodySx(theme: Theme) {
  const t = theme as Theme & {
    vars?: { palette: { TableCell: { border: string } } };
    alpha: (color: string, value: number) => string;
    lighten: (color: string, value: number) => string;
    darken: (color: string, value: number) => string;
  };
  const palette = t.vars?.palette ?? theme.palette;
  const border = t.vars
    ? `1px solid ${t.vars.palette.TableCell.border}`
    : `1px solid ${theme.palette.mode === 'light' ? t.lighten(t.alpha(theme.palette.divider, 1), 0.88) : t.darken(t.alpha(theme.palette.divider, 1), 0.68)}`;
  return {
    [`& :where(.${LIST_BODY} > tr)`]: {
      color: 'inherit',
      display: 'table-row',
      verticalAlign: 'middle',
      // (A string: in `sx` a number is a border's width, `0px solid`.)
      outline: '0',
    },
    [`& :where(.${LIST_BODY} > tr).MuiTableRow-hover:hover`]: {
      backgroundColor: (palette as Theme['palette']).action.hover,
    },
    [`& :where(.${LIST_BODY} > tr > td)`]: {
      ...theme.typography.body2,
      display: 'table-cell',
      verticalAlign: 'inherit',
      borderBottom: border,
      textAlign: 'left',
      padding: '6px 16px',
      color: (palette as Theme['palette']).text.primary,
    },
    [`& :where(.${LIST_BODY} > tr > td.MuiTableCell-alignLeft)`]: { textAlign: 'left' },
    [`& :where(.${LIST_BODY} > tr > td.MuiTableCell-alignCenter)`]: { textAlign: 'center' },
    [`& :where(.${LIST_BODY} > tr > td.MuiTableCell-alignRight)`]: { textAlign: 'right', flexDirection: 'row-reverse' },
    [`& :where(.${LIST_BODY} > tr > td.MuiTableCell-alignJustify)`]: { textAlign: 'justify' },
  };
}
