/**
 * The commission feature's server side: the named handlers resources/products.ts declares. Imported by
 * src/server/app.ts before the routes are registered (registering checks every name a manifest uses).
 */
import type { Handlers } from '../../server/routes/handlers.ts';
import { productsByRole, productsForAgents, productsOfSellers } from './product-lists.ts';
import { approveCommission, rejectCommission } from './product-writes.ts';
import { readSiteCommission, saveSiteCommission } from './site-commission.ts';

export const commissionHandlers = {
  approveCommission,
  rejectCommission,
  readSiteCommission,
  saveSiteCommission,
  productsByRole,
  productsOfSellers,
  productsForAgents,
} satisfies Handlers;
