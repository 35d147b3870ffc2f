/**
 * Session auth against the server (spec §6): the server sets an httpOnly cookie on login, so the
 * client never holds a token; it only asks who is signed in.
 */
import type { AuthProvider, UserIdentity } from 'react-admin';
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
 * answer serves that burst. Short enough that an expired session is noticed on the next screen.
 */
const CURRENT_USER_TTL_MS = 5_000;

export function createAuthProvider(): AuthProvider {
  let cached: { at: number; user: Promise<CurrentUser> } | undefined;

  const currentUser = (): Promise<CurrentUser> => {
    if (cached && Date.now() - cached.at < CURRENT_USER_TTL_MS) return cached.user;
    const user = httpClient(`${API_BASE}/getcurrentuser`).then(({ json }) => json as CurrentUser);
    cached = { at: Date.now(), user };
    user.catch(() => {
      if (cached?.user === user) cached = undefined;
    });
    return user;
  };
  const forget = () => (cached = undefined);

  return {
    async login({ username, password }: { username: string; password: string }) {
      forget();
      // react-admin's login form calls the identifier `username`; the API calls it `email`.
      await httpClient(`${AUTH_BASE}/login`, { method: 'POST', body: JSON.stringify({ email: username, password }) });
    },
    async logout() {
      forget();
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
