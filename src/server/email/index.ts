/**
 * Email: sending and its history. Importing this module registers the history's handler (app.ts
 * imports it before the manifest's routes are made).
 */
import type { Handlers } from '../routes/handlers.ts';
import { emailHistoryStats } from './stats.ts';

export { MASK, maskSecrets, onEmailRecorded, sendEmail, type Mail } from './send.ts';
export { closeTransports } from './transport.ts';

// The name resources/email.ts gives the stats operation's handler.
export const emailHandlers = { emailHistoryStats } satisfies Handlers;
