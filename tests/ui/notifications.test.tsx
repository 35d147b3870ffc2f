/**
 * The bell in happy-dom: the real providers and react-admin, the API answered by the fake server (at
 * `fetch`), and a real socket.io server in this process for the socket. Paging (more only after a page
 * of exactly 20), the 50-notification cache (per user), §8's failure toasts with the cached fallback,
 * marking one and all read, and what the socket brings: join and presence, a connect error that
 * disconnects, a notification on top with the badge up and one toast per burst.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { render } from './harness.tsx';
import userEvent from '@testing-library/user-event';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { AdminContext } from 'react-admin';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { registry } from '../../resources/index.ts';
import { notifications as notificationsResource } from '../../resources/notifications.ts';
import { createAuthProvider } from '../../src/client/providers/auth.ts';
import { createDataProvider } from '../../src/client/providers/data.ts';
import { ToastProvider } from '../../src/client/shell/toast.tsx';
import { urlOf, parseCall } from '../../src/manifest/index.ts';
import { NOTIFICATIONS, SOCKET_EVENTS, SOCKET_PATH, userRoom, type NotificationWire } from '../../src/features/notifications/contract.ts';
import { NotificationBell } from '../../src/features/notifications/client/NotificationBell.tsx';
import { NotificationSocketProvider } from '../../src/features/notifications/client/SocketProvider.tsx';
import { NOTIFICATION_FAILURES } from '../../src/features/notifications/client/messages.ts';
import { openSessionSocket } from '../../src/features/notifications/client/socket.ts';
import { readCache, writeCache } from '../../src/features/notifications/client/cache.ts';
import { arrivalToast, debounceArrivalToasts } from '../../src/features/notifications/client/arrival-toasts.ts';
import { fakeServer, type SeenCall } from './fake-server.ts';

const USER = '0123456789abcdef01234567';
const OTHER = 'fedcba9876543210fedcba98';
const ops = notificationsResource.operations;
const pathOf = (call: string, id?: string) => urlOf(parseCall(call as never).path.replace('{id}', id ?? '{id}'));
const LIST = `GET ${pathOf(ops.mine.call)}`;
const MARK_ALL = `POST ${pathOf(ops.markAllRead.call)}`;
const markOne = (id: string) => `POST ${pathOf(ops.markRead.call, id)}`;

/** `count` notifications of `userId`, newest first, the first `unread` of them unread. */
function notificationsOf(count: number, { userId = USER, unread = count, from = 0 } = {}): NotificationWire[] {
  return Array.from({ length: count }, (_, i) => {
    const n = from + count - i; // newest first: the highest number on top
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
    return {
      id: `${String(n).padStart(8, '0')}${userId.slice(0, 16)}`,
      title: `Notice ${n}`,
      message: `Message ${n}`,
      type: 'info' as const,
      isRead: i >= unread,
      userId,
      metadata: { category: 'account' },
      createdAt: at,
    };
  });
}

/** The enhanced list call over `stored` (newest first), by `page` and `limit`, as §7 answers it. */
function listOf(stored: NotificationWire[]) {
  return ({ query }: SeenCall) => {
    const page = Number(query.get('page'));
    const limit = Number(query.get('limit'));
    return { body: { data: stored.slice((page - 1) * limit, page * limit), stats: { unreadCount: stored.filter((n) => !n.isRead).length } } };
  };
}

function apiWith(routes: Record<string, (call: SeenCall) => { status?: number; body?: unknown }>, userId = USER) {
  return fakeServer({
    'GET /api/admin/v1/getcurrentuser': () => ({ body: { id: userId, name: 'Demo User', email: 'user@demo.test', role: 'user' } }),
    ...routes,
  });
}

const pagesAsked = (calls: SeenCall[]) => calls.filter((c) => `${c.method} ${c.path}` === LIST).map((c) => [c.query.get('page'), c.query.get('limit')]);

function renderBell(socketUrl?: string) {
  return render(
    <ToastProvider>
      <AdminContext dataProvider={createDataProvider(registry)} authProvider={createAuthProvider()}>
        <NotificationSocketProvider url={socketUrl}>
          <NotificationBell />
        </NotificationSocketProvider>
      </AdminContext>
    </ToastProvider>,
  );
}

// Behind the open list (MUI's modal hides the rest of the page from assistive technology) it is still read.
const bell = () => screen.findByRole('button', { name: /^Notifications/, hidden: true });
async function openList() {
  await userEvent.click(await bell());
  return screen.findByRole('dialog', { name: 'Notifications' });
}
const items = () => screen.queryAllByRole('menuitem');
/** The toasts' texts; those a popover hides from assistive technology (MUI's modal) are read as well. */
const toastText = () => [...screen.queryAllByRole('status', { hidden: true }), ...screen.queryAllByRole('alert', { hidden: true })].map((t) => t.textContent ?? '');

