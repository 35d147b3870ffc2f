/**
 * The list's header row: react-admin's DatagridHeader, with each sortable column's state exposed to
 * assistive technology (`aria-sort` on the header cell, which react-admin leaves out: a screen reader
 * could not tell which column a list is sorted by). The header cells themselves are react-admin's;
 * the select column (selection.tsx) gets its select-all box instead of a title. Each cell names its
 * column (`data-column`, the column's key) for the table's fitting (fit-columns.ts).
 */
import { Children, isValidElement, useCallback, type MouseEvent, type ReactNode } from 'react';
import { TableCell, TableHead, TableRow } from '@mui/material';
import { DatagridClasses, DatagridHeaderCell, useListContext, type SortPayload } from 'react-admin';
import { SelectAllCheckbox, SelectRowField } from './selection.tsx';

const ariaSort = (sort: SortPayload | undefined, source: string | undefined) =>
  sort && source && sort.field === source ? (sort.order === 'ASC' ? 'ascending' : 'descending') : undefined;

export function SortedHeader({ children, className }: { children?: ReactNode; className?: string }) {
  const { sort, setSort } = useListContext();
  const updateSort = useCallback(
    (event: MouseEvent<HTMLElement>) => {
      event.stopPropagation();
      const field = event.currentTarget.dataset.field!;
      const order = sort?.field === field ? (sort.order === 'ASC' ? 'DESC' : 'ASC') : (event.currentTarget.dataset.order as 'ASC' | 'DESC');
      setSort({ field, order });
    },
    [sort?.field, sort?.order, setSort],
  );
  return (
    <TableHead className={[className, DatagridClasses.thead].filter(Boolean).join(' ')}>
      <TableRow className={`${DatagridClasses.row} ${DatagridClasses.headerRow}`}>
        {Children.map(children, (field, index) => {
          if (!isValidElement<{ source?: string; sortBy?: string }>(field)) return null;
          const column = String(field.key ?? field.props.source ?? index);
          if (field.type === SelectRowField)
            return (
              <TableCell key="select" className={DatagridClasses.headerCell}>
                <SelectAllCheckbox />
              </TableCell>
            );
          const source = field.props.sortBy ?? field.props.source;
          return (
            <DatagridHeaderCell
              key={field.props.source ?? index}
              className={`${DatagridClasses.headerCell} column-${field.props.source}`}
              sort={sort}
              field={field}
              isSorting={sort?.field === source}
              updateSort={updateSort}
              aria-sort={ariaSort(sort, source)}
              data-column={column}
            />
          );
        })}
      </TableRow>
    </TableHead>
  );
}
