/**
 * Live selling (spec §3 "Live-sell order", §4, §5 "Live-sell", §7 "Orders, live sell", §8; issue 52 point 7).
 *
 * - A live sell (`/live-sell`): a seller's live showing of its products, its title, where it is watched
 *   and what it offers (§3 does not show its fields; these are ours). A seller posts and changes its own;
 *   everyone signed in reads them, to watch and order.
 * - A live-sell order (`/live-sell/orders`): what a buyer asks for during a live sell, written as text
 *   (its `orders`, HTML, shown only through DOMPurify). The admin settles it (liveSellOrderDetailsAdmin,
 *   `PATCH /live-sell/orders/{id}` with status and amount): its status is a declared state, PENDING →
 *   CONFIRMED (with the nonzero total the buyer will pay, §4) → DELIVERED, or CANCELLED before delivery.
 *   The buyer reads its own (`?isUser=true` is the buyer's view of the same list: the reach answers its
 *   own) and opens one read-only (liveSellOrderDetailsUser), and is told of each change.
 */
import { z } from 'zod';
import { defineResource, dialog, field, read, rules } from '../src/manifest/index.ts';
import { parsePrice } from '../src/domain/commission.ts';
import { HookRefusal, type ResourceHooks } from '../src/manifest/hooks.ts';

export const LIVE_SELL_STATUSES = ['PENDING', 'CONFIRMED', 'DELIVERED', 'CANCELLED'] as const;

export const LIVE_SELL_MESSAGES = {
  /** §5. */
  status: 'Please select status',
  /** §5: CONFIRMED needs a nonzero amount. */
  amount: 'Please enter order amount',
  /** §8. */
  failed: 'Something went wrong.',
  title: 'Title is required!',
  link: 'Link is required!',
  liveSell: 'Live sell is required!',
  orders: 'Please write your order.',
} as const;
const M = LIVE_SELL_MESSAGES;

/** The most characters an order's text may have. */
const MAX_ORDER_TEXT = 5000;

export const liveSells = defineResource({
  name: 'liveSells',
  label: 'Live-sell',
  plural: 'Live sells',
  title: 'title',
  access: {
    read: ['admin', 'seller', 'dealer', 'user'],
    write: ['seller'],
    owner: { field: 'sellerId', roles: { admin: 'all', seller: 'own', dealer: { team: 'dealerId' }, user: 'all' } },
  },
  menu: { group: 'Money', icon: 'LiveTv' },
  fields: [
    field.text('title', { rule: rules.text(1, M.title), list: true, searchable: true }),
    field.url('link', { label: 'Watch at', rule: rules.webUrl(M.link), list: true, sortable: false }),
    field.html('description', { rule: rules.optionalText(), maxLength: MAX_ORDER_TEXT }),
    // The owner: the seller who posts it, set by the server, never sent, never moved.
    field.reference('sellerId', 'users', { label: 'Seller', list: true, setOnce: true }),
  ],
  sort: { field: 'id', order: 'DESC' },
  reads: {
    list: read.list('GET /live-sell'),
    one: read.one('GET /live-sell/{id}'),
  },
  dialogs: {
    createLiveSell: dialog.create({
      pick: ['title', 'link', 'description'],
      call: 'POST /live-sell',
      success: 'Live sell posted successfully.',
      failure: M.failed,
    }),
    updateLiveSell: dialog.update({
      pick: ['title', 'link', 'description'],
      call: 'PATCH /live-sell/{id}',
      success: 'Live sell updated successfully.',
      failure: M.failed,
    }),
    deleteLiveSell: dialog.remove({ call: 'DELETE /live-sell/{id}', missing: 'Live sell is missing.', success: 'Live sell deleted successfully.' }),
  },
});

/** An amount sent: a nonzero number of whole cents (§5). */
const amountRule = z.number({ error: M.amount }).superRefine((v, ctx) => {
  const parsed = parsePrice(v);
  if (!parsed.ok || parsed.value === 0) ctx.addIssue({ code: 'custom', message: M.amount });
});

