/**
 * Payouts (spec §3 "Payout request", "Payout update", §5, §7 `POST /payouts`, `PATCH /payouts/{id}/update`;
 * issue 52 point 5). A seller asks to be paid for one of its own orders once it is PAID and DELIVERED
 * (payoutModalUser); the amount is the server's: the sum of the order's seller prices × quantities
 * (its frozen `sellerCents`), shown as §3's string ('12.50'); a differing amount sent is refused. One
 * payout per order (a unique `order`: of two concurrent requests one is made, the other answers 409).
 * The admin pays it (updatePayout): the invoice (the `payoutInvoice` upload, a PDF or an image), its
 * details and `status: true`; REQUESTED → PAID; the ledger moves the amount from the seller's payable
 * to its paid out, and the seller is notified. The rules live in src/features/checkout/payout-hooks.ts.
 */
import { z } from 'zod';
import { defineResource, dialog, field, read, rules } from '../src/manifest/index.ts';
import { PAYOUT_HOOK_MESSAGES, payoutHooks } from '../src/features/checkout/payout-hooks.ts';

export const PAYOUTS = 'payouts';

export const PAYOUT_MESSAGES = {
  name: 'Payment Method name is required.',
  details: 'Details are required.',
  amount: 'Amount is required.',
  order: 'Order is required.',
  invoiceFile: 'Please upload the invoice.',
  invoiceDetails: 'Invoice details are required.',
  status: 'Status must be true.',
  // The order's own, PAID and DELIVERED; the amount the server's (told with it).
  ...PAYOUT_HOOK_MESSAGES,
  requestFailed: 'Unable to send payout request.!',
  updateFailed: 'Unable to update payout request.!',
} as const;

export const PAYOUT_STATUSES = ['REQUESTED', 'PAID'] as const;

export const payouts = defineResource({
  name: PAYOUTS,
  label: 'Payout',
  plural: 'Payouts',
  title: 'amount',
  access: {
    read: ['admin', 'seller'],
    write: ['admin', 'seller'],
    owner: { field: 'sellerId', roles: { admin: 'all', seller: 'own' } },
  },
  menu: { group: 'Money', icon: 'Payments' },
  empty: 'No payouts yet',
  fields: [
    field.text('name', { label: 'Payment method name', rule: rules.text(2, PAYOUT_MESSAGES.name), list: true }),
    field.textarea('details', { rule: rules.text(3, PAYOUT_MESSAGES.details), maxLength: 1000 }),
    // §3: a string, read-only, the server's sum of the order's seller prices.
    field.text('amount', { rule: rules.text(1, PAYOUT_MESSAGES.amount), readOnly: true, list: true, sortable: false, maxLength: 32 }),
    field.reference('order', 'orders', { label: 'Order', rule: rules.text(1, PAYOUT_MESSAGES.order), unique: true, setOnce: true, list: true }),
    // The owner: the seller who asks, set by the server.
    field.reference('sellerId', 'users', { label: 'Seller', list: true, setOnce: true }),
    field.number('amountCents', { label: 'Amount (cents)', readOnly: true, sortable: false }),
    field.select('payoutStatus', PAYOUT_STATUSES, {
      label: 'Payout status',
      list: true,
      createdWith: 'REQUESTED',
      choices: [
        { value: 'REQUESTED', label: 'Requested', tone: 'warning' },
        { value: 'PAID', label: 'Paid', tone: 'success' },
      ],
      states: {
        transitions: [
          {
            name: 'pay', label: 'Pay', from: ['REQUESTED'], to: 'PAID', roles: ['admin'], requires: ['invoiceFile', 'invoiceDetails'],
            set: { status: true },
            notify: { to: { field: 'sellerId' }, title: 'Payout paid', message: 'Your payout of {amount} was paid.', type: 'success', category: 'payouts' },
          },
        ],
      },
    }),
    field.file('invoiceFile', { label: 'Invoice', rule: rules.text(2, PAYOUT_MESSAGES.invoiceFile), upload: { endpoint: 'payoutInvoice' } }),
    field.textarea('invoiceDetails', { label: 'Invoice details', rule: rules.text(3, PAYOUT_MESSAGES.invoiceDetails), maxLength: 2000 }),
    // §3/§4: sent as true with the invoice; a paid payout carries it.
    field.boolean('status', { label: 'Invoice sent', rule: z.literal(true, { error: PAYOUT_MESSAGES.status }), readOnly: true }),
  ],
  // Issue 52 point 9: the payouts waiting to be paid, on the admin's dashboard and the seller's area.
  waiting: [{ label: 'Payouts waiting to be paid', filter: { payoutStatus: 'REQUESTED' }, roles: ['admin', 'seller'] }],
  sort: { field: 'id', order: 'DESC' },
  reads: {
    list: read.list('GET /payouts'),
    one: read.one('GET /payouts/{id}'),
  },
  dialogs: {
    payoutModalUser: dialog.create({
      title: 'Request payout',
      pick: ['name', 'details', 'amount', 'order'],
      optional: ['amount'],
      call: 'POST /payouts',
      access: ['seller'],
      button: 'Request payout',
      success: 'Payout request sent successfully.',
      failure: PAYOUT_MESSAGES.requestFailed,
      notify: { to: 'admins', title: 'Payout requested', message: 'A payout of {amount} waits to be paid.', type: 'info', category: 'payouts' },
    }),
    updatePayout: dialog.update({
      title: 'Pay payout',
      pick: ['invoiceFile', 'invoiceDetails', 'status'],
      call: 'PATCH /payouts/{id}/update',
      access: ['admin'],
      success: 'Payout updated successfully.',
      failure: PAYOUT_MESSAGES.updateFailed,
      notify: { to: { field: 'sellerId' }, when: { payoutStatus: 'PAID' }, title: 'Payout paid', message: 'Your payout of {amount} was paid.', type: 'success', category: 'payouts' },
    }),
  },
  hooks: payoutHooks,
});