describe('the bell’s list', () => {
  it('reads pages of 20 as the list is scrolled, and asks for no more after a page shorter than 20', async () => {
    const stored = notificationsOf(25, { unread: 3 });
    const api = apiWith({ [LIST]: listOf(stored) });
    renderBell();
    await waitFor(async () => expect((await bell()).getAttribute('aria-label')).toBe('Notifications, 3 unread'));
    const dialog = await openList();
    await waitFor(() => expect(items()).toHaveLength(20));
    expect(pagesAsked(api.calls)).toEqual([['1', String(NOTIFICATIONS.pageSize)]]);
    // Newest first, unread ones said so.
    expect(items()[0].textContent).toContain('Unread: Notice 25');
    expect(items()[5].textContent).not.toContain('Unread');

    fireEvent.scroll(within(dialog).getByRole('menu'));
    await waitFor(() => expect(items()).toHaveLength(25));
    expect(pagesAsked(api.calls)).toEqual([
      ['1', '20'],
      ['2', '20'],
    ]);
    // Page 2 held 5 (< 20): scrolling on asks nothing more.
    fireEvent.scroll(within(dialog).getByRole('menu'));
    fireEvent.scroll(within(dialog).getByRole('menu'));
    expect(pagesAsked(api.calls)).toHaveLength(2);
  });

  it('after a page of exactly 20 asks for the next, and stops at the empty one', async () => {
    const api = apiWith({ [LIST]: listOf(notificationsOf(20, { unread: 0 })) });
    renderBell();
    const dialog = await openList();
    await waitFor(() => expect(items()).toHaveLength(20));
    expect((await bell()).getAttribute('aria-label')).toBe('Notifications');
    fireEvent.scroll(within(dialog).getByRole('menu'));
    await waitFor(() => expect(pagesAsked(api.calls)).toHaveLength(2));
    await waitFor(() => expect(within(dialog).queryByLabelText('Loading more notifications')).toBeNull());
    fireEvent.scroll(within(dialog).getByRole('menu'));
    expect(pagesAsked(api.calls)).toHaveLength(2);
    expect(items()).toHaveLength(20);
  });

  it('shows its empty state', async () => {
    apiWith({ [LIST]: listOf([]) });
    renderBell();
    const dialog = await openList();
    await within(dialog).findByText('No notifications yet');
    expect(within(dialog).getByRole('button', { name: 'Mark all as read' })).toHaveProperty('disabled', true);
  });

  it('keeps at most 50 notifications in the browser, newest first, under the user’s own key', async () => {
    const stored = notificationsOf(60);
    apiWith({ [LIST]: listOf(stored) });
    renderBell();
    const dialog = await openList();
    await waitFor(() => expect(items()).toHaveLength(20));
    fireEvent.scroll(within(dialog).getByRole('menu'));
    await waitFor(() => expect(items()).toHaveLength(40));
    fireEvent.scroll(within(dialog).getByRole('menu'));
    await waitFor(() => expect(items()).toHaveLength(60));
    await waitFor(() => expect(readCache(USER)).toHaveLength(NOTIFICATIONS.cacheLimit));
    expect(readCache(USER).map((n) => n.id)).toEqual(stored.slice(0, 50).map((n) => n.id));
  });

  it('shows the cached notifications with §8’s toast when the list fails, and never another user’s', async () => {
    writeCache(USER, notificationsOf(3, { unread: 1 }));
    writeCache(OTHER, notificationsOf(2, { userId: OTHER, from: 100 }));
    apiWith({ [LIST]: () => ({ status: 500, body: { message: 'down' } }) });
    renderBell();
    await waitFor(() => expect(toastText()).toContain(NOTIFICATION_FAILURES.load));
    const dialog = await openList();
    await waitFor(() => expect(items().map((i) => i.textContent)).toEqual([
      expect.stringContaining('Unread: Notice 3'),
      expect.stringContaining('Notice 2'),
      expect.stringContaining('Notice 1'),
    ]));
    within(dialog).getByText('Showing the notifications saved on this device.');
    expect((await bell()).getAttribute('aria-label')).toBe('Notifications, 1 unread');
    // The previous user's cache is gone from the browser, not only hidden.
    expect(localStorage.getItem(`notifications:${OTHER}`)).toBeNull();
    expect(readCache(OTHER)).toEqual([]);
  });

  it('marks one read on click or Enter, and says so when it fails', async () => {
    const stored = notificationsOf(3);
    let refuse = false;
    const api = apiWith({
      [LIST]: listOf(stored),
      [markOne(stored[0].id)]: () => ({ body: { ...stored[0], isRead: true } }),
      [markOne(stored[1].id)]: () => (refuse ? { status: 500, body: { message: 'down' } } : { body: { ...stored[1], isRead: true } }),
    });
    renderBell();
    await waitFor(async () => expect((await bell()).getAttribute('aria-label')).toBe('Notifications, 3 unread'));
    await openList();
    await waitFor(() => expect(items()).toHaveLength(3));
    await userEvent.click(items()[0]);
    await waitFor(async () => expect((await bell()).getAttribute('aria-label')).toBe('Notifications, 2 unread'));
    expect(items()[0].textContent).not.toContain('Unread');
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([pathOf(ops.markRead.call, stored[0].id)]);

    refuse = true;
    items()[1].focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(toastText()).toContain(NOTIFICATION_FAILURES.markOne));
    expect(items()[1].textContent).toContain('Unread');
    expect((await bell()).getAttribute('aria-label')).toBe('Notifications, 2 unread');

    refuse = false;
    items()[1].focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(async () => expect((await bell()).getAttribute('aria-label')).toBe('Notifications, 1 unread'));
  });

  it('marks all read, and says so when it fails', async () => {
    const stored = notificationsOf(4, { unread: 2 });
    let refuse = true;
    apiWith({
      [LIST]: listOf(stored),
      [MARK_ALL]: () => (refuse ? { status: 500, body: { message: 'down' } } : { body: { count: 2 } }),
    });
    renderBell();
    const dialog = await openList();
    await waitFor(() => expect(items()).toHaveLength(4));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(toastText()).toContain(NOTIFICATION_FAILURES.markAll));
    expect((await bell()).getAttribute('aria-label')).toBe('Notifications, 2 unread');

    refuse = false;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark all as read' }));
    await waitFor(async () => expect((await bell()).getAttribute('aria-label')).toBe('Notifications'));
    expect(items().filter((i) => i.textContent?.includes('Unread'))).toEqual([]);
  });
});

