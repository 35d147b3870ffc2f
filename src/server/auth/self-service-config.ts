/**
 * Settings of the accounts' self-service (sign-up, password reset), from the environment in the manner
 * of src/server/email/config.ts:
 * - `PUBLIC_URL`: where people open the app (`https://admin.example.com`), the base of emailed links.
 *   Unset: the host the request came to, which a client can name as it likes; set it in production
 *   (docs/security.md, "Password reset").
 * - `PASSWORD_RESET_MINUTES`: how long a reset link works (default 30).
 * And the request limits, fixed (each a count within a window, per key: limiter.ts `WindowCounter`).
 */
export interface SelfServiceConfig {
  /** Without a trailing slash. */
  publicUrl?: string;
  resetMinutes: number;
}

export const DEFAULT_RESET_MINUTES = 30;

/** Reset links one email may be sent, and one address may ask for, within RESET_WINDOW_MS. */
export const RESETS_PER_ACCOUNT = 3;
export const RESETS_PER_ADDRESS = 10;
export const RESET_WINDOW_MS = 15 * 60_000;
/** Accounts one address may make within SIGN_UP_WINDOW_MS. */
export const SIGN_UPS_PER_ADDRESS = 10;
export const SIGN_UP_WINDOW_MS = 60 * 60_000;

/** Reads the settings; a `PUBLIC_URL` that is not an http(s) URL, or minutes that are not a whole number above 0, stop with a message. */
export function readSelfServiceConfig(env: NodeJS.ProcessEnv = process.env): SelfServiceConfig {
  const raw = (env.PUBLIC_URL ?? '').trim();
  let publicUrl: string | undefined;
  if (raw) {
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {
      // reported below
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash)
      throw new Error(`PUBLIC_URL: "${raw}" is not an http(s) URL like https://admin.example.com`);
    publicUrl = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  }
  const minutes = (env.PASSWORD_RESET_MINUTES ?? '').trim();
  const resetMinutes = minutes ? Number(minutes) : DEFAULT_RESET_MINUTES;
  if (!Number.isInteger(resetMinutes) || resetMinutes < 1) throw new Error('PASSWORD_RESET_MINUTES must be a whole number of minutes, at least 1');
  return { publicUrl, resetMinutes };
}
