/**
 * Where the client shows the accounts' self-service pages (resources/self-service.ts declares the rest),
 * in a file of its own that imports nothing: the app's first chunk names these routes, and must not
 * carry zod and the manifests for it.
 */
export const SELF_SERVICE_ROUTES = {
  signUp: '/sign-up',
  forgot: '/forgot-password',
  /** The emailed link opens `#/reset-password?token=…`. */
  reset: '/reset-password',
} as const;

/** The reset link's query parameter. */
export const RESET_TOKEN_PARAM = 'token';