describe('toasts of arrivals', () => {
  afterEach(() => void vi.useRealTimers());

  it('one arrival is shown as itself; several within 300 ms as one summary', () => {
    const [a, b, c] = notificationsOf(3).reverse();
    expect(arrivalToast([a])).toEqual({ title: a.title, description: a.message, severity: 'info' });
    expect(arrivalToast([a, b, c])).toEqual({ title: '3 new notifications', description: `Latest: ${c.title}`, severity: 'info' });

    vi.useFakeTimers();
    const shown: unknown[] = [];
    const toasts = debounceArrivalToasts((t) => shown.push(t));
    toasts.add(a);
    vi.advanceTimersByTime(NOTIFICATIONS.toastDebounceMs - 1);
    toasts.add(b);
    vi.advanceTimersByTime(NOTIFICATIONS.toastDebounceMs - 1);
    toasts.add(c);
    vi.advanceTimersByTime(NOTIFICATIONS.toastDebounceMs - 1);
    expect(shown).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual([arrivalToast([a, b, c])]);
    // A later one, alone after the quiet, is its own toast.
    toasts.add(a);
    vi.advanceTimersByTime(NOTIFICATIONS.toastDebounceMs);
    expect(shown).toEqual([arrivalToast([a, b, c]), arrivalToast([a])]);
  });
});

