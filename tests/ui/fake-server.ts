/**
 * Intercepts `fetch` at the window boundary and answers like the API would. Each route is a method,
 * a path (without the query) and a handler; unmatched calls fail the test loudly.
 */
import { vi } from 'vitest';
import { notifications } from '../../resources/notifications.ts';
import { parseCall, urlOf } from '../../src/manifest/index.ts';
import { SESSION_MARKER_COOKIE } from '../../src/domain/session-marker.ts';

/**
 * The bell in every signed-in screen's app bar reads this call at once. Tests about something else
 * get an empty list (no 'Failed to load notifications' toast over theirs) unless they answer it.
 */
export const BELL_LIST_PATH = urlOf(parseCall(notifications.operations.mine.call).path);
export const EMPTY_BELL = { data: [], stats: { unreadCount: 0 } };

export interface SeenCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  credentials?: RequestCredentials;
}

type Answer = { status?: number; body?: unknown; headers?: Record<string, string> };
type Handler = (call: SeenCall) => Answer;

/** Sets or clears the readable session marker the real server sends beside its httpOnly cookie. */
export function sessionMarker(present: boolean) {
  document.cookie = present ? `${SESSION_MARKER_COOKIE}=1; Path=/` : `${SESSION_MARKER_COOKIE}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/`;
}

/** Signing in and out set and clear the session marker (setup.ts sets it first) as the real server does. */
export function fakeServer(routes: Record<string, Handler> = {}) {
  const calls: SeenCall[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const raw = init?.body;
    const call: SeenCall = {
      method,
      path: url.pathname,
      query: url.searchParams,
      body: typeof raw === 'string' ? JSON.parse(raw) : raw,
      credentials: init?.credentials,
    };
    calls.push(call);
    // A component that refetches forever would otherwise grow this list until the worker dies.
    if (calls.length > 500) throw new Error(`fake server: over 500 calls, last ${method} ${url.pathname}`);
    const handler = routes[`${method} ${url.pathname}`] ?? (method === 'GET' && url.pathname === BELL_LIST_PATH ? () => ({ body: EMPTY_BELL }) : undefined);
    if (!handler) throw new Error(`fake server: no route for ${method} ${url.pathname}`);
    const { status = 200, body, headers = {} } = handler(call);
    if (url.pathname === '/api/auth/login' && status < 300) sessionMarker(true);
    if (url.pathname === '/api/auth/logout') sessionMarker(false);
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json', ...headers },
    });
  });
  return { calls, spy, route: (key: string, handler: Handler) => void (routes[key] = handler) };
}

/** A ra-data-simple-rest list answer: the page of `rows` the `range` asks for, with Content-Range. */
export function listAnswer(name: string, rows: Record<string, unknown>[]): Handler {
  return ({ query }) => {
    const filter = JSON.parse(query.get('filter') ?? '{}') as { id?: string[]; q?: string };
    let found = rows;
    if (filter.id) found = found.filter((r) => filter.id!.includes(String(r.id)));
    if (filter.q) found = found.filter((r) => String(r.name).toLowerCase().includes(filter.q!.toLowerCase()));
    const [start, end] = JSON.parse(query.get('range') ?? '[0,24]') as [number, number];
    const page = found.slice(start, end + 1);
    const last = page.length ? start + page.length - 1 : start;
    return { body: page, headers: { 'Content-Range': `${name} ${start}-${last}/${found.length}` } };
  };
}
