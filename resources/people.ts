/**
 * People: the accounts of every role (spec §3 User profile, §5 Profile, §6 Roles, §7 Profile). Agents,
 * dealers and sellers have profile records of their own (resources/accounts.ts) pointing here by
 * `userId`; this is where signing in, the profile form and the account's state live.
 */
import { z } from 'zod';
import { ROLES, defineResource, dialog, field, operation, read, rules, type Role } from '../src/manifest/index.ts';

/** An account's state: a disabled account cannot sign in, and its sessions end when it is disabled. */
export const USER_STATUS = ['ACTIVE', 'DISABLED'] as const;

/** Spec §5 (replacement) and §9: a password has 6 to 12 characters, with these exact messages (spelled so). */
export const PASSWORD_MESSAGES = {
  short: 'Password is so week. Please enter minimum 6 letter.',
  long: 'Password is so big, Please enter password maximum 12 letters.',
} as const;

/**
 * The rule of every password a person chooses (a replacement's, a new one after a one-time password).
 * Not trimmed: spaces are characters of a password like any other.
 */
export const passwordRule = z
  .string({ error: PASSWORD_MESSAGES.short })
  .min(6, PASSWORD_MESSAGES.short)
  .max(12, PASSWORD_MESSAGES.long);

/**
 * Where a signed-in account sends its new password (`{ password, currentPassword? }`): outside the admin
 * base, beside sign-in (src/server/auth/password-change.ts serves it; the client's "Choose a new
 * password" screen calls it).
 */
export const PASSWORD_CHANGE_PATH = '/api/auth/password';

/**
 * The roles whose people have a profile besides the account (resources/accounts.ts): they are created
 * from their own lists (Create agent, Create dealer, Create seller), which make both together.
 */
export const PROFILE_ROLES = ['agent', 'dealer', 'seller'] as const;

/** What `createUser` is told beyond its fields' rules. */
export const CREATE_USER_MESSAGES = {
  profileRole: 'Agents, dealers and sellers are created from their own lists, with their profiles.',
} as const;

const [firstAccountRole, ...otherAccountRoles] = ROLES.filter((r) => !(PROFILE_ROLES as readonly Role[]).includes(r));
/**
 * The roles "Create user" offers and the server accepts there (its `only`): every role without a
 * profile (admin, buyer, support staff).
 */
export const ACCOUNT_ONLY_ROLES: readonly [Role, ...Role[]] = [firstAccountRole!, ...otherAccountRoles];

/** The profile dialog's type (spec §2), opened from the account menu. */
export const PROFILE_DIALOG = 'user-profile-details-modal';

/** An optional reference: empty means none, stored as null (not as an empty id). */
const optionalReference = z
  .union([z.string().trim(), z.null()])
  .optional()
  .transform((v) => (v === '' ? null : v));

