/**
 * Spec §2: every dialog type, in the order of its three lists, with what §5, §7 and §8 tell about it.
 * A property is set only where the spec ties it to the dialog; where a mapping had to be inferred, a
 * `note` says how. Fields come from the call's §7 body (catalogue.ts) unless written here.
 */
import type { DialogGroup, SpecDialog } from './types.ts';

/** §8 "Failed deletes: 'Someting went wrong.'" (spelled so): the failure of every delete. */
const deleteFailed = 'Someting went wrong.';
/** §8: support type and urgency errors. */
const supportFailed = 'Something went wrong... Please Try again later.';
/** §8: auction update and live-sell order failures. */
const somethingWrong = 'Something went wrong.';

type Entry = Omit<SpecDialog, 'group'>;
const group = (g: DialogGroup, entries: Entry[]): SpecDialog[] => entries.map((e) => ({ group: g, ...e }));
const remove = (type: string, entity: string, call: string, extra: Partial<Entry> = {}): Entry => ({
  type,
  entity,
  kind: 'remove',
  call,
  failure: deleteFailed,
  ...extra,
});

const catalogue = group('catalogue', [
  {
    type: 'createCategory',
    entity: 'Category',
    kind: 'create',
    call: 'POST /categories',
    failure: 'Unable to create category!',
    success: 'Category created successfully.',
  },
  {
    type: 'updateCategory',
    entity: 'Category',
    kind: 'update',
    call: 'PATCH /categories/{id}',
    failure: 'Unable to update category!',
  },
  remove('deleteCategory', 'Category', 'DELETE /categories/{id}', { missing: 'Category is missing.' }),
  // §8 names the category toasts only; whether the lower levels reuse them is not said.
  { type: 'createChildCategory', entity: 'Child category', kind: 'create', call: 'POST /categories/child' },
  { type: 'updateChildCategory', entity: 'Child category', kind: 'update', call: 'PATCH /categories/child/{id}' },
  remove('deleteChildCategory', 'Child category', 'DELETE /categories/child/{id}'),
  { type: 'createSubCategory', entity: 'Sub category', kind: 'create', call: 'POST /categories/sub' },
  { type: 'updateSubCategory', entity: 'Sub category', kind: 'update', call: 'PATCH /categories/sub/{id}' },
  remove('deleteSubCategory', 'Sub category', 'DELETE /categories/sub/{id}'),
  { type: 'createSubChildCategory', entity: 'Sub-child category', kind: 'create', call: 'POST /categories/sub-child' },
  { type: 'updateSubChildCategory', entity: 'Sub-child category', kind: 'update', call: 'PATCH /categories/sub-child/{id}' },
  remove('deleteSubChildCategory', 'Sub-child category', 'DELETE /categories/sub-child/{id}'),
  { type: 'createQrcode', entity: 'QR code', kind: 'create', call: 'POST /qr-codes', failure: 'Unable to create qrcode!' },
  { type: 'updateQrcode', entity: 'QR code', kind: 'update', call: 'PATCH /qr-codes/{id}', failure: 'Unable to updated qrcode!' },
  remove('deleteQrcode', 'QR code', 'DELETE /qr-codes/{id}'),
  // §2: "shows the QR image at 400x400 with the title".
  { type: 'qrcodedeatils', entity: 'QR code', kind: 'details', fields: ['title', 'qrcode'] },
  {
    type: 'addtopcategory',
    entity: 'Top category',
    kind: 'create',
    call: 'POST /top-categories',
    failure: 'Unable to create top category!',
  },
  { type: 'updateTopCategory', entity: 'Top category', kind: 'update', call: 'PATCH /top-categories/{id}' },
  remove('deleteTopCategory', 'Top category', 'DELETE /top-categories/{id}/recycle'),
  remove('deleteProduct', 'Product (commission view)', 'DELETE /products/{id}'),
  { type: 'createBlogCategory', entity: 'Blog category', kind: 'create', call: 'POST /blogs/categories' },
  { type: 'updateBlogCategory', entity: 'Blog category', kind: 'update', call: 'PATCH /blogs/categories/{id}' },
  {
    type: 'createNewBlogMessage',
    entity: 'Blog message',
    kind: 'create',
    call: 'POST /blogs/messages',
    failure: 'Unable to create message!',
    note: "'Unable to create message!' is §8's only message toast; the blog message is the only message created by a dialog.",
  },
  { type: 'updateBlogMessage', entity: 'Blog message', kind: 'update', call: 'PUT /blogs/messages/{id}' },
  {
    type: 'updateAdminMenu',
    entity: 'Admin menu',
    kind: 'update',
    call: 'PATCH /admin-menus/{id}',
    failure: 'Unable to Update AdminMenu!',
  },
  { type: 'addAdminMenu', entity: 'Admin menu', kind: 'create', call: 'POST /admin-menus/' },
  { type: 'add-banner', entity: 'Banner', kind: 'create', call: 'POST /banners', failure: 'Unable to create banner!' },
  { type: 'update-banner', entity: 'Banner', kind: 'update', call: 'PATCH /banners/{id}', failure: 'Unable to update banner!' },
  // §2: an image preview with a download action; the gallery's fields are not shown.
  { type: 'media-gallery-image-details', kind: 'details' },
  { type: 'createSocialMediaLinkModal', entity: 'Social link', kind: 'create', call: 'POST /social-links' },
  { type: 'updateSocialMediaLink', entity: 'Social link', kind: 'update', call: 'PATCH /social-links/{id}' },
  { type: 'useSocialDetails', entity: 'Social link', note: 'Only named in §2.' },
]);

