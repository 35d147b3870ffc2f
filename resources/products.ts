/**
 * Products and their commissions (spec §3 Product (commission view), §4 commission status, §5 "Agents
 * and commissions", §7 "Products and commissions"), and the site commission whose five percentages a
 * new product starts with.
 *
 * A product belongs to its seller (`sellerId`); its seller sets the seller price, the five percentages
 * come from the site commission and only the admin changes them, in the commission dialog (hand-written:
 * src/features/commission/), which approves them (`PATCH /products/{id}/commission`) or rejects them
 * with a reason (`POST /site-commissions/reject/{id}`). The main sell price is never taken from a
 * client: it is computed from the seller price and the percentages (`computed`, src/domain/computed.ts).
 *
 * How the spec's two commission dialog types are read (issue 10, and scripts/spec/dialogs.ts):
 * `CreateProductCommissionInQueryMessage` is the product's commission dialog: approving sends its
 * percentages with its prices; rejecting sends a typed reason (`rejectCommission`, 'Commission rejected
 * successfully!'), from the same hand-written dialog. `updateSiteCommission` edits the site-wide
 * percentages (`GET` / `PATCH /site-commissions/`, 'site commission updated successfully.').
 */
import { z } from 'zod';
import { computations } from '../src/domain/computed.ts';
import { defineResource, dialog, field, operation, read, rules, type FieldDef, type NotifyDef, type StatesDef } from '../src/manifest/index.ts';
import { SITE_COMMISSION_NAME } from '../src/features/commission/defaults.ts';
import { productHooks } from '../src/features/commission/product-hooks.ts';

/** The product commission's hand-written dialog (approve, reject, the seller's read-only view). */
const commissionDialog = () => import('../src/features/commission/CommissionDialog.tsx');
import {
  COMMISSION_FIELDS,
  COMMISSION_REQUIRED_MESSAGE,
  COMMISSION_STATUSES,
  MAX_COMMISSION_PERCENT,
  MIN_COMMISSION_PERCENT,
  parsePercent,
  parsePrice,
  type CommissionField,
} from '../src/domain/commission.ts';

/** Who keeps products: the admin and the sellers (a dealer for its team). Agents read the approved ones. */
const keepers = ['admin', 'seller', 'dealer'] as const;
/** Who writes a product's own fields: its seller, or the dealer the seller works under. */
const sellers = ['seller', 'dealer'] as const;

/** The five percentages as people read them (wire names keep the spec's spelling). */
export const COMMISSION_LABELS: Record<CommissionField, string> = {
  siteCommission: 'Site commission',
  dealerSiteCommission: 'Dealer site commission',
  agentSiteCommission: 'Agent site commission',
  ageentFormDealerCommission: 'Agent from dealer commission',
  dealerCommissionFromSeller: 'Dealer commission from seller',
};

/** What a rejection must say (the reject dialog's reason, the product's kept reason). */
const REJECT_REASON_REQUIRED = 'Please write why the commission is rejected.';

/** The seller is told of an approval, with the price its product now sells at. */
const commissionApproved: NotifyDef = {
  to: 'owner',
  title: 'Commission approved',
  message: 'The commission of your product {name} was approved: it sells at {price}.',
  type: 'success',
  category: 'commission',
};

/** The seller is told of a rejection, with the reason (a field of the product: the reject answers the product). */
const commissionRejected: NotifyDef = {
  to: { field: 'sellerId' },
  title: 'Commission rejected',
  message: 'The commission of your product {name} was rejected: {commissionRejectReason}',
  type: 'error',
  category: 'commission',
};

/**
 * The commission's review as states (src/manifest/states.ts): only an admin approves or rejects, from any
 * other state, saying why on a rejection. The commission dialog's calls are these transitions; a seller
 * never moves it, and nothing moves it back to PENDING.
 */
const commissionStates: StatesDef = {
  transitions: [
    {
      name: 'approve',
      label: 'Approve commission',
      from: ['PENDING', 'REJECTED'],
      to: 'APPROVED',
      roles: ['admin'],
      set: { commissionRejectReason: null },
      notify: commissionApproved,
      success: 'Commission approved successfully!',
      failure: 'Unable to approve commission!',
    },
    {
      name: 'reject',
      label: 'Reject commission',
      from: ['PENDING', 'APPROVED'],
      to: 'REJECTED',
      roles: ['admin'],
      requires: ['commissionRejectReason'],
      notify: commissionRejected,
      success: 'Commission rejected successfully!',
      failure: 'Unable to reject commission!',
    },
  ],
};

/** Spec §8: the texts of updating the site commission. */
const siteCommissionTexts = { success: 'site commission updated successfully.', failure: 'Unable to updated site commission!' };

