/**
 * Admin creation of sellers, dealers and plain accounts (issue 51), as agents are made (./agents.ts):
 * the account and its profile in one transaction, the account with a fresh invite code and no password
 * yet. Its owner gets one by a one-time password the admin issues (login details) or by "Forgot
 * password?" (src/server/auth/password-reset.ts); until then nobody can sign in to it.
 * - `createSellerWithAccount` (`POST /sellers`): the account (role seller, named after the shop) and the shop;
 * - `createDealerWithAccount` (`POST /dealers`): the account (role dealer) and the dealer's profile;
 * - `createUserAccount` (`POST /users/create`): an account of a role without a profile (admin, buyer,
 *   support); the dialog's `only` (resources/people.ts) refuses agents, dealers and sellers before this
 *   runs, as their own lists make their profiles with them.
 */
import { accountEmail, INVALID_EMAIL } from '../../../resources/accounts.ts';
import type { ResourceDef } from '../../manifest/index.ts';
import { ACCOUNTS } from '../records/ownership.ts';
import { badRequest, VALIDATION_FAILED } from '../errors.ts';
import type { RecordsService } from '../records/service.ts';
import type { Handler } from '../routes/handlers.ts';
import { newInviteCode } from './invite-code.ts';

type Body = Record<string, unknown>;

/** The account (first: an email another account holds is refused here, 409 under `email`), then the profile. */
async function withAccount(records: RecordsService, profiles: ResourceDef, role: 'seller' | 'dealer', name: unknown, body: Body) {
  return records.transaction(async (tx) => {
    const account = await tx.create(ACCOUNTS, { name, email: body.email, role, country: body.country ?? null, inviteCode: newInviteCode() });
    return tx.create(profiles, { ...body, userId: account.id });
  });
}

export const createSellerWithAccount: Handler = async ({ records, resource: sellers, reply, body }) => {
  const seller = await withAccount(records, sellers, 'seller', body.shopname, body);
  reply.code(201);
  return seller;
};

export const createDealerWithAccount: Handler = async ({ records, resource: dealers, reply, body }) => {
  const dealer = await withAccount(records, dealers, 'dealer', body.name, body);
  reply.code(201);
  return dealer;
};

export const createUserAccount: Handler = async ({ records, resource: users, reply, body }) => {
  // The profile's rule (§5: "email at least 2") is all the field declares; an account made here must be
  // one its owner can be emailed at (a one-time password, a reset link), as an agent's must.
  const email = accountEmail(5).safeParse(body.email);
  if (!email.success) throw badRequest(VALIDATION_FAILED, { email: [INVALID_EMAIL] });
  const account = await records.create(users, { ...body, email: email.data, inviteCode: newInviteCode() });
  reply.code(201);
  return account;
};
