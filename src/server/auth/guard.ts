/** Access from the manifest: 401 without a session, 403 for a role the operation does not name. */
import type { FastifyRequest } from 'fastify';
import { allows, authorize, type Access, type Action, type ResourceDef } from '../../manifest/index.ts';
import { HttpError } from '../errors.ts';
import type { Row } from '../db/types.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user (as stored, hash included: never answer it directly). */
    user?: Row;
  }
}

/**
 * The route's guard: 401 without a session, 403 unless `authorize` (src/manifest/authorize.ts, the one
 * access decision the client asks too) allows the user's role `action` on `resource`.
 */
export function guardFor(resource: ResourceDef, action: Action) {
  return async (request: FastifyRequest) => {
    if (!request.user) throw new HttpError(401, 'Please sign in.');
    if (!authorize(request.user, resource, action).allowed) throw new HttpError(403, 'Your role may not do this.');
  };
}

/** The same for a route no resource declares (the API's documentation): `access` alone decides. */
export function guard(access: Access) {
  return async (request: FastifyRequest) => {
    if (!request.user) throw new HttpError(401, 'Please sign in.');
    if (!allows(access, request.user.role)) throw new HttpError(403, 'Your role may not do this.');
  };
}
