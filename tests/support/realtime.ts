/**
 * A real socket.io client of the app's realtime socket (src/server/realtime), for API, multi-node and
 * bench code: opens with a session cookie, never reconnects by itself (a test sees every drop), and
 * waits for what the server says.
 */
import { io, type Socket } from 'socket.io-client';
import { SOCKET_PATH } from '../../src/features/notifications/contract.ts';

export interface OpenOptions {
  cookie?: string;
  /** Sent as `Origin` (a browser page's); left out, none is sent (a client that is no browser). */
  origin?: string;
  /** Default websocket only, as behind a proxy without sticky sessions. */
  transports?: ('websocket' | 'polling')[];
}

export function openSocket(url: string, { cookie, origin, transports = ['websocket'] }: OpenOptions = {}): Socket {
  const headers = { ...(cookie ? { cookie } : {}), ...(origin ? { origin } : {}) };
  return io(url, { path: SOCKET_PATH, transports, reconnection: false, forceNew: true, extraHeaders: headers });
}

/** Settles when the socket is connected; rejects with the server's `connect_error` message. */
export function connected(socket: Socket): Promise<Socket> {
  return new Promise((resolve, reject) => {
    if (socket.connected) return resolve(socket);
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => reject(error));
  });
}

/** The message of the socket's `connect_error` (rejects when it connects instead). */
export function connectError(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('the socket connected')));
    socket.once('connect_error', (error) => resolve(error.message));
  });
}

/** The next `event`'s first argument. */
export function nextEvent<T = unknown>(socket: Socket, event: string): Promise<T> {
  return new Promise((resolve) => socket.once(event, (value: T) => resolve(value)));
}

/** The reason of the socket's next disconnection. */
export function disconnected(socket: Socket): Promise<string> {
  return new Promise((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
}

/** Every value of `event` the socket receives from now on, in order. */
export function collect<T = unknown>(socket: Socket, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (value: T) => seen.push(value));
  return seen;
}

/** `promise`, or a rejection naming `what` after `ms` (a limit on waiting, not a measurement). */
export function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
