/**
 * Long text in a list's cells: cut to one line with an ellipsis, so one long name does not widen the
 * table. The full text shows in a tooltip on hover (the cell's `title`, set only when it is cut) and
 * in place when the row holds the focus. Only inside a list's table: a details dialog shows it whole.
 */
import type { PointerEvent } from 'react';

/** The class of a text display that a list cell may cut (displays in columns.tsx and reference-link.tsx). */
export const CELL_TEXT = 'cell-text';

/** The list table's styles for its cut text (to spread into its `sx`). */
export const cellTextSx = {
  [`& td .${CELL_TEXT}`]: {
    display: 'inline-block',
    maxWidth: '16em',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    verticalAlign: 'bottom',
  },
  [`& tr:focus-within td .${CELL_TEXT}`]: { whiteSpace: 'normal', overflowWrap: 'anywhere' },
};

/** On the table's box: the text under the pointer gets its full text as a tooltip when it is cut. */
export function showCutText(e: PointerEvent) {
  const el = e.target instanceof Element ? e.target.closest(`.${CELL_TEXT}`) : null;
  if (!(el instanceof HTMLElement)) return;
  if (el.scrollWidth > el.clientWidth) el.title = el.textContent ?? '';
  else el.removeAttribute('title');
}
