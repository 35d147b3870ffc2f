/**
 * Clicking a row opens its record: the row's Edit dialog (list-dialogs.ts), else its details. A click on
 * anything interactive inside the row (a row action, the select box, a switch, a link, the reorder
 * buttons) is that control's own, and a click that ends a text selection is for copying: neither
 * opens the dialog. react-admin's `rowClick` is not given the event, so the click is looked at on its
 * way down (`onClickCapture` on the list's wrapper), before the row's own handler runs.
 */
import { useCallback, useRef, type MouseEvent } from 'react';
import type { RaRecord } from 'react-admin';
import { useOpenDialog } from '../dialogs/context.ts';
import { rowDialogData, type Offered } from './list-dialogs.ts';

/** What a click may land on that is not the row's. */
const INTERACTIVE =
  'button, a, input, select, textarea, label, [role="button"], [role="switch"], [role="checkbox"], [role="link"], [role="menuitem"], [role="menu"]';

/** `open`: what a click opens; `resource`: the list's resource (see `rowDialogData`). */
export function useRowClick(open: Offered | undefined, resource: string) {
  const openDialog = useOpenDialog();
  const skip = useRef(false);

  const onClickCapture = useCallback((e: MouseEvent) => {
    const target = e.target instanceof Element ? e.target : null;
    skip.current = !!target?.closest(INTERACTIVE) || !!window.getSelection()?.toString();
  }, []);

  /** Opens the record's dialog from its data; answers false so react-admin navigates nowhere. */
  const openRecord = useCallback(
    (record: RaRecord) => {
      if (open) openDialog(open.type, rowDialogData(open, resource, record));
    },
    [open, openDialog, resource],
  );

  const rowClick = useCallback(
    (_id: unknown, _resource: string, record: RaRecord) => {
      const skipped = skip.current;
      skip.current = false;
      if (!skipped) openRecord(record);
      return false as const;
    },
    [openRecord],
  );

  return { rowClick: open ? rowClick : (false as const), onClickCapture, openRecord: open ? openRecord : undefined };
}
