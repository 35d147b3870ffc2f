/**
 * Cross-site request forgery: a browser sends the admin's session cookie with a form or fetch from any
 * site, so a state-changing request is refused (403) unless it comes from the app's own origin or one
 * the settings allow (`ALLOWED_ORIGINS`). Browsers tell where a request comes from in `Origin` (sent on
 * every POST, PUT, PATCH and DELETE) or, failing that, `Sec-Fetch-Site`. A request with neither is
 * not a browser's (curl, another server) and carries no ambient cookie of a victim, so it passes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

/** Methods that change nothing, never checked. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `scheme://host[:port]` in the form browsers send (lower case, default port left out), or undefined when it is not one. */
export function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Parses `ALLOWED_ORIGINS` (comma-separated origins such as `https://admin.example.com`); a value that
 * is not an http(s) origin stops the server at start rather than being silently ignored.
 */
export function parseAllowedOrigins(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const origin = originOf(part);
      const url = origin && new URL(part);
      if (!url || url.pathname !== '/' || url.search || url.hash || url.username || url.password)
        throw new Error(`ALLOWED_ORIGINS: "${part}" is not an origin like https://admin.example.com (scheme and host, no path)`);
      return origin;
    });
}

/** The app's own origin as this request reached it (with TRUST_PROXY, as the proxy says it was asked). */
function ownOrigin(request: FastifyRequest): string | undefined {
  return request.host ? originOf(`${request.protocol}://${request.host}`) : undefined;
}

/** Why a request is refused as cross-site, or undefined when it may go ahead. */
export function crossSiteRefusal(request: FastifyRequest, allowed: ReadonlySet<string>): string | undefined {
  if (SAFE_METHODS.has(request.method)) return undefined;
  const origin = request.headers.origin;
  if (origin !== undefined) {
    const normal = originOf(origin);
    if (normal && (normal === ownOrigin(request) || allowed.has(normal))) return undefined;
    const shown = origin.length > 100 ? `${origin.slice(0, 100)}…` : origin;
    return `Cross-site request refused: origin ${shown} may not change data here.`;
  }
  // No Origin (older browsers): the browser still says whether the request left another site.
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site')
    return 'Cross-site request refused: requests from another site may not change data here.';
  return undefined;
}

/** Refuses cross-site state-changing requests with 403, before their body is read or anything is written. */
export function refuseCrossSiteWrites(app: FastifyInstance, allowedOrigins: readonly string[] = []) {
  const allowed = new Set(allowedOrigins.map((o) => originOf(o) ?? o));
  // A callback hook: it runs on every request, and a promise per request is measurable.
  app.addHook('onRequest', (request, _reply, done) => {
    const refusal = crossSiteRefusal(request, allowed);
    done(refusal ? new HttpError(403, refusal) : undefined);
  });
}
