/**
 * A dialog's address: its type and record id in the URL's search (`#/categories?dialog=updateCategory&id=…`).
 * Small and free of the registry, so the router (address-router.ts) can use it in the first chunk.
 */

/** The query parameters a dialog's address uses. */
export const DIALOG_PARAM = 'dialog';
export const ID_PARAM = 'id';

/** The name of one `name=value` part of a search, decoded. */
const nameOf = (part: string) => new URLSearchParams(part).keys().next().value;

/**
 * The search string with the dialog's parameters set (or, for `undefined`, removed). The other
 * parameters keep their text as it was: a list's filter stays `%20`-encoded as react-admin wrote it.
 */
export function withDialog(search: string, type?: string, id?: unknown): string {
  const parts = search
    .replace(/^\?/, '')
    .split('&')
    .filter((part) => part && nameOf(part) !== DIALOG_PARAM && nameOf(part) !== ID_PARAM);
  if (type) {
    const address = new URLSearchParams({ [DIALOG_PARAM]: type });
    if (id !== undefined && id !== null && id !== '') address.set(ID_PARAM, String(id));
    parts.push(address.toString());
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/**
 * `search` with the dialog address `now` holds in place of whatever dialog address it carried; `search`
 * itself when the two already agree.
 */
export function keepDialogAddress(search: string, now: string): string {
  const held = new URLSearchParams(now);
  const asked = new URLSearchParams(search);
  const type = held.get(DIALOG_PARAM) ?? undefined;
  const id = type ? (held.get(ID_PARAM) ?? undefined) : undefined;
  if ((asked.get(DIALOG_PARAM) ?? undefined) === type && (asked.get(ID_PARAM) ?? undefined) === id) return search;
  return withDialog(search, type, id);
}

/** Whether a search holds any parameter besides a dialog's address (a list's filter, sort, page…). */
export function hasListParams(search: string): boolean {
  for (const name of new URLSearchParams(search).keys()) if (name !== DIALOG_PARAM && name !== ID_PARAM) return true;
  return false;
}
