/**
 * The one way the client talks HTTP: react-admin's `fetchJson` with the session cookie. Lists go
 * through the data provider; dialog writes go straight to their declared call with `send`.
 */
import { fetchUtils, HttpError } from 'react-admin';
import { fillPath, parseCall, urlOf, type Call } from '../../manifest/index.ts';

export type HttpResult = Awaited<ReturnType<typeof fetchUtils.fetchJson>>;

/** `fetchJson` with the session cookie: the server keeps the session in an httpOnly cookie. */
export function httpClient(url: string, options: fetchUtils.Options = {}): Promise<HttpResult> {
  return fetchUtils.fetchJson(url, { credentials: 'same-origin', ...options });
}

/**
 * Sends a declared call: `{param}`s filled from `pathValues`, `body` as JSON, with any extra `headers`
 * (an update's `If-Match`). Rejects with an
 * `HttpError` whose `body` is the server's parsed answer (what failure toasts describe).
 */
export function send(
  call: Call,
  pathValues: Record<string, unknown>,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<HttpResult> {
  const { method, path } = parseCall(call);
  let url: string;
  try {
    url = urlOf(fillPath(path, pathValues));
  } catch (e) {
    // A dialog opened without the record its path needs: a failure to show, not a crash.
    return Promise.reject(new HttpError((e as Error).message, 0, { message: (e as Error).message }));
  }
  return httpClient(url, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    // fetchJson adds Accept and Content-Type to the headers it is given.
    ...(headers ? { headers: new Headers(headers) } : {}),
  });
}
