/**
 * react-admin's own pages for what rarely happens (a crash, an unknown path, a refused route). They
 * load when first shown; this module exists so the dynamic import names exactly these and no more.
 */
export { AccessDenied, AuthenticationError, Error as ErrorPage, NotFound } from 'react-admin';
