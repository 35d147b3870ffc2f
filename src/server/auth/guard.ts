/** Access from the manifest: 401 without a session, 403 for a role the operation does not name. */
import type { FastifyRequest } from 'fastify';
import type { Access, Role } from '../../manifest/index.ts';
import { HttpError } from '../errors.ts';
import type { Row } from '../db/repository.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user (as stored, hash included: never answer it directly). */
    user?: Row;
  }
}

export function allows(access: Access, role: unknown): boolean {
  return access === 'signedIn' ? typeof role === 'string' : access.includes(role as Role);
}

export function guard(access: Access) {
  return async (request: FastifyRequest) => {
    if (!request.user) throw new HttpError(401, 'Please sign in.');
    if (!allows(access, request.user.role)) throw new HttpError(403, 'Your role may not do this.');
  };
}
