/**
 * Toasts: a title and a description (spec §7/§8 pair them: 'Success!' + message, failure title +
 * server answer). One at a time (spec §9): a new toast replaces the shown one.
 */
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { Alert, AlertTitle, Portal, Snackbar } from '@mui/material';

export type ToastSeverity = 'success' | 'info' | 'warning' | 'error';

export interface Toast {
  title: string;
  description?: string;
  severity?: ToastSeverity;
}

type ShowToast = (toast: Toast) => void;

const ToastContext = createContext<ShowToast | null>(null);

/** Spec §9: the toast area is at most 420 px wide. */
export const TOAST_MAX_WIDTH = 420;
/** Failures carry the server's answer; they stay long enough to be read. */
const AUTO_HIDE_MS: Record<ToastSeverity, number> = { success: 5_000, info: 5_000, warning: 8_000, error: 10_000 };

export function ToastProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<(Toast & { key: number }) | null>(null);
  const [open, setOpen] = useState(false);
  const show = useCallback<ShowToast>((toast) => {
    setCurrent((prev) => ({ ...toast, key: (prev?.key ?? 0) + 1 }));
    setOpen(true);
  }, []);
  const close = useCallback((_: unknown, reason?: string) => {
    // A click elsewhere (often in the dialog that caused the toast) must not hide it unread.
    if (reason !== 'clickaway') setOpen(false);
  }, []);
  const severity = current?.severity ?? 'info';

  return (
    <ToastContext.Provider value={show}>
      {children}
      {/* A portal mounted after an open dialog stays outside the part of the page the dialog hides
          from assistive technology, so a failure toast over an open form is still announced. */}
      {current && (
        <Portal key={current.key}>
          <Snackbar
            open={open}
            onClose={close}
            autoHideDuration={AUTO_HIDE_MS[severity]}
            anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
            sx={{ maxWidth: TOAST_MAX_WIDTH }}
          >
            <Alert
              severity={severity}
              variant="filled"
              role={severity === 'error' || severity === 'warning' ? 'alert' : 'status'}
              onClose={close}
              sx={{ width: '100%', maxWidth: TOAST_MAX_WIDTH, whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}
            >
              <AlertTitle>{current.title}</AlertTitle>
              {current.description}
            </Alert>
          </Snackbar>
        </Portal>
      )}
    </ToastContext.Provider>
  );
}

/** The function that shows a toast. Must be used under <ToastProvider>. */
export function useToast(): ShowToast {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast must be used under <ToastProvider>');
  return show;
}