export const users = defineResource({
  name: 'users',
  label: 'User',
  plural: 'Users',
  access: { read: ['admin'], write: ['admin'] },
  menu: { group: 'People', icon: 'People' },
  fields: [
    // §5 Profile: name at least 2, email at least 2, whatsapp at least 2, image at least 2,
    // designation at least 3, inviteCode optional. The spec gives no texts for these; ours say what is missing.
    field.text('name', { rule: rules.text(2, 'Name is required!'), list: true, searchable: true }),
    // The login. Typed when an admin creates the account; shown in the profile but never changed there
    // (§3: "email (not changeable)").
    field.email('email', { rule: rules.text(2, 'Email is required!'), list: true, searchable: true, unique: true, setOnce: true }),
    field.select('role', ROLES, {
      rule: z.enum(ROLES, { error: 'Role is required!' }),
      list: true,
      choices: [
        { value: 'admin', label: 'Admin' },
        { value: 'seller', label: 'Seller' },
        { value: 'dealer', label: 'Dealer' },
        { value: 'agent', label: 'Agent' },
        { value: 'user', label: 'Buyer' },
        { value: 'support', label: 'Support staff' },
      ],
    }),
    field.select('status', USER_STATUS, {
      rule: z.enum(USER_STATUS, { error: 'Status must be ACTIVE or DISABLED.' }),
      list: true,
      choices: [
        { value: 'ACTIVE', label: 'Active', tone: 'success' },
        { value: 'DISABLED', label: 'Disabled', tone: 'error' },
      ],
      // Accounts written before the state existed (and seeded ones) hold none: they are active.
      createdWith: 'ACTIVE',
      emptyShownAs: 'ACTIVE',
    }),
    // The dealer a seller (or agent) works under: the team a dealer reaches through `access.owner` (types.ts).
    field.reference('dealerId', 'users', { label: 'Dealer', list: true, rule: optionalReference }),
    // Who brought this account in (the affiliate call, spec §7): the referral tree of `/flowchart/*`.
    field.reference('referredBy', 'users', { label: 'Referred by' }),
    field.image('image', {
      rule: rules.text(2, 'Image is required!').refine((v) => rules.webUrl('').safeParse(v).success, 'Image is required!'),
      upload: { endpoint: 'profilepics' },
    }),
    field.text('whatsapp', { label: 'WhatsApp', rule: rules.text(2, 'WhatsApp number is required!') }),
    field.reference('country', 'countries', { by: 'code', rule: rules.optionalText() }),
    field.text('designation', { rule: rules.text(3, 'Designation is required!') }),
    // Shown in the profile but never changed there (§3: "inviteCode (not changeable)").
    field.text('inviteCode', { label: 'Invite code', readOnly: true, unique: true, rule: rules.optionalText() }),
    // Set when an admin issues a one-time password: until the owner chooses a new one, the account may
    // do nothing else (src/server/auth/password-change.ts). Only the server writes it.
    field.boolean('mustChangePassword', { label: 'Must change password', list: true }),
    field.password('password', { rule: passwordRule }),
  ],
  reads: {
    list: read.list('GET /users'),
    one: read.one('GET /users/{id}'),
    current: read.self('GET /getcurrentuser', { access: 'signedIn' }),
  },
  dialogs: {
    // The signed-in user's own profile (§7 "PATCH /users with the profile fields"). Email and invite
    // code are sent as shown; the server refuses a change to either (src/server/users/profile.ts).
    [PROFILE_DIALOG]: dialog.action({
      title: 'Profile',
      pick: ['name', 'email', 'image', 'whatsapp', 'country', 'designation', 'inviteCode'],
      call: 'PATCH /users',
      handler: 'updateProfile',
      access: 'signedIn',
      success: 'Profile updated successfully.',
      failure: 'unable to update profile',
    }),
    // Ours (issue 51): an admin makes an account (an admin, a buyer, support staff) with no password yet:
    // the owner gets one by a one-time password or "Forgot password?". Not `POST /users`: the spec
    // mutates that path with PATCH only (the profile).
    createUser: dialog.action({
      title: 'Create user',
      pick: ['name', 'email', 'role', 'dealerId'],
      only: { role: { values: ACCOUNT_ONLY_ROLES, message: CREATE_USER_MESSAGES.profileRole } },
      call: 'POST /users/create',
      handler: 'createUserAccount',
      success: 'User created successfully.',
      failure: 'Unable to create user!',
    }),
    // The admin's: role, team and state. Disabling ends the account's sessions at once
    // (src/server/users/account-update.ts).
    updateUser: dialog.update({
      pick: ['role', 'dealerId', 'status'],
      call: 'PATCH /users/{id}',
      success: 'User updated successfully.',
      failure: 'Unable to update user!',
    }),
    // Spec §2: an account's login, a link to its role's area and "Issue a one-time password". The view
    // reads the account from the row's `userId`, or takes the row itself on the Users screen (whose
    // Details is this first one). The spec's two are declared here, on the accounts, and offered on the
    // agents' and sellers' rows (their `list.rowDialogs`).
    userLoginDetails: dialog.details({ title: 'Login details', show: ['email'], view: 'loginDetails' }),
    'agent-login-details': dialog.details({ title: 'Agent login details', show: ['email'], view: 'loginDetails' }),
    'seller-login-details': dialog.details({ title: 'Seller login details', show: ['email'], view: 'loginDetails' }),
  },
  operations: {
    // Answers the new password once; the owner gets it by email and must replace it at the next sign-in.
    issueOneTimePassword: operation('POST /users/{id}/one-time-password', 'issueOneTimePassword', {
      access: ['admin'],
      // It answers the account (`id`): its owner reads this once signed in with the new password.
      notify: {
        to: { field: 'id' },
        title: 'Password reset',
        message: 'An administrator issued a one-time password for your account. If you did not ask for it, tell the marketplace team.',
        type: 'warning',
        category: 'account',
      },
    }),
  },
});
