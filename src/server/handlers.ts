/**
 * Every named server handler, gathered in one map from the modules that own them. Manifests name them
 * (`handler: 'createAgentWithAccount'`) and the checker holds those names to this map's keys (see
 * src/manifest/handlers.ts); the routes are given this map (app.ts), so nothing registers itself by
 * being imported.
 */
import type { Handler, Handlers } from './routes/handlers.ts';
import { accountsHandlers } from './accounts/index.ts';
import { emailHandlers } from './email/index.ts';
import { referralsHandlers } from './front/referrals.ts';
import { videoHandlers } from './front/videos.ts';
import { uploadsHandlers } from './uploads/index.ts';
import { usersHandlers } from './users/index.ts';
import { commissionHandlers } from '../features/commission/server.ts';
import { notificationsHandlers } from '../features/notifications/server/index.ts';
import { pushHandlers } from '../features/push/server/index.ts';
import { cartHandlers } from '../features/cart/server.ts';
import { checkoutHandlers } from '../features/checkout/server.ts';
import { ledgerHandlers } from '../features/checkout/ledger.ts';
import { auctionHandlers } from '../features/auctions/server.ts';
import { supportHandlers } from '../features/support/server.ts';
import { jobHandlers } from '../features/jobs/server.ts';

/** `POST /recycle-bin/{id}/restore`: the records service puts the entry's record back. */
const restoreFromBin: Handler = ({ records, params }) => records.restore(params.id);

export const namedHandlers = {
  restoreFromBin,
  ...accountsHandlers,
  ...emailHandlers,
  ...referralsHandlers,
  ...videoHandlers,
  ...uploadsHandlers,
  ...usersHandlers,
  ...commissionHandlers,
  ...notificationsHandlers,
  ...pushHandlers,
  ...cartHandlers,
  ...checkoutHandlers,
  ...ledgerHandlers,
  ...auctionHandlers,
  ...supportHandlers,
  ...jobHandlers,
} satisfies Handlers;

declare module '../manifest/handlers.ts' {
  interface HandlerNames extends Record<keyof typeof namedHandlers, true> {}
}
