/**
 * The realtime socket of one signed-in session (spec §7, §8). socket.io-client is imported when a
 * session starts, so it never weighs on the first load (the sign-in page).
 *
 * On connect the socket joins its user's room and says the user is online; it says offline when the
 * tab is hidden or closed, online again when it shows. A connect error disconnects it for good (§8):
 * a refused handshake (signed out, session ended, user disabled) must not retry forever.
 */
import type { Socket } from 'socket.io-client';
import { SOCKET_EVENTS, SOCKET_PATH, userRoom, type JoinAnswer, type NotificationWire, type UnreadAnswer } from '../contract.ts';

/** What a session hears from the socket. */
export interface SocketListeners {
  notification(notification: NotificationWire): void;
  unread(answer: UnreadAnswer): void;
  /** Every (re)connection after the first: what arrived meanwhile must be read again. */
  reconnected(): void;
  /** Any event the server sends, by name (a support thread's messages and typing: features/support). */
  event(name: string, payload: unknown): void;
}

export interface SocketOptions {
  /** The server's address; the page's own origin when absent (the app's socket is on its port). */
  url?: string;
}

/** A live session's socket; `close` ends it (sign-out, another user). */
export interface SessionSocket {
  close(): void;
  /** The socket once socket.io-client has loaded (tests read its state). */
  ready: Promise<Socket>;
}

export function openSessionSocket(userId: string, listeners: SocketListeners, options: SocketOptions = {}): SessionSocket {
  let closed = false;
  let socket: Socket | undefined;
  const presence = () => {
    if (!socket?.connected) return;
    socket.emit(document.visibilityState === 'hidden' ? SOCKET_EVENTS.offline : SOCKET_EVENTS.online);
  };
  const leaving = () => socket?.connected && socket.emit(SOCKET_EVENTS.offline);

  const ready = import('socket.io-client').then(({ io }) => {
    const opts = { path: SOCKET_PATH, withCredentials: true };
    const s = options.url ? io(options.url, opts) : io(opts);
    socket = s;
    if (closed) s.disconnect();
    let connections = 0;
    s.on('connect', () => {
      s.emit(SOCKET_EVENTS.join, userRoom(userId), (answer: JoinAnswer | undefined) => {
        // The server puts the socket in its room on connect; a refused join is worth a trace only.
        if (answer && !answer.ok) console.warn('notifications: join refused', answer.message);
      });
      presence();
      if (connections++ > 0) listeners.reconnected();
    });
    // §8: a connect error disconnects the socket (no reconnection loop against a refusing server).
    s.on('connect_error', () => s.disconnect());
    s.on(SOCKET_EVENTS.notification, (n: NotificationWire) => listeners.notification(n));
    s.on(SOCKET_EVENTS.unread, (a: UnreadAnswer) => listeners.unread(a));
    s.onAny((name: string, payload: unknown) => listeners.event(name, payload));
    return s;
  });
  ready.catch((error) => console.error('notifications: the socket client did not load', error));

  document.addEventListener('visibilitychange', presence);
  window.addEventListener('pagehide', leaving);
  window.addEventListener('pageshow', presence);

  return {
    ready,
    close() {
      closed = true;
      document.removeEventListener('visibilitychange', presence);
      window.removeEventListener('pagehide', leaving);
      window.removeEventListener('pageshow', presence);
      if (socket) {
        leaving();
        socket.disconnect();
      }
    },
  };
}
