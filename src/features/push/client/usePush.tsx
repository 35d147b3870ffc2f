/**
 * Spec §4 "Push state": supported, permission, subscribed, subscribing / unsubscribing in progress, and
 * the last error, held once for the app (PushProvider) and read by the toggle and the banner. The
 * toggle subscribes when unsubscribed and unsubscribes when subscribed.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { PUSH_REASONS, PUSH_TEXTS, PUSH_TITLES, PushFailure } from '../messages.ts';
import {
  currentPermission,
  currentSubscription,
  fetchPublicKey,
  pushSupported,
  registerWorker,
  removeFromServer,
  requirePermission,
  requireSupport,
  resave,
  saveOnServer,
  SERVICE_WORKER_URL,
  subscribeBrowser,
} from './steps.ts';

export interface PushState {
  supported: boolean;
  permission: NotificationPermission;
  subscribed: boolean;
  subscribing: boolean;
  unsubscribing: boolean;
  /** The reason of the last failure, until the next attempt. */
  error: string | null;
}

/** How an attempt ended: a failure to toast, or done (a warning when the server could not forget). */
export type PushOutcome = { ok: true; warning?: string } | { ok: false; failure: PushFailure };

export interface PushApi extends PushState {
  subscribe(): Promise<PushOutcome>;
  unsubscribe(): Promise<PushOutcome>;
  toggle(): Promise<PushOutcome>;
}

const PushContext = createContext<PushApi | null>(null);

const failureOf = (error: unknown) =>
  error instanceof PushFailure ? error : new PushFailure(PUSH_TITLES.enableFailed, error instanceof Error ? error.message : String(error));

/** `signedIn`: whether a user is signed in (the first step of subscribing). */
export function PushProvider({ signedIn, children }: { signedIn: boolean; children: ReactNode }) {
  const [state, setState] = useState<PushState>(() => ({
    supported: pushSupported(),
    permission: currentPermission(),
    subscribed: false,
    subscribing: false,
    unsubscribing: false,
    error: null,
  }));
  const patch = useCallback((p: Partial<PushState>) => setState((s) => ({ ...s, ...p })), []);

  useEffect(() => {
    // Registered at every load, so a changed sw.js takes over; a failure here is reported by the toggle.
    if (pushSupported()) navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).catch(() => undefined);
  }, []);
  useEffect(() => {
    if (!pushSupported()) return;
    let live = true;
    void currentSubscription().then((s) => {
      if (!live) return;
      patch({ subscribed: !!s });
      // Bound to this session on the server (a subscription goes with the session it was saved in).
      if (s && signedIn && Notification.permission === 'granted') void resave(s);
    });
    return () => {
      live = false;
    };
  }, [patch, signedIn]);

  const subscribe = useCallback(async (): Promise<PushOutcome> => {
    patch({ subscribing: true, error: null });
    try {
      if (!signedIn) throw new PushFailure(PUSH_TITLES.authRequired, PUSH_REASONS.logIn);
      requireSupport();
      try {
        await requirePermission();
      } finally {
        patch({ permission: currentPermission() });
      }
      const registration = await registerWorker();
      const publicKey = await fetchPublicKey();
      const subscription = await subscribeBrowser(registration, publicKey);
      await saveOnServer(subscription);
      patch({ subscribed: true, subscribing: false });
      return { ok: true };
    } catch (error) {
      const failure = failureOf(error);
      patch({ subscribing: false, error: failure.reason });
      return { ok: false, failure };
    }
  }, [patch, signedIn]);

  const unsubscribe = useCallback(async (): Promise<PushOutcome> => {
    patch({ unsubscribing: true, error: null });
    try {
      const subscription = await currentSubscription();
      let warning: string | undefined;
      if (subscription) {
        // Spec §8: the browser's subscription goes even when the server cannot forget it (a warning).
        if (!(await removeFromServer(subscription.endpoint))) warning = PUSH_TEXTS.serverRemovalFailed;
        if (!(await subscription.unsubscribe())) throw new Error('unsubscribe answered false');
      }
      patch({ subscribed: false, unsubscribing: false });
      return { ok: true, warning };
    } catch {
      const failure = new PushFailure(PUSH_TITLES.disableFailed, '');
      patch({ unsubscribing: false, error: failure.title });
      return { ok: false, failure };
    }
  }, [patch]);

  const api = useMemo<PushApi>(
    () => ({ ...state, subscribe, unsubscribe, toggle: () => (state.subscribed ? unsubscribe() : subscribe()) }),
    [state, subscribe, unsubscribe],
  );
  return <PushContext.Provider value={api}>{children}</PushContext.Provider>;
}

/** The push state and its actions; must be used under <PushProvider>. */
export function usePush(): PushApi {
  const api = useContext(PushContext);
  if (!api) throw new Error('usePush must be used under <PushProvider>');
  return api;
}
