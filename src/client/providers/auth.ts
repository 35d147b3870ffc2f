/**
 * Session auth against the server (spec §6): the server sets an httpOnly cookie on login, so the
 * client never holds a token; it only asks who is signed in, and only while the session's readable
 * marker says someone may be (src/domain/session-marker.ts): a signed-out visit asks nothing, so the
 * sign-in page logs no 401.
 */
import { HttpError, type AuthProvider, type UserIdentity } from 'react-admin';
import { SESSION_MARKER_COOKIE } from '../../domain/session-marker.ts';
import { API_BASE } from '../../manifest/index.ts';
import { httpClient } from './http.ts';

export interface CurrentUser {
  id: string;
  name: string;
  email: string;
  role: string;
  image?: string | null;
  [key: string]: unknown;
}

/** Fallback avatar of spec §2 for users without an image. */
export const AVATAR_FALLBACK = '/avatar.png';
const AUTH_BASE = '/api/auth';
/**
 * react-admin asks checkAuth, getIdentity and getPermissions together on every navigation; one
 * answer serves that burst. Older than this, the answer is still given at once (a screen does not wait
 * on a round trip to learn what it knew a moment ago, issue 51.10) and asked again beside it: an
 * expired session is noticed on the next screen, or by the first request the server refuses (401).
 */
const CURRENT_USER_TTL_MS = 5_000;

/** Whether the server's marker is here: a session may exist (expired or ended ones are found out by asking). */
export function maybeSignedIn(cookies = globalThis.document?.cookie ?? ''): boolean {
  return cookies.split(';').some((c) => c.trim().startsWith(`${SESSION_MARKER_COOKIE}=`));
}

/**
 * Drops the marker once the server has said the session is gone, so the next visit does not ask again.
 * An Expires in the past, not Max-Age=0, which some engines read as "until now" and keep a moment.
 */
function dropMarker() {
  const secure = globalThis.location?.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${SESSION_MARKER_COOKIE}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; SameSite=Lax${secure}`;
}

/** What asking would have answered, without asking: react-admin reads `status` as "signed out". */
const signedOut = () => new HttpError('Unauthorized', 401);

/** Whether an answer is a user record (the sign-in answer is one: the account, as `getcurrentuser` gives it). */
const isUser = (json: unknown): json is CurrentUser =>
  typeof json === 'object' && json !== null && typeof (json as CurrentUser).id === 'string' && typeof (json as CurrentUser).role === 'string';

export function createAuthProvider(): AuthProvider {
  /** The last user the server named (the sign-in answer or `getcurrentuser`'s) and when. */
  let known: { at: number; user: CurrentUser } | undefined;
  /** The question in flight, if any: one at a time. */
  let asking: Promise<CurrentUser> | undefined;

  const ask = (): Promise<CurrentUser> => {
    if (asking) return asking;
    const user = httpClient(`${API_BASE}/getcurrentuser`).then(({ json }) => json as CurrentUser);
    asking = user;
    user.then(
      (u) => {
        if (asking === user) known = { at: Date.now(), user: u };
      },
      (error: { status?: number }) => {
        if (asking !== user) return;
        if (error?.status === 401) {
          known = undefined;
          dropMarker();
        }
      },
    );
    void user.finally(() => {
      if (asking === user) asking = undefined;
    }).catch(() => {});
    return user;
  };
  /**
   * Who is signed in: a fresh answer as it is; an older one at once, asked again beside it
   * (stale-while-revalidate); none, asked and waited for.
   */
  const currentUser = (): Promise<CurrentUser> => {
    if (!maybeSignedIn()) {
      known = undefined;
      return Promise.reject(signedOut());
    }
    if (!known) return ask();
    if (Date.now() - known.at >= CURRENT_USER_TTL_MS) void ask().catch(() => {});
    return Promise.resolve(known.user);
  };
  const forget = () => {
    known = undefined;
    asking = undefined;
  };

  return {
    async login({ username, password }: { username: string; password: string }) {
      forget();
      // react-admin's login form calls the identifier `username`; the API calls it `email`.
      const { json } = await httpClient(`${AUTH_BASE}/login`, { method: 'POST', body: JSON.stringify({ email: username, password }) });
      // The answer is the account: the first screen need not ask who signed in (one round trip fewer).
      if (isUser(json)) known = { at: Date.now(), user: json };
    },
    async logout() {
      forget();
      // No marker, no session to end (react-admin signs out of every page it finds nobody on).
      if (!maybeSignedIn()) return;
      try {
        await httpClient(`${AUTH_BASE}/logout`, { method: 'POST' });
      } catch {
        // Already signed out (or the server is away): the login screen is the right place either way.
      }
    },
    async checkAuth() {
      await currentUser();
    },
    async checkError(error: { status?: number; message?: string }) {
      if (error?.status === 401) {
        forget();
        dropMarker();
        throw error;
      }
      // Forbidden: the session is fine, the role is not; stay signed in and say so.
      if (error?.status === 403) throw { logoutUser: false, message: error.message || 'ra.notification.not_authorized' };
    },
    async getIdentity(): Promise<UserIdentity> {
      const user = await currentUser();
      return { ...user, id: user.id, fullName: user.name, avatar: user.image || AVATAR_FALLBACK };
    },
    async getPermissions() {
      try {
        return (await currentUser()).role;
      } catch (error) {
        // Signed out is an answer, not a failure: rejecting makes react-admin retry and keep the
        // loading screen up for seconds before it shows the login form.
        if ((error as { status?: number })?.status === 401) return null;
        throw error;
      }
    },
  };
}
