/**
 * The push toggle and banner in happy-dom (spec §4 order, §8 toasts, §9 banner timing). It has no
 * service workers, notifications or push manager: the test gives the window stand-ins for those
 * browser APIs (the boundary), recording each step; the network is intercepted at `fetch`.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { render } from './harness.tsx';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MenuList } from '@mui/material';
import { ToastProvider } from '../../src/client/shell/toast.tsx';
import { PushProvider } from '../../src/features/push/client/usePush.tsx';
import { PushMenuItem } from '../../src/features/push/client/PushMenuItem.tsx';
import { BANNER_DISMISSED_KEY, PushBanner } from '../../src/features/push/client/PushBanner.tsx';
import { PUSH_REASONS, PUSH_TEXTS, PUSH_TITLES } from '../../src/features/push/messages.ts';
import { PUSH_BANNER } from '../../src/features/notifications/contract.ts';
import { pushSubscriptions } from '../../resources/push.ts';
import { fakeServer } from './fake-server.ts';

const KEY = `GET ${pushSubscriptions.operations.vapidPublicKey.call.split(' ')[1]}`;
const SAVE = `POST ${pushSubscriptions.operations.subscribe.call.split(' ')[1]}`;
const REMOVE = `DELETE ${pushSubscriptions.operations.unsubscribe.call.split(' ')[1]}`;
const PUBLIC_KEY = Buffer.from([4, ...Array.from({ length: 64 }, (_, i) => i)]).toString('base64url');
const ENDPOINT = 'https://push.example.com/send/abc';

/** What the stand-in browser does; each option breaks one step. */
interface BrowserOptions {
  serviceWorker?: boolean;
  notification?: boolean;
  pushManager?: boolean;
  permission?: NotificationPermission;
  requestAnswer?: NotificationPermission | 'throw';
  registerFails?: boolean;
  subscribed?: boolean;
  unsubscribeFails?: boolean;
}

const steps: string[] = [];
let existing: { endpoint: string; unsubscribe: () => Promise<boolean>; toJSON: () => unknown; options: unknown } | null = null;

function installBrowser(o: BrowserOptions = {}) {
  steps.length = 0;
  const subscription = (endpoint: string) => ({
    endpoint,
    options: { applicationServerKey: Buffer.from(PUBLIC_KEY, 'base64url').buffer },
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: 'p', auth: 'a' } }),
    unsubscribe: async () => {
      steps.push('browser unsubscribe');
      if (o.unsubscribeFails) throw new Error('no');
      existing = null;
      return true;
    },
  });
  existing = o.subscribed ? subscription(ENDPOINT) : null;
  const registration = {
    pushManager: {
      getSubscription: async () => existing,
      subscribe: async (options: { applicationServerKey: Uint8Array; userVisibleOnly: boolean }) => {
        steps.push(`browser subscribe ${options.userVisibleOnly} ${Buffer.from(options.applicationServerKey).toString('base64url')}`);
        existing = subscription(ENDPOINT);
        return existing;
      },
    },
  };
  const nav = navigator as unknown as Record<string, unknown>;
  const win = window as unknown as Record<string, unknown>;
  if (o.serviceWorker === false) delete nav.serviceWorker;
  else
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: {
        register: async (url: string) => {
          steps.push(`register ${url}`);
          if (o.registerFails) throw new Error('blocked');
          return registration;
        },
        get ready() {
          return Promise.resolve(registration);
        },
        getRegistration: async () => registration,
      },
    });
  if (o.notification === false) delete win.Notification;
  else
    win.Notification = {
      permission: o.permission ?? 'default',
      requestPermission: async () => {
        steps.push('permission');
        if (o.requestAnswer === 'throw') throw new Error('no prompt');
        (win.Notification as { permission: string }).permission = o.requestAnswer ?? 'granted';
        return o.requestAnswer ?? 'granted';
      },
    };
  if (o.pushManager === false) delete win.PushManager;
  else win.PushManager = function PushManager() {};
}

function serverOk(overrides: Record<string, () => { status?: number; body?: unknown }> = {}) {
  return fakeServer({
    [KEY]: () => (steps.push('public key'), { body: { publicKey: PUBLIC_KEY } }),
    [SAVE]: () => (steps.push('save'), { body: { endpoint: ENDPOINT } }),
    [REMOVE]: () => (steps.push('remove'), { status: 204 }),
    ...overrides,
  });
}