/**
 * A commission percentage (spec §5, §9): a number of at least 1 ('amount is required!', also when
 * missing), at most 100, with at most 2 decimals (what the cent-exact math of src/domain/commission.ts takes).
 */
const percentRule = () =>
  z
    .number({ error: COMMISSION_REQUIRED_MESSAGE })
    .min(MIN_COMMISSION_PERCENT, COMMISSION_REQUIRED_MESSAGE)
    .max(MAX_COMMISSION_PERCENT, `amount must be at most ${MAX_COMMISSION_PERCENT}.`)
    .refine((v) => v < MIN_COMMISSION_PERCENT || parsePercent(v).ok, 'amount must have at most 2 decimals.');

const percentFields = (): FieldDef[] =>
  COMMISSION_FIELDS.map((name) => field.number(name, { label: COMMISSION_LABELS[name], rule: percentRule(), hint: 'Percent of the seller price' }));

/** A seller price: more than 0, whole cents, at most 1,000,000,000.00 (the bounds of the commission math). */
const sellerPriceRule = z.number({ error: 'Seller price is required!' }).superRefine((v, ctx) => {
  const parsed = parsePrice(v);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `Seller price ${parsed.reason}.` });
  else if (parsed.value === 0) ctx.addIssue({ code: 'custom', message: 'Seller price must be more than 0.' });
});

/**
 * An optional lower level of the category tree: empty, or the id of one under the level `above` (each
 * level's parent is its `category`). The form offers only those and empties it when `above` changes;
 * the server refuses one under another ('Child category is not under the category chosen.').
 */
const optionalLevel = (name: string, target: string, label: string, above: string) =>
  field.reference(name, target, { label, rule: rules.optionalText(), dependsOn: { field: above, via: 'category' } });

/** What a seller writes of its product. */
const productForm = ['name', 'category', 'childCategory', 'subCategory', 'subChildCategory', 'images', 'stock', 'sellerprice'];

