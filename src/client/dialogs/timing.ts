/**
 * How long a dialog takes to open, for the benchmark (scripts/bench): the measure
 * `dialog-open:<type>` runs from `openDialog` to the moment the dialog's first control has the
 * focus, i.e. its code is loaded, it is mounted and it can be typed into. Read it with
 * `performance.getEntriesByType('measure')`.
 */
let pending: ((event: FocusEvent) => void) | null = null;

/** Called as a dialog is asked for; a dialog asked for before the last one took focus replaces it. */
export function timeDialogOpen(type: string): void {
  if (typeof performance === 'undefined' || typeof performance.mark !== 'function') return;
  if (pending) document.removeEventListener('focusin', pending, true);
  const start = performance.mark(`dialog-open-start:${type}`).startTime;
  const onFocus = (event: FocusEvent) => {
    // The dialog's own container takes the focus first (MUI's focus trap); a control inside it is the end.
    const target = event.target as Element | null;
    if (!target?.closest?.('[role="dialog"]') || !target.matches('input, textarea, select, button, [contenteditable="true"]')) return;
    document.removeEventListener('focusin', onFocus, true);
    pending = null;
    performance.measure(`dialog-open:${type}`, { start });
  };
  pending = onFocus;
  document.addEventListener('focusin', onFocus, true);
}
