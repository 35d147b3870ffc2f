/**
 * Record versions on the wire (docs/architecture.md: "Records carry a version: one-record reads send an ETag; an
 * update with a stale If-Match gets 412"). The version itself is kept by the writes (`records/writes.ts`).
 */
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../errors.ts';

/** A record's version as an entity tag: `"3"`. One-record reads send it; updates take it back in `If-Match`. */
export const etagOf = (version: unknown) => `"${Number(version ?? 1)}"`;

/**
 * The version an update was made against (`If-Match: "3"`, weak tags too), or undefined when the request
 * sends none or `*` (the specification's callers send none, and keep working: last write wins).
 */
export function ifMatchOf(request: FastifyRequest): number | undefined {
  const raw = request.headers['if-match'];
  if (raw === undefined || raw.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,15})"?\s*$/.exec(raw);
  if (!match) throw badRequest(`Malformed If-Match header: expected a version such as "3".`);
  return Number(match[1]);
}
