/**
 * Hosts every dialog the registry declares: `openDialog(type, data)` looks the type up and shows
 * it in one MUI <Dialog>. The host comes with the layout, after sign-in; form dialogs load RJSF
 * when the first one opens. Delete and details bodies are small and reuse the list's code, so they
 * come with the host: making them lazy would add a round trip to opening them and save nothing.
 */
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { CircularProgress, Dialog, DialogContent, DialogTitle } from '@mui/material';
import { useRefresh } from 'react-admin';
import type { Registry } from '../../manifest/index.ts';
import { registry as defaultRegistry } from '../../../resources/index.ts';
import { useToast } from '../shell/toast.tsx';
import { DialogContext, registerDialogHost, type DialogApi, type DialogData } from './context.ts';
import { dialogTitle } from './titles.ts';
import { RemoveDialogBody } from './RemoveDialog.tsx';
import { DetailsDialogBody } from './DetailsDialog.tsx';
import { timeDialogOpen } from './timing.ts';

const FormDialogBody = lazy(() => import('./FormDialog.tsx'));

interface Shown {
  type: string;
  data?: DialogData;
  open: boolean;
  /** Remounts the dialog when another opens over it, so no state leaks from one to the next. */
  seq: number;
}

export function DialogHost({ children, registry = defaultRegistry }: { children?: ReactNode; registry?: Registry }) {
  const [shown, setShown] = useState<Shown | null>(null);
  const toast = useToast();
  const refresh = useRefresh();
  const titleId = useId();

  const openDialog = useCallback(
    (type: string, data?: DialogData) => {
      const found = registry.dialog(type);
      if (!found) {
        console.error(`openDialog: no dialog of type '${type}' is declared`);
        toast({ title: `Unknown dialog '${type}'`, severity: 'warning' });
        return;
      }
      // Spec §7: a delete without a target says so, then closes and refreshes; there is nothing to confirm.
      if (found.dialog.kind === 'remove' && (data?.id === undefined || data.id === null || data.id === '')) {
        toast({ title: found.dialog.missing, severity: 'warning' });
        setShown((s) => (s ? { ...s, open: false } : s));
        refresh();
        return;
      }
      timeDialogOpen(type);
      setShown((s) => ({ type, data, open: true, seq: (s?.seq ?? 0) + 1 }));
    },
    [registry, toast, refresh],
  );
  const closeDialog = useCallback(() => setShown((s) => (s ? { ...s, open: false } : s)), []);
  const api = useMemo<DialogApi>(() => ({ openDialog, closeDialog }), [openDialog, closeDialog]);

  useEffect(() => registerDialogHost(api), [api]);

  const found = shown ? registry.dialog(shown.type) : undefined;
  let body: ReactNode = null;
  if (shown && found) {
    const props = { resource: found.resource, data: shown.data, onClose: closeDialog };
    const { dialog } = found;
    if (dialog.kind === 'remove') body = <RemoveDialogBody {...props} dialog={dialog} />;
    else if (dialog.kind === 'details') body = <DetailsDialogBody {...props} dialog={dialog} />;
    else body = <FormDialogBody {...props} dialog={dialog} />;
  }

  return (
    <DialogContext.Provider value={api}>
      {children}
      {shown && found && (
        <Dialog
          key={shown.seq}
          open={shown.open}
          onClose={(_, reason) => {
            // A stray click beside a form must not throw away what was typed; Escape still closes.
            if (reason === 'backdropClick' && 'pick' in found.dialog) return;
            closeDialog();
          }}
          aria-labelledby={titleId}
          fullWidth
          maxWidth="sm"
          slotProps={{ transition: { onExited: () => setShown((s) => (s && !s.open ? null : s)) } }}
        >
          <DialogTitle id={titleId}>{dialogTitle(shown.type, found.resource, found.dialog)}</DialogTitle>
          <Suspense
            fallback={
              <DialogContent sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
                <CircularProgress aria-label="Loading form" />
              </DialogContent>
            }
          >
            {body}
          </Suspense>
        </Dialog>
      )}
    </DialogContext.Provider>
  );
}
