/**
 * Payment methods (spec §3, §5 "Payments and payouts", §7 "Payment methods, payouts"; issue 52, point 1):
 * - the admin's payment methods (`/payment-settings`): how a buyer pays, each a name and its content,
 *   the paying instructions the buyer sees (an account number, the steps). The admin manages them; a
 *   buyer reads them, to choose one and follow its instructions when paying.
 * - a seller's own payout accounts (`/payments/methods`): where the seller wants its payouts sent. Each
 *   seller sees and changes only its own; an admin reads them all (to pay a payout) and changes none.
 *
 * The delivery-time notice (`GET /site-settings/delivery-time-notice`, listed with these calls in §7) is
 * a site setting: it is read through the site settings' `deliveryTimeNotice` (resources/content.ts).
 */
import { defineResource, dialog, field, read, rules } from '../src/manifest/index.ts';

/** Spec §5: name required, content at least 3 characters; the admin's texts, kept for the sellers' accounts too. */
const messages = {
  name: 'Method name is required!',
  content: 'Content is required!',
  updateFailed: 'Unable to update payment method!',
} as const;

/** The most characters a method's content may have: instructions, not a document. */
const MAX_CONTENT = 2000;

const nameField = (hint: string) =>
  field.text('name', { label: 'Method name', rule: rules.text(1, messages.name), list: true, searchable: true, hint });
const contentField = (hint: string) =>
  field.textarea('content', { rule: rules.text(3, messages.content), maxLength: MAX_CONTENT, list: true, hint });

export const paymentMethods = defineResource({
  name: 'paymentMethods',
  label: 'Payment method',
  plural: 'Payment methods',
  // Everything under the admin paths is the admin's (§6); a buyer reads the methods it may pay by.
  access: { read: ['admin', 'user'], write: ['admin'] },
  menu: { group: 'Money', icon: 'Payments' },
  fields: [
    nameField('How buyers know it: "bKash", "Bank transfer".'),
    contentField('What the buyer sees when paying: the account number and the steps to follow.'),
  ],
  sort: { field: 'name', order: 'ASC' },
  reads: {
    list: read.list('GET /payment-settings'),
    one: read.one('GET /payment-settings/{id}'),
  },
  dialogs: {
    createPaymentMethod: dialog.create({
      pick: ['name', 'content'],
      call: 'POST /payment-settings',
      success: 'Payment method created successfully.',
      failure: 'Unable to create payment method!',
    }),
    updatePaymentMethod: dialog.update({
      pick: ['name', 'content'],
      call: 'PATCH /payment-settings/{id}',
      success: 'Payment method updated successfully.',
      failure: messages.updateFailed,
    }),
    deletePaymentMethod: dialog.remove({
      call: 'DELETE /payment-settings/{id}',
      missing: 'Payment method is missing.',
      success: 'Payment method deleted successfully.',
    }),
  },
});

export const vendorPaymentMethods = defineResource({
  name: 'vendorPaymentMethods',
  label: 'Vendor payment method',
  plural: 'Payout accounts',
  access: {
    read: ['admin', 'seller'],
    write: ['seller'],
    owner: { field: 'userId', roles: { admin: 'all', seller: 'own' } },
  },
  menu: { group: 'Money', icon: 'AccountBalanceWallet' },
  empty: 'No payout accounts yet',
  fields: [
    nameField('The account\'s kind: "bKash", "Bank account".'),
    contentField('Where a payout is sent: the account number, its holder, the bank and branch.'),
    // The owner: set to the seller who added it by the server, never sent.
    field.reference('userId', 'users', { label: 'Seller', list: true }),
  ],
  sort: { field: 'id', order: 'DESC' },
  reads: {
    list: read.list('GET /payments/methods'),
    // Ours: §7 shows no one-record read; the update form and the details view open one account.
    one: read.one('GET /payments/methods/{id}'),
  },
  dialogs: {
    addPaymentMethod: dialog.create({
      pick: ['name', 'content'],
      call: 'POST /payments/methods',
      success: 'Payment method added successfully.',
      failure: 'Unable to add payment method!',
    }),
    // §7: "its path is not shown"; ours is the account's own path (PATCH on /payments/methods would
    // contradict the spec's POST there). The owner alone: another seller's account answers 404.
    updatePaymentMethodVendor: dialog.update({
      pick: ['name', 'content'],
      call: 'PATCH /payments/methods/{id}',
      success: 'Payment method updated successfully.',
      failure: messages.updateFailed,
    }),
    // §2: read-only, whoever opens it.
    'details-vendor-payment-method': dialog.details({ show: ['name', 'content', 'userId'] }),
  },
});
