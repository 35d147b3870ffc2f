/**
 * `POST /api/auth/signup` (resources/self-service.ts): a person makes a buyer's account for themselves,
 * with the referral code a link brought (`bhrfc`, spec §7's wire name) when there is one: the account is
 * then recorded as referred by the code's holder (`users.referredBy`, as `POST /affiliate` records it),
 * in the same transaction. Written through the records service (hashed password, unique email: 409
 * under `email`, audited with the new account as the actor). No session is started: the client signs
 * in with the same email and password, so signing in stays one path with its limits.
 * An address may make SIGN_UPS_PER_ADDRESS accounts an hour (429 after).
 */
import type { FastifyInstance } from 'fastify';
import { SIGN_UP_PATH, SIGN_UP_ROLE, signUpBody } from '../../../resources/self-service.ts';
import { affiliateMessages } from '../../../resources/referrals.ts';
import { issuesByField, type Registry } from '../../manifest/index.ts';
import type { Db } from '../db/types.ts';
import { badRequest, VALIDATION_FAILED } from '../errors.ts';
import { newInviteCode } from '../accounts/invite-code.ts';
import { RecordsService } from '../records/service.ts';
import { ACCOUNTS } from '../records/ownership.ts';
import { addressKey, WindowCounter } from './limiter.ts';
import { SIGN_UP_WINDOW_MS, SIGN_UPS_PER_ADDRESS } from './self-service-config.ts';
import { tooMany } from './too-many.ts';

export const TOO_MANY_SIGN_UPS = 'Too many sign-ups from this address.';

export function registerSignUp(app: FastifyInstance, db: Db, registry: Registry) {
  const users = registry.resource(ACCOUNTS);
  const perAddress = new WindowCounter(SIGN_UPS_PER_ADDRESS, SIGN_UP_WINDOW_MS);

  app.post(SIGN_UP_PATH, async (request, reply) => {
    const address = addressKey(request.ip);
    const wait = perAddress.waitFor(address);
    if (wait > 0) return tooMany(reply, wait, TOO_MANY_SIGN_UPS);
    const parsed = signUpBody.safeParse(request.body ?? {});
    if (!parsed.success) throw badRequest(VALIDATION_FAILED, issuesByField(parsed.error));
    // Counted before the write, so a parallel burst is held to the limit too.
    perAddress.take(address);
    const { name, email, password, bhrfc } = parsed.data;
    const records = new RecordsService({
      db,
      registry,
      // Nobody is signed in: the audit entry names the account being made by its email.
      actor: { id: null, email, role: SIGN_UP_ROLE },
      hostRoot: `${request.protocol}://${request.host}/`,
      invalidate: (table) => app.readCache?.invalidate(table),
    });
    const account = await records.transaction(async (tx) => {
      let referredBy: string | null = null;
      if (bhrfc) {
        // Two holders of one code name nobody for sure: refused like an unknown code (as `POST /affiliate`).
        const holders = await tx.db.selectFrom(ACCOUNTS).select('id').where('inviteCode', '=', bhrfc).limit(2).execute();
        if (holders.length !== 1) throw badRequest(VALIDATION_FAILED, { bhrfc: [affiliateMessages.unknownCode] });
        referredBy = String(holders[0].id);
      }
      return tx.create(users, { name, email, password, role: SIGN_UP_ROLE, inviteCode: newInviteCode(), referredBy });
    });
    reply.code(201);
    return account;
  });
}
