/**
 * Agents, dealers, sellers and their documents: the handlers resources/accounts.ts names. Importing this
 * module registers them (app.ts imports it before the manifest's routes are made).
 */
import type { Handlers } from '../routes/handlers.ts';
import { createAgentWithAccount, publicAgent, updateAgentWithAccount } from './agents.ts';
import { createDealerWithAccount, createSellerWithAccount, createUserAccount } from './create.ts';
import { documentsOfAgent, documentsOfDealer, resubmitDocument } from './documents.ts';
import { replaceAgent, replaceDealer } from './replace.ts';

export const accountsHandlers = {
  createAgentWithAccount,
  createSellerWithAccount,
  createDealerWithAccount,
  createUserAccount,
  updateAgentWithAccount,
  publicAgent,
  documentsOfAgent,
  documentsOfDealer,
  resubmitDocument,
  replaceAgent,
  replaceDealer,
} satisfies Handlers;
