/**
 * What an account's stored state means for signing in: disabled accounts are shut out, and an account
 * given a one-time password must choose a new one before anything else. Stored rows of accounts made
 * before these fields existed hold null: active, nothing to change.
 */
import type { Row } from '../db/types.ts';
import { fromStoredBoolean } from '../db/repository.ts';

/** What signing in to a disabled account is told (after its password was found right). */
export const DISABLED_MESSAGE = 'This account is disabled.';
/** What every API call but the few of `MAY_CALL_BEFORE_CHANGE` is told while a new password is due. */
export const MUST_CHANGE_MESSAGE = 'Please choose a new password.';

export const isDisabled = (user: Row | undefined): boolean => user?.status === 'DISABLED';
export const mustChangePassword = (user: Row | undefined): boolean => fromStoredBoolean(user?.mustChangePassword) === true;