const people = group('people', [
  { type: 'createAgent', entity: 'Agent', kind: 'create', call: 'POST /agents', failure: 'Unable to create agent!' },
  { type: 'updateAgent', entity: 'Agent', kind: 'update', call: 'PATCH /agents/{id}' },
  remove('deleteAgent', 'Agent', 'DELETE /agents/{id}/recycle'),
  { type: 'agentCommissionModel', entity: 'Agent', kind: 'update', call: 'PATCH /agents/{id}/commission' },
  {
    type: 'replaceAgentModal',
    entity: 'Agent or dealer replacement',
    kind: 'action',
    call: 'PATCH /agents/replace/{id}',
    failure: 'Unable to replace agent!',
  },
  {
    type: 'replaceDealerModal',
    entity: 'Agent or dealer replacement',
    kind: 'action',
    call: 'PATCH /dealers/replace/{id}',
    failure: 'Unable to replace dealer!',
  },
  { type: 'dealerCommissionModel', entity: 'Dealer', kind: 'update', call: 'PATCH /dealers/{id}' },
  {
    type: 'updateSiteCommission',
    entity: 'Site commission',
    kind: 'action',
    call: 'PATCH /site-commissions/',
    failure: 'Unable to updated site commission!',
    success: 'site commission updated successfully.',
    note: '§5/§7 and issue 10: the site-wide five percentages (GET and PATCH /site-commissions/), a new product\'s defaults.',
  },
  {
    type: 'CreateProductCommissionInQueryMessage',
    entity: 'Product (commission view)',
    kind: 'action',
    call: 'PATCH /products/{id}/commission',
    note:
      '§4/§5 and issue 10: the commission dialog of a product: approving sends the five percentages with the ' +
      'prices; rejecting sends a typed reason to POST /site-commissions/reject/{id} ' +
      "('Commission rejected successfully!' / 'Unable to reject commission!').",
  },
  {
    type: 'createPaymentMethod',
    entity: 'Payment method (admin)',
    kind: 'create',
    call: 'POST /payment-settings',
    failure: 'Unable to create payment method!',
  },
  {
    type: 'updatePaymentMethod',
    entity: 'Payment method (admin)',
    kind: 'update',
    call: 'PATCH /payment-settings/{id}',
    failure: 'Unable to update payment method!',
  },
  remove('deletePaymentMethod', 'Payment method (admin)', 'DELETE /payment-settings/{id}'),
  // §7: vendor payment method create and update go through a mutation whose path is not shown.
  { type: 'addPaymentMethod', entity: 'Vendor payment method', kind: 'create', fields: ['name', 'content'] },
  { type: 'updatePaymentMethodVendor', entity: 'Vendor payment method', kind: 'update', fields: ['name', 'content'] },
  { type: 'details-vendor-payment-method', entity: 'Vendor payment method', kind: 'details' },
  {
    type: 'payoutModalUser',
    entity: 'Payout request',
    kind: 'create',
    call: 'POST /payouts',
    failure: 'Unable to send payout request.!',
  },
  {
    type: 'updatePayout',
    entity: 'Payout update',
    kind: 'update',
    call: 'PATCH /payouts/{id}/update',
    failure: 'Unable to update payout request.!',
  },
  { type: 'orderdetailsmodal', entity: 'Order', note: 'Only named in §2.' },
  { type: 'orderPaymentDetailsmodal', entity: 'Order', note: 'Only named in §2.' },
  {
    type: 'liveSellOrderDetailsAdmin',
    entity: 'Live-sell order',
    kind: 'update',
    call: 'PATCH /live-sell/orders/{id}',
    failure: somethingWrong,
    note: '§4: the admin chooses the status (and the amount for CONFIRMED).',
  },
  { type: 'liveSellOrderDetailsUser', entity: 'Live-sell order', note: 'Only named in §2.' },
  {
    type: 'updateAuctionModal',
    entity: 'Auction',
    kind: 'update',
    fields: ['product', 'price', 'startdate', 'enddate', 'qty'],
    failure: somethingWrong,
    note: '§7: the auction update mutation path is not shown (PATCH /auctions/{id} is listed separately).',
  },
  { type: 'updateAuctionSellerModal', entity: 'Auction', kind: 'update', failure: somethingWrong },
  remove('deleteAuction', 'Auction', 'DELETE /auctions/{id}'),
  {
    type: 'addCurrencyModal',
    entity: 'Currency',
    kind: 'create',
    call: 'POST /currencies',
    failure: 'Unable to create currency!',
  },
  {
    type: 'updateCurrency',
    entity: 'Currency',
    kind: 'update',
    call: 'PATCH /currencies/{id}',
    failure: 'Unable to update currency!',
  },
  { type: 'agent-login-details', entity: 'Agent', kind: 'details' },
  { type: 'seller-login-details', kind: 'details' },
  {
    type: 'user-profile-details-modal',
    entity: 'User profile',
    note: "Only named in §2: whether it is the profile form (PATCH /users, 'unable to update profile') or a view is not said.",
  },
]);