/** §4: choosing CONFIRMED needs the amount, nonzero (sent now or already kept). */
const liveSellOrderHooks: ResourceHooks = {
  beforeChange({ data, previous }) {
    const status = data.status ?? previous?.status;
    const amount = data.amount ?? previous?.amount;
    if (status === 'CONFIRMED' && !(typeof amount === 'number' && amount > 0)) throw new HookRefusal(M.amount, { amount: [M.amount] });
    return data;
  },
};

const told = (status: string, title: string, message: string, type: 'info' | 'success' | 'warning') => ({
  to: 'owner' as const,
  when: { status },
  title,
  message,
  type,
  category: 'orders',
});

export const liveSellOrders = defineResource({
  name: 'liveSellOrders',
  label: 'Live-sell order',
  plural: 'Live-sell orders',
  title: 'id',
  access: {
    read: ['admin', 'user'],
    write: ['admin', 'user'],
    owner: { field: 'userId', roles: { admin: 'all', user: 'own' } },
  },
  menu: { group: 'Money', icon: 'LiveTv' },
  fields: [
    field.reference('liveSell', 'liveSells', { label: 'Live sell', rule: z.string({ error: M.liveSell }).min(1, M.liveSell), list: true }),
    field.html('orders', { label: 'Order', rule: rules.text(1, M.orders), maxLength: MAX_ORDER_TEXT }),
    field.select('status', LIVE_SELL_STATUSES, {
      rule: z.enum(LIVE_SELL_STATUSES, { error: M.status }),
      createdWith: 'PENDING',
      list: true,
      choices: [
        { value: 'PENDING', label: 'Pending', tone: 'default' },
        { value: 'CONFIRMED', label: 'Confirmed', tone: 'info' },
        { value: 'DELIVERED', label: 'Delivered', tone: 'success' },
        { value: 'CANCELLED', label: 'Cancelled', tone: 'default' },
      ],
      states: {
        transitions: [
          { name: 'confirm', label: 'Confirm', from: ['PENDING'], to: 'CONFIRMED', roles: ['admin'], requires: ['amount'] },
          { name: 'deliver', label: 'Deliver', from: ['CONFIRMED'], to: 'DELIVERED', roles: ['admin'] },
          { name: 'cancel', label: 'Cancel', from: ['PENDING', 'CONFIRMED'], to: 'CANCELLED', roles: ['admin'] },
        ],
      },
    }),
    field.number('amount', { label: 'Amount', rule: amountRule, display: 'money', list: true, sortable: false }),
    // The owner: the buyer who ordered, set by the server, never sent, never moved.
    field.reference('userId', 'users', { label: 'Buyer', list: true, setOnce: true }),
  ],
  sort: { field: 'id', order: 'DESC' },
  reads: {
    list: read.list('GET /live-sell/orders'),
    one: read.one('GET /live-sell/orders/{id}'),
  },
  dialogs: {
    // Ours: §7 shows no call placing one.
    createLiveSellOrder: dialog.create({
      pick: ['liveSell', 'orders'],
      call: 'POST /live-sell/orders',
      access: ['user'],
      success: 'Your order was sent.',
      failure: M.failed,
    }),
    liveSellOrderDetailsAdmin: dialog.update({
      pick: ['status', 'amount'],
      call: 'PATCH /live-sell/orders/{id}',
      access: ['admin'],
      optional: ['amount'],
      success: 'Live-sell order updated successfully.',
      failure: M.failed,
      notify: [
        told('CONFIRMED', 'Live-sell order confirmed', 'Your live-sell order is confirmed: {amount} to pay.', 'success'),
        told('DELIVERED', 'Live-sell order delivered', 'Your live-sell order was delivered.', 'success'),
        told('CANCELLED', 'Live-sell order cancelled', 'Your live-sell order was cancelled.', 'warning'),
      ],
    }),
    liveSellOrderDetailsUser: dialog.details({ show: ['liveSell', 'orders', 'status', 'amount'], access: ['user'] }),
  },
  hooks: liveSellOrderHooks,
});
