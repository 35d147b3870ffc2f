/**
 * The products' hooks (resources/products.ts `hooks`), run by the records service in the write's
 * transaction: a product's category levels must form one branch of the tree, and a new product starts
 * with the site commission's five percentages of that moment (its status PENDING by `createdWith`; its
 * main sell price computed from them). Manifests load in the browser: this module reads through the
 * hook's context and imports no server code.
 */
import { COMMISSION_FIELDS, type CommissionField } from '../../domain/commission.ts';
import { HookRefusal, type BeforeChangeArgs, type HookContext, type ResourceHooks, type StoredRow } from '../../manifest/hooks.ts';
import { labelOf } from '../../manifest/schema.ts';
import { messages } from '../../manifest/messages.ts';
import { DEFAULT_SITE_COMMISSION, SITE_COMMISSION_NAME } from './defaults.ts';

/** The category levels of a product, top first: each lower level must sit under the one above it. */
export const LEVELS = ['category', 'childCategory', 'subCategory', 'subChildCategory'] as const;
const SITE_COMMISSIONS = 'siteCommissions';

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Refuses category levels that do not form one branch of the tree: a level without the one above it, or
 * one whose parent is not the level above (400, under the field). Unknown ids are told they do not exist.
 */
async function checkBranch({ resource: r, find }: HookContext, levels: StoredRow): Promise<void> {
  const errors: Record<string, string[]> = {};
  let above: StoredRow | undefined;
  for (let i = 0; i < LEVELS.length; i++) {
    const name = LEVELS[i];
    const f = r.fields.find((x) => x.name === name)!;
    if (isEmpty(levels[name])) {
      above = undefined;
      continue;
    }
    const row = await find(f.reference!, 'id', levels[name]);
    if (!row) {
      errors[name] = [`${labelOf(f)} does not exist.`];
      above = undefined;
      continue;
    }
    if (i > 0) {
      const upper = r.fields.find((x) => x.name === LEVELS[i - 1])!;
      if (isEmpty(levels[LEVELS[i - 1]])) errors[name] = [`Choose the ${labelOf(upper).toLowerCase()} first.`];
      else if (above && row.category !== above.id) errors[name] = [`${labelOf(f)} is not under the ${labelOf(upper).toLowerCase()} chosen.`];
    }
    above = row;
  }
  if (Object.keys(errors).length) throw new HookRefusal(messages.validationFailed, errors);
}

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
  if (LEVELS.some((name) => name in data)) {
    // An update sending some levels is judged with the others as stored.
    const levels = Object.fromEntries(LEVELS.map((name) => [name, name in data ? data[name] : args.previous?.[name]]));
    await checkBranch(args, levels);
  }
  return args.operation === 'create' ? { ...data, ...(await sitePercentages(args.find)) } : data;
}

export const productHooks: ResourceHooks = { beforeChange };