function renderToggle(signedIn = true) {
  return render(
    <ToastProvider>
      <PushProvider signedIn={signedIn}>
        <MenuList>
          <PushMenuItem />
        </MenuList>
      </PushProvider>
    </ToastProvider>,
  );
}

async function clickToggle() {
  const item = await screen.findByRole('menuitemcheckbox');
  await waitFor(() => expect(item.getAttribute('aria-disabled')).toBeNull());
  fireEvent.click(item);
}

/** The toast shown: its title and description. */
async function toast() {
  const alert = await waitFor(() => {
    const shown = document.querySelector('.MuiAlert-root');
    if (!shown) throw new Error('no toast yet');
    return shown;
  });
  return alert.textContent ?? '';
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  localStorage.clear();
});

describe('push toggle', () => {
  it('subscribes in the spec’s order and saves subscription, userAgent and endpoint on the server', async () => {
    installBrowser();
    const server = serverOk();
    renderToggle();
    await clickToggle();
    expect(await toast()).toContain(PUSH_TEXTS.enabled);
    expect(steps).toEqual(['register /sw.js', 'permission', 'register /sw.js', 'public key', `browser subscribe true ${PUBLIC_KEY}`, 'save']);
    const saved = server.calls.find((c) => c.method === 'POST')!;
    expect(saved.body).toEqual({
      subscription: { endpoint: ENDPOINT, expirationTime: null, keys: { p256dh: 'p', auth: 'a' } },
      userAgent: navigator.userAgent,
      endpoint: ENDPOINT,
    });
    expect(screen.getByRole('menuitemcheckbox').getAttribute('aria-checked')).toBe('true');
  });

  it('asks for a signed-in user first', async () => {
    installBrowser();
    const server = serverOk();
    renderToggle(false);
    await clickToggle();
    const text = await toast();
    expect(text).toContain(PUSH_TITLES.authRequired);
    expect(text).toContain(PUSH_REASONS.logIn);
    expect(steps.filter((s) => s !== 'register /sw.js')).toEqual([]);
    expect(server.calls).toEqual([]);
  });

  const failures: [string, BrowserOptions, Record<string, () => { status?: number; body?: unknown }>, string][] = [
    ['no service worker', { serviceWorker: false }, {}, PUSH_REASONS.serviceWorkerUnsupported],
    ['no notifications', { notification: false }, {}, PUSH_REASONS.notificationsUnsupported],
    ['no push manager', { pushManager: false }, {}, PUSH_REASONS.pushUnsupported],
    ['permission denied before', { permission: 'denied' }, {}, PUSH_REASONS.permissionDenied],
    ['permission refused now', { requestAnswer: 'denied' }, {}, PUSH_REASONS.permissionDenied],
    ['permission prompt failing', { requestAnswer: 'throw' }, {}, PUSH_REASONS.permissionRequestFailed],
    ['service worker refused', { registerFails: true }, {}, PUSH_REASONS.serviceWorkerFailed],
    ['no public key (error)', {}, { [KEY]: () => ({ status: 500, body: { message: 'x' } }) }, PUSH_REASONS.noPublicKey],
    ['no public key (empty)', {}, { [KEY]: () => ({ body: { publicKey: '' } }) }, PUSH_REASONS.noPublicKey],
    ['server refusing to save', {}, { [SAVE]: () => ({ status: 400, body: { message: 'no' } }) }, PUSH_REASONS.saveFailed],
  ];
  it.each(failures)('shows the destructive toast when a step fails: %s', async (_, browser, routes, reason) => {
    installBrowser(browser);
    serverOk(routes);
    renderToggle();
    await clickToggle();
    const alert = await screen.findByRole('alert');
    expect((alert).textContent).toContain(PUSH_TITLES.enableFailed);
    expect((alert).textContent).toContain(reason);
    expect(alert.className).toMatch(/MuiAlert-(colorError|filledError)/);
    expect(screen.getByRole('menuitemcheckbox').getAttribute('aria-checked')).toBe('false');
    // A subscription the server did not save is not kept in the browser either.
    expect(existing).toBeNull();
  });

  it('unsubscribes in the browser even when the server cannot forget it, with a warning', async () => {
    installBrowser({ subscribed: true });
    const server = serverOk({ [REMOVE]: () => ({ status: 500, body: { message: 'down' } }) });
    renderToggle();
    await waitFor(() => expect(screen.getByRole('menuitemcheckbox').getAttribute('aria-checked')).toBe('true'));
    await clickToggle();
    const alert = await screen.findByRole('alert');
    expect((alert).textContent).toContain(PUSH_TEXTS.serverRemovalFailed);
    expect(alert.className).toMatch(/MuiAlert-(colorWarning|filledWarning)/);
    expect(steps).toContain('browser unsubscribe');
    expect(server.calls.find((c) => c.method === 'DELETE')!.body).toEqual({ endpoint: ENDPOINT });
    expect(screen.getByRole('menuitemcheckbox').getAttribute('aria-checked')).toBe('false');
  });

  it('saves a subscription the browser already holds again for the session signed in, and not when signed out', async () => {
    installBrowser({ subscribed: true, permission: 'granted' });
    const signedOut = serverOk();
    const first = renderToggle(false);
    await waitFor(() => expect(screen.getByRole('menuitemcheckbox').getAttribute('aria-checked')).toBe('true'));
    expect(signedOut.calls).toEqual([]);
    first.unmount();
    vi.restoreAllMocks();
    const server = serverOk();
    renderToggle(true);
    await waitFor(() => expect(steps).toContain('save'));
    expect(server.calls.find((c) => c.method === 'POST')!.body).toMatchObject({ endpoint: ENDPOINT, subscription: { endpoint: ENDPOINT } });
  });

  it('says it failed to disable when the browser cannot unsubscribe', async () => {
    installBrowser({ subscribed: true, unsubscribeFails: true });
    serverOk();
    renderToggle();
    await waitFor(() => expect(screen.getByRole('menuitemcheckbox').getAttribute('aria-checked')).toBe('true'));
    await clickToggle();
    expect((await screen.findByRole('alert')).textContent).toContain(PUSH_TITLES.disableFailed);
    expect(screen.getByRole('menuitemcheckbox').getAttribute('aria-checked')).toBe('true');
  });
});

