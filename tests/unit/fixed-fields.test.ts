/**
 * Which fields a form shows but does not let anyone type into (src/manifest/fixed.ts): an account's
 * email is typed where the account is made (Create user, Create seller, Create dealer) and fixed in
 * the profile, which shows it (§3 "email (not changeable)"); a read-only field is fixed everywhere.
 */
import { describe, expect, it } from 'vitest';
import { PROFILE_DIALOG, users } from '../../resources/people.ts';
import { dealers, sellers } from '../../resources/accounts.ts';
import { fixedIn, formJsonSchema, makesRecord, type ResourceDef } from '../../src/manifest/index.ts';

const fieldOf = (r: ResourceDef, name: string) => r.fields.find((f) => f.name === name)!;
const readOnlyInForm = (r: ResourceDef, dialog: string, field: string) =>
  ((formJsonSchema(r, r.dialogs[dialog]).properties as Record<string, { readOnly?: boolean }>)[field]?.readOnly ?? false);

describe('fixed fields', () => {
  it('a create, or a POST action without a path parameter, makes a record', () => {
    expect(makesRecord(users.dialogs.createUser)).toBe(true);
    expect(makesRecord(sellers.dialogs.createSeller)).toBe(true);
    expect(makesRecord(users.dialogs[PROFILE_DIALOG])).toBe(false);
    expect(makesRecord(users.dialogs.updateUser)).toBe(false);
  });

  it('an account’s email is typed when it is made and fixed in the profile', () => {
    const email = fieldOf(users, 'email');
    expect(fixedIn(email, users.dialogs.createUser)).toBe(false);
    expect(fixedIn(email, users.dialogs[PROFILE_DIALOG])).toBe(true);
    expect(readOnlyInForm(users, 'createUser', 'email')).toBe(false);
    expect(readOnlyInForm(users, PROFILE_DIALOG, 'email')).toBe(true);
    for (const [r, dialog] of [[sellers, 'createSeller'], [dealers, 'createDealer']] as const) expect(readOnlyInForm(r, dialog, 'email')).toBe(false);
  });

  it('a read-only field is fixed in every form', () => {
    const inviteCode = fieldOf(users, 'inviteCode');
    expect(fixedIn(inviteCode, users.dialogs[PROFILE_DIALOG])).toBe(true);
    expect(fixedIn(inviteCode, users.dialogs.createUser)).toBe(true);
  });
});
