/**
 * The commission feature's server side: the named handlers resources/products.ts declares. Imported by
 * src/server/app.ts before the routes are registered (registering checks every name a manifest uses).
 */
import { registerHandlers } from '../../server/routes/handlers.ts';
import { productsByRole, productsForAgents, productsOfSellers } from './product-lists.ts';
import { approveCommission, createProduct, rejectCommission } from './product-writes.ts';
import { readSiteCommission, saveSiteCommission } from './site-commission.ts';

registerHandlers({
  createProduct,
  approveCommission,
  rejectCommission,
  readSiteCommission,
  saveSiteCommission,
  productsByRole,
  productsOfSellers,
  productsForAgents,
});