describe('push banner', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });

  const renderBanner = () =>
    render(
      <ToastProvider>
        <PushProvider signedIn>
          <PushBanner />
        </PushProvider>
      </ToastProvider>,
    );
  const wait = (ms: number) => act(async () => void vi.advanceTimersByTime(ms));
  const banner = () => screen.queryByRole('region', { name: PUSH_TEXTS.bannerTitle });

  it(`appears ${PUSH_BANNER.delayMs} ms after load, and a dismissal holds for 24 hours`, async () => {
    installBrowser();
    serverOk();
    const first = renderBanner();
    await wait(PUSH_BANNER.delayMs - 1);
    expect(banner()).toBeNull();
    await wait(1);
    expect(banner()).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: PUSH_TEXTS.notNow }));
    expect(banner()).toBeNull();
    expect(Number(localStorage.getItem(BANNER_DISMISSED_KEY))).toBe(Date.now());
    first.unmount();

    const again = renderBanner();
    await wait(PUSH_BANNER.delayMs);
    expect(banner()).toBeNull();
    again.unmount();

    localStorage.setItem(BANNER_DISMISSED_KEY, String(Date.now() - PUSH_BANNER.dismissedForMs));
    renderBanner();
    await wait(PUSH_BANNER.delayMs);
    expect(banner()).not.toBeNull();
    // Escape dismisses it from the keyboard.
    fireEvent.keyDown(screen.getByRole('button', { name: PUSH_TEXTS.enable }), { key: 'Escape' });
    expect(banner()).toBeNull();
  });

  it.each<[string, BrowserOptions]>([
    ['permission is denied', { permission: 'denied' }],
    ['push is not supported', { pushManager: false }],
    ['the browser is already subscribed', { subscribed: true }],
  ])('does not appear when %s', async (_, options) => {
    installBrowser(options);
    serverOk();
    renderBanner();
    await wait(PUSH_BANNER.delayMs);
    expect(banner()).toBeNull();
  });

  it('subscribes from its button and goes away', async () => {
    installBrowser();
    serverOk();
    renderBanner();
    await wait(PUSH_BANNER.delayMs);
    fireEvent.click(screen.getByRole('button', { name: PUSH_TEXTS.enable }));
    await act(async () => void (await vi.waitFor(() => expect(steps).toContain('save'))));
    await act(async () => void vi.advanceTimersByTime(0));
    expect(banner()).toBeNull();
  });
});