export const products = defineResource({
  name: 'products',
  label: 'Product',
  plural: 'Products',
  access: {
    read: [...keepers],
    write: [...keepers],
    owner: { field: 'sellerId', roles: { admin: 'all', seller: 'own', dealer: { team: 'dealerId' } } },
  },
  menu: { group: 'Catalogue', icon: 'Storefront' },
  hooks: productHooks,
  fields: [
    field.text('name', { rule: rules.text(1, 'Product name is required!'), list: true, searchable: true }),
    field.image('images', {
      label: 'Image',
      rule: z.union([z.literal(''), rules.webUrl('Image must be an http(s) URL or a path on this site.')]).optional(),
      upload: { endpoint: 'products' },
      list: true,
    }),
    field.slug('slug', 'name'),
    // Set by the server to the seller who creates it (owner), never sent.
    field.reference('sellerId', 'users', { label: 'Seller', list: true }),
    field.reference('category', 'categories', { label: 'Category', rule: rules.text(1, 'Category is required!'), list: true }),
    optionalLevel('childCategory', 'childCategories', 'Child category', 'category'),
    optionalLevel('subCategory', 'subCategories', 'Sub category', 'childCategory'),
    optionalLevel('subChildCategory', 'subChildCategories', 'Sub-child category', 'subCategory'),
    field.number('stock', {
      rule: z.number({ error: 'Stock is required!' }).int('Stock must be a whole number.').min(0, 'Stock cannot be negative.'),
      default: 1,
      storage: 'integer',
      list: true,
    }),
    field.number('sellerprice', { label: 'Seller price', rule: sellerPriceRule, display: 'money', list: true }),
    ...percentFields(),
    field.number('price', {
      label: 'Sell price',
      rule: z.number({ error: 'Price is required!' }),
      computed: { by: computations.productPrice, from: ['sellerprice', ...COMMISSION_FIELDS] },
      readOnly: true,
      display: 'money',
      list: true,
    }),
    field.select('comissionStatus', COMMISSION_STATUSES, {
      label: 'Commission status',
      rule: z.enum(COMMISSION_STATUSES),
      choices: [
        // Only 'success' is filled: a filled chip in 'warning' (light) or 'error' (dark) misses the 4.5:1
        // contrast of its white text (axe), so pending and rejected are told by their words.
        { value: 'PENDING', label: 'Pending', tone: 'default' },
        { value: 'APPROVED', label: 'Approved', tone: 'success' },
        { value: 'REJECTED', label: 'Rejected', tone: 'default' },
      ],
      createdWith: 'PENDING',
      readOnly: true,
      list: true,
      states: commissionStates,
    }),
    field.textarea('commissionRejectReason', { label: 'Reject reason', rule: rules.text(1, REJECT_REASON_REQUIRED), readOnly: true, maxLength: 1000 }),
  ],
  // Newest first: ids begin with their creation time.
  sort: { field: 'id', order: 'DESC' },
  reads: {
    list: read.list('GET /products'),
    one: read.one('GET /products/{id}'),
    // `?isown` asks for the seller's own: what the owner rule answers a seller anyway.
    bySeller: read.list('GET /products/seller/{sellerId}', { scope: { field: 'sellerId', param: 'sellerId' } }),
  },
  operations: {
    // Lists the generic reads cannot scope: by the owner's role, of sellers, and the agents' catalogue.
    byRole: operation('GET /products/role/{role}', 'productsByRole', { access: [...keepers] }),
    ofSellers: operation('GET /products/sellers', 'productsOfSellers', { access: [...keepers] }),
    forAgents: operation('GET /products/agents', 'productsForAgents', { access: ['admin', 'agent'] }),
  },
  dialogs: {
    // Ours: §7 names no product create or update. Its hooks fill in the site commission and check the tree.
    createProduct: dialog.create({
      button: 'Create product',
      pick: productForm,
      call: 'POST /products',
      access: [...sellers],
      success: 'Product created successfully.',
      failure: 'Unable to create product!',
      // A new product waits for its commission: the admins review it.
      notify: {
        to: 'admins',
        title: 'Commission to review',
        message: 'The product {name} by {sellerId} waits for its commission to be approved.',
        type: 'info',
        category: 'commission',
      },
    }),
    // Not `PATCH /products/{id}`: the spec mutates that path with DELETE only.
    updateProduct: dialog.update({
      pick: productForm,
      call: 'PATCH /products/{id}/edit',
      access: [...sellers],
      success: 'Product updated successfully.',
      failure: 'Unable to update product!',
    }),
    deleteProduct: dialog.remove({
      call: 'DELETE /products/{id}',
      missing: 'Product is missing.',
      success: 'Product deleted successfully.',
    }),
    CreateProductCommissionInQueryMessage: dialog.action({
      title: 'Product commission',
      component: commissionDialog,
      pick: ['sellerprice', ...COMMISSION_FIELDS, 'price'],
      call: 'PATCH /products/{id}/commission',
      handler: 'approveCommission',
      access: ['admin'],
      // Ours: the spec names no texts for approving.
      success: 'Commission approved successfully!',
      failure: 'Unable to approve commission!',
      notify: commissionApproved,
    }),
    // Ours: how a product's commission is opened from the list (a click on the row, or Details).
    commissionDetails: dialog.details({
      title: 'Product commission',
      component: commissionDialog,
      show: ['name', 'sellerprice', ...COMMISSION_FIELDS, 'price', 'comissionStatus', 'commissionRejectReason'],
    }),
  },
});

export { SITE_COMMISSION_NAME };

export const siteCommissions = defineResource({
  name: 'siteCommissions',
  label: 'Site commission',
  plural: 'Site commission',
  access: { read: [...keepers, 'agent'], write: ['admin'] },
  fields: [
    // One record, found by this name (unique, so two first saves at once cannot make two).
    field.text('name', { unique: true, readOnly: true }),
    ...percentFields(),
    // The reason `POST /site-commissions/reject/{id}` sends (spec §3 "site commission (reject message)");
    // it is kept on the product as its `commissionRejectReason`, never on this record.
    field.textarea('message', {
      label: 'Reject reason',
      rule: rules.text(1, REJECT_REASON_REQUIRED),
      maxLength: 1000,
    }),
  ],
  operations: {
    // The record, or the built-in percentages while none was saved (src/features/commission/defaults.ts).
    read: operation('GET /site-commissions/', 'readSiteCommission', { access: [...keepers, 'agent'] }),
  },
  dialogs: {
    // Ours: the site's five percentages, what every new product starts with.
    updateSiteCommission: dialog.action({
      title: 'Site commission',
      pick: [...COMMISSION_FIELDS],
      call: 'PATCH /site-commissions/',
      handler: 'saveSiteCommission',
      ...siteCommissionTexts,
    }),
    // Ours as a type name: the reject of the commission dialog (CreateProductCommissionInQueryMessage).
    rejectCommission: dialog.action({
      title: 'Product commission',
      component: commissionDialog,
      pick: ['message'],
      call: 'POST /site-commissions/reject/{id}',
      handler: 'rejectCommission',
      success: 'Commission rejected successfully!',
      failure: 'Unable to reject commission!',
      // It answers the product: its seller is told, with the reason.
      notify: commissionRejected,
    }),
  },
});
