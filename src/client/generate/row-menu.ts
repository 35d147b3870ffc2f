/**
 * Which record's "More actions" menu is open, kept outside the rows. A list's rows are keyed by their
 * place (list-body.tsx): a search or a refresh that moves a record to another place gives its row to
 * another record. A menu held in the row's own state would then stay on the place (now another record's)
 * or close; held here, by the record's key, it is drawn by whichever row shows that record now, and
 * closes when no row does (the record left the page), so it never comes back open by itself.
 *
 * One store for the app: a menu is modal, so one is open at a time.
 */
import { useLayoutEffect, useSyncExternalStore } from 'react';

let open: string | null = null;
const listeners = new Set<() => void>();
/** How many drawn rows show each record's menu button (a key's count is 0 or 1 but in a commit's middle). */
const shown = new Map<string, number>();

function set(key: string | null) {
  if (open === key) return;
  open = key;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The key of a record's menu: its list's resource and its id. */
export const rowMenuKey = (resource: string, id: unknown) => `${resource}\u0000${String(id)}`;

/**
 * Whether the record's menu is open, and what opens and closes it. The row counts itself as showing the
 * record while it does; when the last row showing the open menu's record stops (after the commit, when
 * another row may have taken the record up), the menu is closed.
 */
export function useRowMenu(key: string) {
  const isOpen = useSyncExternalStore(subscribe, () => open === key);
  useLayoutEffect(() => {
    shown.set(key, (shown.get(key) ?? 0) + 1);
    return () => {
      const left = (shown.get(key) ?? 1) - 1;
      if (left > 0) shown.set(key, left);
      else shown.delete(key);
      // Another row of the same commit takes it up in its own layout effect, which runs after this one.
      if (open === key && left === 0) queueMicrotask(() => !shown.has(key) && open === key && set(null));
    };
  }, [key]);
  return { isOpen, open: () => set(key), close: () => open === key && set(null) };
}
