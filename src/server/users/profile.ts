/**
 * `PATCH /users` (user-profile-details-modal): the signed-in user changes its own profile. The body
 * was judged by the dialog's strict schema (unknown fields refused); email and invite code may be sent
 * as the form shows them, but a value other than the stored one is refused: neither is changeable (§3).
 */
import { badRequest, HttpError, VALIDATION_FAILED } from '../errors.ts';
import { findBy } from '../db/repository.ts';
import type { Handler } from '../routes/handlers.ts';

/** The fields shown in the profile that it never changes, and what a changed value is told. */
export const UNCHANGEABLE = { email: 'Email cannot be changed.', inviteCode: 'Invite code cannot be changed.' } as const;

/** A stored or sent value compared as the profile shows it: absent and empty alike, email in any case. */
const shown = (name: string, value: unknown) => {
  const text = value === null || value === undefined ? '' : String(value).trim();
  return name === 'email' ? text.toLowerCase() : text;
};

export const updateProfile: Handler = async ({ db, records, resource, request, body }) => {
  const id = request.user?.id;
  if (typeof id !== 'string') throw new HttpError(401, 'Please sign in.');
  const current = await findBy(db, resource, 'id', id);
  if (!current) throw new HttpError(401, 'Please sign in.');
  const errors: Record<string, string[]> = {};
  const changes: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (name in UNCHANGEABLE) {
      if (shown(name, value) !== shown(name, current[name])) errors[name] = [UNCHANGEABLE[name as keyof typeof UNCHANGEABLE]];
    } else changes[name] = value;
  }
  if (Object.keys(errors).length) throw badRequest(VALIDATION_FAILED, errors);
  return records.update(resource, id, changes);
};
