/**
 * The products' hooks (resources/products.ts `hooks`), run by the records service in the write's
 * transaction: empty lower category levels are stored as absent (that they form one branch of the tree
 * is their `dependsOn` declaration's, checked by the records service), and a new product starts
 * with the site commission's five percentages of that moment (its status PENDING by `createdWith`; its
 * main sell price computed from them). Manifests load in the browser: this module reads through the
 * hook's context and imports no server code.
 */
import { COMMISSION_FIELDS, type CommissionField } from '../../domain/commission.ts';
import type { BeforeChangeArgs, HookContext, ResourceHooks, StoredRow } from '../../manifest/hooks.ts';
import { DEFAULT_SITE_COMMISSION, SITE_COMMISSION_NAME } from './defaults.ts';

/** The category levels of a product, top first. */
const LEVELS = ['category', 'childCategory', 'subCategory', 'subChildCategory'] as const;
const SITE_COMMISSIONS = 'siteCommissions';

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** The five percentages a product created now starts with: the site commission's, or the built-in ones. */
async function sitePercentages(find: HookContext['find']): Promise<Record<CommissionField, number>> {
  const current = await find(SITE_COMMISSIONS, 'name', SITE_COMMISSION_NAME);
  const out = {} as Record<CommissionField, number>;
  for (const field of COMMISSION_FIELDS) {
    const value = Number(current?.[field]);
    // A stored value is one the field's rule took; a missing one falls back to the built-in.
    out[field] = Number.isFinite(value) ? value : DEFAULT_SITE_COMMISSION[field];
  }
  return out;
}

async function beforeChange(args: BeforeChangeArgs): Promise<StoredRow> {
  const data: StoredRow = { ...args.data };
  // Lower levels left empty are stored as absent, not as empty text.
  for (const name of LEVELS) if (name in data && isEmpty(data[name])) data[name] = null;
  if ('images' in data && isEmpty(data.images)) data.images = null;
  return args.operation === 'create' ? { ...data, ...(await sitePercentages(args.find)) } : data;
}

export const productHooks: ResourceHooks = { beforeChange };
