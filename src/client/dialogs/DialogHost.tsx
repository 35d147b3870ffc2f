/**
 * Hosts every dialog the registry declares: `openDialog(type, data)` looks the type up and shows
 * it in one MUI <Dialog>. The host comes with the layout, after sign-in; form dialogs load RJSF
 * when the first one opens. Delete and details bodies are small and reuse the list's code, so they
 * come with the host: making them lazy would add a round trip to opening them and save nothing.
 */
import { lazy, startTransition, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { Dialog, DialogTitle, useMediaQuery, type Theme } from '@mui/material';
import { useRefresh } from 'react-admin';
import type { ActionDialog, CreateDialog, Registry, UpdateDialog } from '../../manifest/index.ts';
import { useRegistry } from '../registry/context.tsx';
import { useToast } from '../shell/toast.tsx';
import { DialogContext, registerDialogHost, type DialogApi, type DialogBodyProps, type DialogData } from './context.ts';
import { dialogTitle } from './titles.ts';
import { RemoveDialogBody } from './RemoveDialog.tsx';
import { DetailsDialogBody } from './DetailsDialog.tsx';
import { timeDialogOpen } from './timing.ts';
import { useDialogAddress } from './deep-link.ts';
import { DiscardConfirm } from './discard.tsx';
import { CustomDialogBody } from './custom.tsx';
import { DialogLoading } from './DialogLoading.tsx';

/**
 * The form dialogs' code (RJSF with it), fetched once: by the first form dialog opened or, sooner, when
 * the browser is idle after sign-in (below), so the first dialog opens without waiting for it. A failed
 * fetch (offline) is forgotten, so the next attempt fetches again.
 */
let formDialogCode: ReturnType<typeof fetchFormDialog> | undefined;
const fetchFormDialog = () => import('./FormDialog.tsx');
/** The form code once it is here: a dialog opened after that renders it without suspending. */
let loadedFormCode: Awaited<ReturnType<typeof fetchFormDialog>> | undefined;
const loadFormDialog = () =>
  (formDialogCode ??= fetchFormDialog().then(
    (code) => (loadedFormCode = code),
    (error: unknown) => {
      formDialogCode = undefined;
      throw error;
    },
  ));
const FormDialogBody = lazy(loadFormDialog);

/**
 * The longest the form code and the warm-up wait for the browser to be idle before they run anyway.
 * A busy page (a list loading, a slow machine) may give no idle moment for seconds: with 5 s here the
 * bench's first dialog, opened ~0.5 s after the list's last request, waited for the code on a loaded
 * machine (544.6 ms in one bench, 435–448 ms in 2 runs of 4 alone); with 1 s, 55–82 ms in 4 of 4.
 */
const IDLE_DEADLINE_MS = 1000;
/**
 * How long after the layout mounts the form code starts to load: right after sign-in the person is on
 * the way to a list, and the code's evaluation and the warm-up's drawing stood between the click on
 * the menu and the list's rows (issue 51.10). Dialogs opened sooner load it themselves.
 */
const WARM_AFTER_MS = 1200;

/** Runs `task` when the browser has nothing else to do, or at the deadline (a timer where requestIdleCallback is missing); answers a cancel. */
function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(task, { timeout: IDLE_DEADLINE_MS });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(task, IDLE_DEADLINE_MS);
  return () => clearTimeout(id);
}

interface Shown {
  type: string;
  data?: DialogData;
  open: boolean;
  /** Remounts the dialog when another opens over it, so no state leaks from one to the next. */
  seq: number;
  /**
   * The form body, chosen as the dialog opens: the loaded code, or the lazy one while it loads. Never
   * swapped while the dialog is open (a different component would remount it and lose what was typed).
   */
  Form: ComponentType<DialogBodyProps<CreateDialog | UpdateDialog | ActionDialog>>;
}

