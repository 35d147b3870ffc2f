/**
 * Every dialog has an address (`#/categories?dialog=updateCategory&id=…`), so a link to it can be
 * shared: opening a dialog writes its type and record id into the URL, closing it takes them out, and
 * arriving at such a URL opens the dialog, with the record read through the data provider.
 */
import { useCallback, useEffect, useRef } from 'react';
import { mayCall } from '../generate/access.ts';
// react-admin's own router hooks (router-agnostic), not react-router's: one router context, one copy.
import { useDataProvider, useLocation, useNavigate, usePermissions } from 'react-admin';
import type { Registry } from '../../manifest/index.ts';
import type { Toast } from '../shell/toast.tsx';
import type { DialogData, OpenDialog } from './context.ts';
import { addressedResource, rowDialogData } from '../generate/list-dialogs.ts';
import { DIALOG_PARAM, ID_PARAM, withDialog } from './address.ts';

const keyOf = (type: string, id: unknown) => `${type} ${id ?? ''}`;

interface Options {
  registry: Registry;
  /** Opens a dialog in the host, without touching the URL; false when it did not open. */
  show: (type: string, data?: DialogData) => boolean;
  toast: (t: Toast) => void;
}

/**
 * Keeps the URL and the open dialog in step. Answers the `openDialog` and `onClosed` the host hands
 * out: both write the URL; a URL that names a dialog not yet open opens it.
 */
export function useDialogAddress({ registry, show, toast }: Options) {
  const location = useLocation();
  const navigate = useNavigate();
  const dataProvider = useDataProvider();
  const { permissions, isPending } = usePermissions();
  // The dialog the URL names and the host shows: a URL change that names it again is not a new request.
  const current = useRef<string | null>(null);

  // The search as this hook last left it: a dialog closed right after it opened (Escape before the
  // next render) must build on the opening's address, not on the one this render saw, or the stale
  // opening would land last and the dialog would come back.
  const search = useRef(location.search);
  // The addresses this hook navigated from and to, oldest first, until the router shows the newest: a render
  // that still shows an older one of them is stale (the newer navigation is on its way) and must not
  // become the intent again, or the effect below would reopen a dialog the user has just closed.
  const ours = useRef<string[]>([]);
  const at = ours.current.indexOf(location.search);
  if (at < 0 || at === ours.current.length - 1) {
    search.current = location.search;
    ours.current = [];
  }
  const setAddress = useCallback(
    (type?: string, id?: unknown) => {
      const before = search.current;
      const after = withDialog(before, type, id);
      search.current = after;
      if (after !== before) {
        // The address left behind is stale too until the router shows the new one.
        if (!ours.current.length) ours.current.push(before);
        ours.current.push(after);
        navigate({ pathname: location.pathname, search: after }, { replace: true });
      }
    },
    [location.pathname, navigate],
  );

  const openDialog = useCallback<OpenDialog>(
    (type: string, data?: DialogData) => {
      current.current = keyOf(type, data?.id);
      if (show(type, data)) setAddress(type, data?.id);
    },
    [show, setAddress],
  );

  const onClosed = useCallback(() => {
    current.current = null;
    setAddress(undefined);
  }, [setAddress]);

  useEffect(() => {
    // An address this hook has already moved on from (the dialog closed before this render's effect ran).
    if (location.search !== search.current) return;
    const params = new URLSearchParams(location.search);
    const type = params.get(DIALOG_PARAM);
    if (!type) {
      current.current = null;
      return;
    }
    const id = params.get(ID_PARAM) ?? undefined;
    if (current.current === keyOf(type, id) || isPending) return;
    current.current = keyOf(type, id);
    const found = registry.dialog(type);
    if (!found) {
      show(type); // the host says the type is unknown
      return;
    }
    if (!mayCall(permissions, found.resource, { dialog: found.dialog })) {
      toast({ title: 'Access denied', description: 'Your role may not open this dialog.', severity: 'warning' });
      setAddress(undefined);
      return;
    }
    if (found.dialog.kind === 'create' || id === undefined) {
      show(type);
      return;
    }
    // A dialog the list's rows borrow (`list.rowDialogs`: replacing an agent) names one of the list's records.
    const source = addressedResource(registry, location.pathname.split('/')[1], type) ?? found.resource;
    let cancelled = false;
    dataProvider
      .getOne(source.name, { id })
      .then(({ data }) => {
        if (!cancelled) show(type, rowDialogData(found, source.name, data));
      })
      .catch(() => {
        if (cancelled) return;
        toast({ title: `${source.label} not found`, description: `No ${source.label.toLowerCase()} has the id ${id}.`, severity: 'warning' });
        current.current = null;
        setAddress(undefined);
      });
    return () => {
      cancelled = true;
    };
  }, [location.search, location.pathname, isPending, permissions, registry, show, toast, dataProvider, setAddress]);

  return { openDialog, onClosed };
}
