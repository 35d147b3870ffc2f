/**
 * The browser's side of Web Push, one function per step of spec §4's order (signed-in user, permission,
 * service worker registration, public key, browser subscription, saving on the server). Each failing
 * step throws a `PushFailure` with §8's title and reason; usePush.ts runs them and keeps the state.
 */
import { pushSubscriptions } from '../../../../resources/push.ts';
import { send } from '../../../client/providers/http.ts';
import { PUSH_REASONS, PUSH_TITLES, PushFailure } from '../messages.ts';

/** The only service worker (spec §2). */
export const SERVICE_WORKER_URL = '/sw.js';

const enableFailed = (reason: string) => new PushFailure(PUSH_TITLES.enableFailed, reason);

/** Whether this browser has all Web Push needs; the banner only appears where it does. */
export function pushSupported(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator && 'Notification' in window && 'PushManager' in window;
}

/** 'default' | 'granted' | 'denied', or 'default' where notifications do not exist. */
export function currentPermission(): NotificationPermission {
  return 'Notification' in window ? Notification.permission : 'default';
}

/** Each missing API has its own §8 reason. */
export function requireSupport(): void {
  if (!('serviceWorker' in navigator)) throw enableFailed(PUSH_REASONS.serviceWorkerUnsupported);
  if (!('Notification' in window)) throw enableFailed(PUSH_REASONS.notificationsUnsupported);
  if (!('PushManager' in window)) throw enableFailed(PUSH_REASONS.pushUnsupported);
}

export async function requirePermission(): Promise<void> {
  if (Notification.permission === 'denied') throw enableFailed(PUSH_REASONS.permissionDenied);
  if (Notification.permission === 'granted') return;
  let answer: NotificationPermission;
  try {
    answer = await Notification.requestPermission();
  } catch {
    throw enableFailed(PUSH_REASONS.permissionRequestFailed);
  }
  if (answer !== 'granted') throw enableFailed(PUSH_REASONS.permissionDenied);
}

/** Registers /sw.js (again: the browser keeps one registration) and waits until it is active. */
export async function registerWorker(): Promise<ServiceWorkerRegistration> {
  try {
    await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
    return await navigator.serviceWorker.ready;
  } catch {
    throw enableFailed(PUSH_REASONS.serviceWorkerFailed);
  }
}

export async function fetchPublicKey(): Promise<string> {
  try {
    const { json } = await send(pushSubscriptions.operations.vapidPublicKey.call, {});
    const key = (json as { publicKey?: unknown } | undefined)?.publicKey;
    if (typeof key === 'string' && key) return key;
  } catch {
    // The same failure as an empty answer.
  }
  throw enableFailed(PUSH_REASONS.noPublicKey);
}

/** The browser's subscription for our key (one made for another key is replaced). */
export async function subscribeBrowser(registration: ServiceWorkerRegistration, publicKey: string): Promise<PushSubscription> {
  const key = Uint8Array.from(atob(publicKey.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  try {
    const existing = await registration.pushManager.getSubscription();
    if (existing) {
      const had = existing.options?.applicationServerKey;
      if (had && sameBytes(new Uint8Array(had), key)) return existing;
      await existing.unsubscribe();
    }
    return await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  } catch (error) {
    // §8 names no reason for this step; the browser's own words say what went wrong.
    throw enableFailed(error instanceof Error && error.message ? error.message : PUSH_REASONS.pushUnsupported);
  }
}

/** POST /api/notifications/push/subscribe with subscription, userAgent, endpoint (spec §7). */
const save = (subscription: PushSubscription) =>
  send(pushSubscriptions.operations.subscribe.call, {}, {
    subscription: subscription.toJSON(),
    userAgent: navigator.userAgent,
    endpoint: subscription.endpoint,
  });

/**
 * Saves the browser's subscription again for the session now signed in (the server forgets a
 * subscription with the session it was saved in). Quiet: the toggle still shows it on.
 */
export async function resave(subscription: PushSubscription): Promise<void> {
  await save(subscription).catch(() => undefined);
}

export async function saveOnServer(subscription: PushSubscription): Promise<void> {
  try {
    await save(subscription);
  } catch {
    // The browser's subscription would only waste the push service's time: it is dropped again.
    await subscription.unsubscribe().catch(() => undefined);
    throw enableFailed(PUSH_REASONS.saveFailed);
  }
}

/** The subscription this browser holds now, if any (never throws). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  try {
    const registration = await navigator.serviceWorker.getRegistration('/');
    return (await registration?.pushManager.getSubscription()) ?? null;
  } catch {
    return null;
  }
}

/** Tells the server to forget the endpoint; answers whether it did. */
export async function removeFromServer(endpoint: string): Promise<boolean> {
  try {
    await send(pushSubscriptions.operations.unsubscribe.call, {}, { endpoint });
    return true;
  } catch {
    return false;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
