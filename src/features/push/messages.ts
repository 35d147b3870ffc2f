/**
 * Spec §8 "Push (destructive toasts)": every text the push toggle and banner show, declared once. The
 * hook (client/usePush.ts) throws `PushFailure`s carrying a title and one of these reasons; the toggle
 * shows them as they are.
 */
export const PUSH_TITLES = {
  authRequired: 'Authentication Required',
  enableFailed: 'Failed to Enable Push Notifications',
  disableFailed: 'Failed to Disable Push Notifications',
} as const;

export const PUSH_REASONS = {
  logIn: 'Please log in to enable push notifications.',
  permissionDenied: 'Notification permission denied',
  serviceWorkerFailed: 'Failed to register service worker',
  noPublicKey: 'VAPID public key not available',
  saveFailed: 'Failed to save subscription on server',
  serviceWorkerUnsupported: 'Service Worker not supported',
  notificationsUnsupported: 'Notifications not supported',
  pushUnsupported: 'Push notifications not supported',
  permissionRequestFailed: 'Failed to request notification permission',
} as const;

/** Our own words around the spec's (the banner, the toggle, the warning of §8's last line). */
export const PUSH_TEXTS = {
  bannerTitle: 'Get notified',
  bannerText: 'Turn on push notifications to hear about new notifications even when this tab is closed.',
  enable: 'Enable notifications',
  notNow: 'Not now',
  toggleOn: 'Push notifications on',
  toggleOff: 'Push notifications off',
  enabled: 'Push notifications enabled.',
  disabled: 'Push notifications disabled.',
  serverRemovalFailed: 'Push notifications were turned off in this browser, but the server could not forget the subscription.',
} as const;

/** A failure of a push step: a §8 title and reason. */
export class PushFailure extends Error {
  constructor(
    readonly title: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** Every spec text above (for the spec check's count of §8 texts). */
export const PUSH_SPEC_TEXTS: string[] = [...Object.values(PUSH_TITLES), ...Object.values(PUSH_REASONS)];