const jobs = group('jobs', [
  remove('deleteJob', 'Job', 'DELETE /jobs/{id}/recycle'),
  {
    type: 'applyjob',
    entity: 'Job application',
    kind: 'action',
    call: 'PATCH /jobs/{id}/apply',
    failure: 'Application Failed',
    successTitle: 'Application Submitted Successfully!',
    success: "We'll review your application and get back to you soon.",
  },
  remove('delteJobApplication', 'Job application', 'DELETE /jobs/applications/{id}/recycle'),
  { type: 'applicationDeatils', entity: 'Job application', kind: 'details' },
  {
    type: 'createSupportOrHelpType',
    entity: 'Support type',
    kind: 'create',
    call: 'POST /support-panel/manage/types',
    failure: supportFailed,
  },
  {
    type: 'updateSupportOrHelpType',
    entity: 'Support type',
    kind: 'update',
    call: 'PUT /support-panel/manage/types/{id}',
    failure: supportFailed,
  },
  {
    type: 'createSupportOrHelpUrgency',
    entity: 'Support urgency',
    kind: 'create',
    call: 'POST /support-panel/manage/urgency',
    failure: supportFailed,
  },
  {
    type: 'updateSupportOrHelpUrgency',
    entity: 'Support urgency',
    kind: 'update',
    call: 'PUT /support-panel/manage/urgency/{id}',
    failure: supportFailed,
  },
  {
    type: 'createChatGroup',
    entity: 'Chat group',
    kind: 'create',
    call: 'POST /api/chat/group',
    note: "'Unable to start chat!' belongs to the chat start, which §2 says is createChatGroup or the support request.",
  },
  { type: 'searchModal', note: 'A form that navigates to /search?q&type; it calls no endpoint.' },
]);

export const dialogs: readonly SpecDialog[] = [...catalogue, ...people, ...jobs];
