/**
 * The accounts' own flows: the profile form and one-time passwords. Importing this module registers
 * their handlers (app.ts imports it before the manifest's routes are made); the admin's account
 * update is watched from registerAuth (./account-update.ts).
 */
import type { Handlers } from '../routes/handlers.ts';
import { issueOneTimePassword } from './one-time-password.ts';
import { updateProfile } from './profile.ts';

// The names resources/people.ts gives these handlers.
export const usersHandlers = { updateProfile, issueOneTimePassword } satisfies Handlers;
