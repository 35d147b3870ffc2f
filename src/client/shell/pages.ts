/**
 * The pages for what rarely happens (a crash, an unknown path, a refused route). They load when first
 * shown; this module exists so the dynamic import names exactly these and no more. The catch-all and
 * the refused route are ours (FallbackPages.tsx: the app's name, and "Access denied" for a screen the
 * role may not open); a crash and a failed sign-in check are react-admin's.
 */
export { AuthenticationError, Error as ErrorPage } from 'react-admin';
export { AccessDeniedPage as AccessDenied, NotFoundPage as NotFound } from './FallbackPages.tsx';