describe('the session’s socket', () => {
  let http: HttpServer;
  let io: Server;
  let url = '';
  const seen: { event: string; args: unknown[] }[] = [];
  let refuse = false;
  const sockets: ServerSocket[] = [];

  beforeAll(async () => {
    http = createServer();
    // A real socket.io server; the app's own (handshake by session cookie) is tested in tests/api and e2e.
    io = new Server(http, { path: SOCKET_PATH, cors: { origin: true, credentials: true } });
    io.use((socket, next) => {
      seen.push({ event: 'handshake', args: [] });
      next(refuse ? new Error('Authentication required') : undefined);
    });
    io.on('connection', (socket) => {
      sockets.push(socket);
      socket.onAny((event, ...args) => {
        seen.push({ event, args: args.filter((a) => typeof a !== 'function') });
        const ack = args.find((a) => typeof a === 'function') as ((a: unknown) => void) | undefined;
        ack?.({ ok: true });
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await io?.close();
  });
  afterEach(() => {
    seen.length = 0;
    sockets.length = 0;
    refuse = false;
  });

  it('joins its own room and says online on connect, offline when the tab hides', async () => {
    apiWith({ [LIST]: listOf([]) });
    renderBell(url);
    await waitFor(() => expect(seen.map((s) => s.event)).toEqual(['handshake', SOCKET_EVENTS.join, SOCKET_EVENTS.online]));
    expect(seen[1].args).toEqual([userRoom(USER)]);

    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    await waitFor(() => expect(seen.at(-1)?.event).toBe(SOCKET_EVENTS.offline));
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    await waitFor(() => expect(seen.at(-1)?.event).toBe(SOCKET_EVENTS.online));
  });

  it('puts an arriving notification on top, raises the badge and shows one toast for a burst', async () => {
    const stored = notificationsOf(2, { unread: 1 });
    apiWith({ [LIST]: listOf(stored) });
    renderBell(url);
    await waitFor(() => expect(sockets).toHaveLength(1));
    await waitFor(() => expect(seen.map((s) => s.event)).toContain(SOCKET_EVENTS.online));
    await waitFor(async () => expect((await bell()).getAttribute('aria-label')).toBe('Notifications, 1 unread'));

    const [one] = notificationsOf(1, { from: 10 });
    sockets[0].emit(SOCKET_EVENTS.notification, one);
    await waitFor(async () => expect((await bell()).getAttribute('aria-label')).toBe('Notifications, 2 unread'));
    await waitFor(() => expect(toastText().some((t) => t.includes(one.title) && t.includes(one.message))).toBe(true));

    // Three sent at once: one summary toast. Another user's (a misdelivery) is not shown.
    const burst = notificationsOf(3, { from: 20 }).reverse();
    for (const n of [...burst, ...notificationsOf(1, { userId: OTHER, from: 50 })]) sockets[0].emit(SOCKET_EVENTS.notification, n);
    await waitFor(async () => expect((await bell()).getAttribute('aria-label')).toBe('Notifications, 5 unread'));
    await waitFor(() => expect(toastText().some((t) => t.includes('3 new notifications') && t.includes(`Latest: ${burst[2].title}`))).toBe(true));

    await openList();
    await waitFor(() => expect(items()).toHaveLength(6));
    expect(items().map((i) => i.textContent?.match(/Notice \d+/)?.[0])).toEqual(['Notice 23', 'Notice 22', 'Notice 21', 'Notice 11', 'Notice 2', 'Notice 1']);
    // And they are kept in the browser with the rest.
    await waitFor(() => expect(readCache(USER).map((n) => n.title)).toEqual(['Notice 23', 'Notice 22', 'Notice 21', 'Notice 11', 'Notice 2', 'Notice 1']));
  });

  it('takes the server’s unread count and reads the list again when another tab read something', async () => {
    const stored = notificationsOf(2);
    const api = apiWith({ [LIST]: listOf(stored) });
    renderBell(url);
    await waitFor(() => expect(sockets).toHaveLength(1));
    await waitFor(async () => expect((await bell()).getAttribute('aria-label')).toBe('Notifications, 2 unread'));
    stored[0] = { ...stored[0], isRead: true };
    sockets[0].emit(SOCKET_EVENTS.unread, { unreadCount: 1 });
    await waitFor(async () => expect((await bell()).getAttribute('aria-label')).toBe('Notifications, 1 unread'));
    await waitFor(() => expect(pagesAsked(api.calls)).toHaveLength(2));
  });

  it('disconnects on a connect error instead of trying again (§8)', async () => {
    refuse = true;
    const session = openSessionSocket(USER, { notification: () => {}, unread: () => {}, reconnected: () => {}, event: () => {} }, { url });
    const socket = await session.ready;
    await waitFor(() => expect(seen.filter((s) => s.event === 'handshake')).toHaveLength(1));
    // Closed by the client itself: socket.io's manager will not try again (`active` is false).
    await waitFor(() => expect(socket.active).toBe(false));
    expect(socket.connected).toBe(false);
    session.close();
  });

  it('closes with the session (the layout unmounts at sign-out)', async () => {
    apiWith({ [LIST]: listOf([]) });
    const { unmount } = renderBell(url);
    await waitFor(() => expect(sockets).toHaveLength(1));
    // Connected on both ends: the server accepts before the client hears it, and only a client that
    // knows it is connected says offline (CI once unmounted in between and saw only the handshake).
    await waitFor(() => expect(seen.map((s) => s.event)).toContain(SOCKET_EVENTS.online));
    const gone = new Promise<void>((resolve) => sockets[0].once('disconnect', () => resolve()));
    unmount();
    await gone;
    expect(seen.at(-1)?.event).toBe(SOCKET_EVENTS.offline);
  });
});
