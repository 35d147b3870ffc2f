/**
 * Agents' handlers (resources/accounts.ts): an agent is a profile and an account, written together.
 * - `createAgentWithAccount` (`POST /agents`): the account (role agent, no password: it cannot sign in
 *   until an admin issues a one-time password) and the profile, in one transaction;
 * - `updateAgentWithAccount` (`PATCH /agents/{id}`): the profile, and its name, email and country on
 *   the account too, so the agent signs in with the email the admin sees;
 * - `publicAgent` (`GET /agents/public/?agentId=`): an agent found by its public id, as the agent
 *   slider shows one (spec §3), for any signed-in user.
 */
import { findBy, type Row } from '../db/repository.ts';
import { ACCOUNTS } from '../records/ownership.ts';
import { badRequest, notFound, VALIDATION_FAILED } from '../errors.ts';
import type { Handler } from '../routes/handlers.ts';
import { newInviteCode } from './invite-code.ts';

/** What the public agent lookup answers: the agent slider's fields (spec §3), nothing private. */
export const PUBLIC_AGENT_FIELDS = ['id', 'name', 'image', 'country', 'city', 'district', 'agentId'] as const;

export const AGENT_MESSAGES = {
  agentIdRequired: 'agentId is required.',
} as const;

export const createAgentWithAccount: Handler = async ({ records, resource: agents, reply, body }) => {
  const agent = await records.transaction(async (tx) => {
    // The account first: an email another account holds is refused here (409, under `email`).
    const account = await tx.create(ACCOUNTS, { name: body.name, email: body.email, role: 'agent', country: body.country, inviteCode: newInviteCode() });
    return tx.create(agents, { ...body, userId: account.id });
  });
  reply.code(201);
  return agent;
};

export const updateAgentWithAccount: Handler = async ({ records, resource: agents, params, body, record, ifMatch }) => {
  const current = record ?? (await records.reachable(agents, params.id));
  return records.transaction(async (tx) => {
    const updated = await tx.update(agents, String(current.id), body, { ifMatch });
    if (typeof current.userId === 'string') {
      const mirrored: Row = {};
      for (const key of ['name', 'email', 'country'] as const) if (key in body) mirrored[key] = body[key];
      await tx.update(ACCOUNTS, current.userId, mirrored);
    }
    return updated;
  });
};

export const publicAgent: Handler = async ({ db, resource: agents, query }) => {
  const agentId = typeof query.agentId === 'string' ? query.agentId.trim() : '';
  if (!agentId || agentId.length > 255)
    throw badRequest(VALIDATION_FAILED, { agentId: [AGENT_MESSAGES.agentIdRequired] });
  const row = await findBy(db, agents, 'agentId', agentId);
  if (!row) throw notFound(`${agents.label} not found.`);
  return Object.fromEntries(PUBLIC_AGENT_FIELDS.map((f) => [f, row[f] ?? null]));
};
