/**
 * Replacing an agent or a dealer (spec §5 "Replacement", §7 `PATCH /agents/replace/{id}`,
 * `PATCH /dealers/replace/{id}`): the account is handed to a new person. In one transaction:
 * - the account takes the new name, email, image and password (hashed by the write; the old password
 *   stops working), and must choose a password of its own at its next sign-in, as the admin knows this one;
 * - the profile takes the new name (its public id is made again from it), email and image;
 * - every session of the account ends (the old person's next request answers 401);
 * - the replacement is recorded (resources/accounts.ts `accountReplacements`): from whom, to whom.
 * Then the new person is emailed how to sign in (never the password: the admin tells it).
 */
import type { FastifyRequest } from 'fastify';
import { findBy, type Row } from '../db/repository.ts';
import { ACCOUNTS } from '../records/ownership.ts';
import { endSessionsOf } from '../auth/sessions.ts';
import { sendEmail } from '../email/send.ts';
import { conflict } from '../errors.ts';
import type { Handler } from '../routes/handlers.ts';

/** What the email history files these emails under. */
export const REPLACEMENT_EMAIL_KIND = 'account-replaced';

/** Where each role works on the product host (spec §2: agent-login-details links to /agent). */
const AREA: Record<Role, string> = { agent: 'agent', dealer: 'dealer' };

type Role = 'agent' | 'dealer';

export function replacementEmail(role: Role, name: string, email: string, signIn: string) {
  return {
    subject: `You have been given a ${role} account`,
    text: [
      `Hello ${name},`,
      '',
      `The marketplace has handed its ${role} account to you. Sign in at ${signIn} with`,
      `your email address ${email} and the password the administrator gave you.`,
      'You will be asked to choose a password of your own straight away.',
      '',
      'If you did not expect this, tell the marketplace team.',
    ].join('\n'),
  };
}

/** The handler replacing the person behind a profile of `profiles` (agents or dealers), of `role`. */
function replaceHandler(profiles: 'agents' | 'dealers', role: Role): Handler {
  return async ({ db, registry, records, resource: replacements, request, params, body }) => {
    const users = registry.resource(ACCOUNTS);
    const profileResource = registry.resource(profiles);
    const profile = await records.reachable(profileResource, params.id);
    const userId = profile.userId;
    if (typeof userId !== 'string') throw conflict(`This ${role} has no account to hand over.`);
    const { name, image, email, password } = body as { name: string; image: string; email: string; password: string };

    const replaced = await records.transaction(async (tx) => {
      const before = await findBy(tx.db, users, 'id', userId);
      if (!before) throw conflict(`This ${role} has no account to hand over.`);
      await tx.update(users, userId, { name, email, image, password, mustChangePassword: true });
      const mirrored: Row = { name, image, ...(profileResource.fields.some((f) => f.name === 'email') ? { email } : {}) };
      const updated = await tx.update(profileResource, String(profile.id), mirrored);
      await tx.create(replacements, { name, image, email, role, account: userId, previousName: before.name ?? null, previousEmail: before.email ?? null });
      await endSessionsOf(tx.db, userId);
      return updated;
    });

    const mail = replacementEmail(role, name, email, signInOf(request, role));
    await sendEmail(db, { to: email, ...mail, kind: REPLACEMENT_EMAIL_KIND });
    return replaced;
  };
}

function signInOf(request: FastifyRequest, role: Role): string {
  return `${request.protocol}://${request.host}/${AREA[role]}`;
}

export const replaceAgent = replaceHandler('agents', 'agent');
export const replaceDealer = replaceHandler('dealers', 'dealer');
