/**
 * Input no engine can store, refused for every route at once. PostgreSQL's `text` cannot hold the NUL
 * character (U+0000): a path parameter, a query value or a body string holding one would fail in the
 * database (a 500), while SQLite would store it. So no request carrying one gets past validation, on
 * either engine, whatever route it is for. The same goes for a Host header no URL can hold: the host
 * becomes stored text too. The router's own limits are here as well: how long a path parameter may be,
 * and how a path it cannot read is answered.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_TEXT } from '../manifest/rules.ts';
import { SLUG_STAMP_MAX_LENGTH } from '../domain/slug.ts';
import { badRequest, VALIDATION_FAILED } from './errors.ts';

/** What a request holding a NUL character is told, under the parameter or field that held it. */
export const NUL_MESSAGE = 'Text may not contain the NUL character (\\u0000).';

/**
 * Whether `value` holds a NUL character in any string or object key, however deeply nested. Walked
 * with a stack of its own, so a body nested thousands deep cannot overflow the call stack.
 */
export function hasNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      const object = v as Record<string, unknown>;
      for (const key of Object.keys(object)) {
        if (key.includes('\u0000')) return true;
        stack.push(object[key]);
      }
    }
  }
  return false;
}

/** The top-level names (a parameter, a query key, a body field) whose values hold a NUL character. */
function namesWithNul(values: unknown): string[] {
  if (values === null || typeof values !== 'object' || Array.isArray(values)) return hasNul(values) ? ['_'] : [];
  return Object.entries(values)
    .filter(([key, value]) => key.includes('\u0000') || hasNul(value))
    .map(([key]) => key);
}

/** What a request naming a host no URL can hold is told. */
export const HOST_MESSAGE = 'Malformed Host header.';

/**
 * A host as a URL holds it: a name or an IPv4 address, or an IPv6 address in brackets, and a port.
 * The host a request names becomes stored text (a banner's empty link is the host's root URL), so
 * anything stranger is refused rather than written, and anything longer than leaves its root URL
 * (`https://<host>/`) within a short text field's MAX_TEXT.
 */
const HOST = /^(?:[a-z0-9._~-]{1,253}|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i;
const MAX_HOST = MAX_TEXT - 'https:///'.length;

/**
 * The longest value a path parameter may hold, decoded: a text field's MAX_TEXT, and what a generated
 * slug adds to a name of that length (its stamp). Fastify's default, 100, made its router answer 414 to
 * the slug of any name of about 90 characters before a route ran.
 */
export const MAX_PARAM_LENGTH = MAX_TEXT + SLUG_STAMP_MAX_LENGTH;

/** What a path that cannot be percent-decoded (`/products/%ff`) is told. */
export const BAD_URL_MESSAGE = 'Malformed URL: its path is not valid percent-encoded UTF-8.';
/** What a path parameter longer than MAX_PARAM_LENGTH is told. */
export const LONG_PARAM_MESSAGE = `A value in the URL's path is longer than ${MAX_PARAM_LENGTH} characters.`;

/**
 * Fastify's `frameworkErrors`: the router's refusals, made before any route or hook runs, in the
 * app's own answer (`{ message }`) rather than Fastify's (`{ error, code, message, statusCode }`).
 */
export function routerRefusal(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return reply.code(414).send({ message: LONG_PARAM_MESSAGE });
  if (error.code === 'FST_ERR_BAD_URL') return reply.code(400).send({ message: BAD_URL_MESSAGE });
  return reply.send(error);
}

/**
 * Refuses, for every route, a request whose path parameters, query or parsed body hold a NUL
 * character (400, by the name that held it), or whose host is not one a URL can hold.
 */
export function guardInput(app: FastifyInstance) {
  // A callback hook: it runs on every request, and a promise per request is measurable.
  app.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
    if (request.host && (request.host.length > MAX_HOST || !HOST.test(request.host))) return done(badRequest(HOST_MESSAGE));
    // Almost every request holds none: found so without making the lists of names below.
    if (!hasNul(request.params) && !hasNul(request.query) && !hasNul(request.body)) return done();
    const names = [...namesWithNul(request.params), ...namesWithNul(request.query), ...namesWithNul(request.body)];
    if (!names.length) return done();
    const errors: Record<string, string[]> = Object.create(null);
    for (const name of names) errors[name] = [NUL_MESSAGE];
    done(badRequest(VALIDATION_FAILED, errors));
  });
}
