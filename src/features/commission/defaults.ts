/**
 * The site commission's five percentages before an admin saves any (a database seeded before products
 * existed has no site commission record): what `GET /site-commissions/` answers and a new product
 * starts with until then. Each is at least 1 (spec §9).
 */
import type { CommissionField } from '../../domain/commission.ts';

export const DEFAULT_SITE_COMMISSION: Readonly<Record<CommissionField, number>> = Object.freeze({
  siteCommission: 5,
  dealerSiteCommission: 2,
  agentSiteCommission: 2,
  ageentFormDealerCommission: 1,
  dealerCommissionFromSeller: 1,
});

/** The name of the one site commission record. */
export const SITE_COMMISSION_NAME = 'default';