export function DialogHost({ children }: { children?: ReactNode }) {
  const registry = useRegistry();
  const [shown, setShown] = useState<Shown | null>(null);
  const toast = useToast();
  const refresh = useRefresh();
  const titleId = useId();
  // On a phone a dialog takes the whole screen: a centred box with margins leaves its form too narrow.
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  // Whether the open form holds unsaved changes (its body reports them), and whether we ask about them.
  const dirty = useRef(false);
  const [confirming, setConfirming] = useState(false);
  // The out-of-sight form that warms the first dialog (warm-up.tsx): waits for the code, then renders once.
  const [warmUp, setWarmUp] = useState<'waiting' | 'now' | 'done'>('waiting');

  /** Shows a dialog; false when it did not open (unknown type, a delete without its target). */
  const show = useCallback(
    (type: string, data?: DialogData) => {
      const found = registry.dialog(type);
      if (!found) {
        console.error(`openDialog: no dialog of type '${type}' is declared`);
        toast({ title: `Unknown dialog '${type}'`, severity: 'warning' });
        return false;
      }
      // Spec §7: a delete without a target says so, then closes and refreshes; there is nothing to confirm.
      if (found.dialog.kind === 'remove' && (data?.id === undefined || data.id === null || data.id === '')) {
        toast({ title: found.dialog.missing, severity: 'warning' });
        setShown((s) => (s ? { ...s, open: false } : s));
        refresh();
        return false;
      }
      timeDialogOpen(type);
      setWarmUp('done'); // a real dialog warms what the warm-up would
      dirty.current = false;
      setConfirming(false);
      setShown((s) => ({ type, data, open: true, seq: (s?.seq ?? 0) + 1, Form: loadedFormCode?.default ?? FormDialogBody }));
      return true;
    },
    [registry, toast, refresh],
  );
  // The open dialog is in the URL, so its address can be shared (deep-link.ts).
  const { openDialog, onClosed } = useDialogAddress({ registry, show, toast });
  const closeDialog = useCallback(() => {
    dirty.current = false;
    setConfirming(false);
    setShown((s) => (s ? { ...s, open: false } : s));
    onClosed();
  }, [onClosed]);
  /** The user asks to close (Escape, Cancel, a click beside it): unsaved changes are asked about first. */
  const requestClose = useCallback(() => {
    if (dirty.current) setConfirming(true);
    else closeDialog();
  }, [closeDialog]);
  const onDirty = useCallback((d: boolean) => void (dirty.current = d), []);
  const api = useMemo<DialogApi>(() => ({ openDialog, closeDialog }), [openDialog, closeDialog]);

  useEffect(() => registerDialogHost(api), [api]);
  // The host mounts with the layout, after sign-in: the sign-in page never loads the form code. Once it
  // is here, forms render it directly (no suspending on a first open), and at an idle moment after
  // WARM_AFTER_MS a form is rendered once out of sight, so the first real one opens as fast as the later
  // ones (warm-up.tsx).
  useEffect(() => {
    let cancelWarmUp = () => {};
    let cancelLoad = () => {};
    const load = () =>
      void loadFormDialog().then(
        () => {
          // A transition: React renders it in slices and drops it for a click, so a user who opens a
          // dialog meanwhile is not kept waiting for the warm-up.
          cancelWarmUp = whenIdle(() => startTransition(() => setWarmUp((w) => (w === 'waiting' ? 'now' : w))));
        },
        () => {},
      );
    const later = setTimeout(() => (cancelLoad = whenIdle(load)), WARM_AFTER_MS);
    return () => {
      clearTimeout(later);
      cancelLoad();
      cancelWarmUp();
    };
  }, []);
  const warmedUp = useCallback(() => setWarmUp('done'), []);

  const found = shown ? registry.dialog(shown.type) : undefined;
  let body: ReactNode = null;
  if (shown && found) {
    const props = { resource: found.resource, data: shown.data, onClose: closeDialog, onCancel: requestClose, onDirty };
    const { dialog } = found;
    // A dialog drawn by a hand-written component (`component`, custom.tsx); its kind still rules the call.
    if (dialog.component) body = <CustomDialogBody {...props} dialog={dialog} component={dialog.component} />;
    else if (dialog.kind === 'remove') body = <RemoveDialogBody {...props} dialog={dialog} />;
    else if (dialog.kind === 'details') body = <DetailsDialogBody {...props} dialog={dialog} />;
    else body = <shown.Form {...props} dialog={dialog} />;
  }

  return (
    <DialogContext.Provider value={api}>
      {children}
      {shown && found && (
        <Dialog
          key={shown.seq}
          open={shown.open}
          // A stray click or Escape must not throw away what was typed: a form with changes asks first.
          onClose={requestClose}
          aria-labelledby={titleId}
          fullWidth
          fullScreen={phone}
          maxWidth="sm"
          slotProps={{ transition: { onExited: () => setShown((s) => (s && !s.open ? null : s)) } }}
        >
          <DialogTitle id={titleId}>{dialogTitle(shown.type, found.resource, found.dialog)}</DialogTitle>
          <Suspense
            fallback={<DialogLoading label="Loading form" />}
          >
            {body}
          </Suspense>
        </Dialog>
      )}
      {loadedFormCode && warmUp === 'now' && <loadedFormCode.FormWarmUp onDone={warmedUp} />}
      <DiscardConfirm open={confirming} onKeep={() => setConfirming(false)} onDiscard={closeDialog} />
    </DialogContext.Provider>
  );
}
