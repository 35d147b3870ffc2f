/**
 * Row selection for bulk actions. react-admin's own row checkbox puts its `aria-label` on the MUI
 * wrapper `<span>`, not on the `<input>`, so a screen reader meets an unnamed checkbox on every row
 * (an axe violation). Here the selection is a column of its own, whose checkbox names the record it
 * selects ("Select Garden") on the input itself, and the header's select-all names what it selects.
 * The list's selection state is react-admin's (`selectedIds`), so its bulk actions toolbar works as usual.
 */
import type { ChangeEvent, MouseEvent } from 'react';
import { Checkbox } from '@mui/material';
import { useListContext, useRecordContext, useRecordSelection, useResourceContext, type Identifier } from 'react-admin';

const stop = (e: MouseEvent) => e.stopPropagation();

/** A record's name in a label: its title, else its id. */
export const recordName = (record: Record<string, unknown>, titleSource: string) => {
  const title = record[titleSource];
  return title === undefined || title === null || title === '' ? `record ${String(record.id)}` : String(title);
};

interface SelectRowProps {
  /** Read by the header (which shows the select-all box instead of a title). */
  label: string;
  sortable: false;
  /** The field that names a record (the resource's `title`). */
  titleSource: string;
}

/** The select column: a checkbox per row, labelled with the record's name. */
/**
 * A row's box reads the selection from where the list keeps it (react-admin's store, under the list's
 * resource), not from the list's context: that context changes with everything about the list (a search
 * typed, a page asked for), and every row's box was drawn again with it (issue 51.10).
 */
export function SelectRowField({ titleSource }: SelectRowProps) {
  const record = useRecordContext();
  const resource = useResourceContext();
  const [selectedIds, { toggle }] = useRecordSelection({ resource: resource ?? '' });
  if (!record) return null;
  return (
    <Checkbox
      size="small"
      checked={selectedIds.includes(record.id)}
      onChange={() => toggle(record.id)}
      // The row itself opens the record's dialog on a click; ticking the box must not.
      onClick={stop}
      slotProps={{ input: { 'aria-label': `Select ${recordName(record, titleSource)}` } }}
      sx={{ my: -0.5 }}
    />
  );
}

/** The select column's header: selects (or clears) every row of the page shown. */
export function SelectAllCheckbox() {
  const { data = [], selectedIds = [], onSelect } = useListContext();
  const pageIds: Identifier[] = data.map((r) => r.id);
  const chosen = pageIds.filter((id) => selectedIds.includes(id)).length;
  const all = pageIds.length > 0 && chosen === pageIds.length;
  const onChange = (e: ChangeEvent<HTMLInputElement>) =>
    onSelect(
      e.target.checked
        ? [...selectedIds, ...pageIds.filter((id) => !selectedIds.includes(id))]
        : selectedIds.filter((id) => !pageIds.includes(id)),
    );
  return (
    <Checkbox
      size="small"
      checked={all}
      indeterminate={chosen > 0 && !all}
      onChange={onChange}
      onClick={stop}
      slotProps={{ input: { 'aria-label': 'Select every row of this page' } }}
      sx={{ my: -0.5 }}
    />
  );
}
