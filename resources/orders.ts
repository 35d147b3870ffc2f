/**
 * Orders (spec §3 "Order", §7 "GET /orders …"; issue 52 points 3 and 4). A buyer's checkout
 * (`POST /api/cart/checkout`, src/features/checkout/server.ts) splits the cart into one order per seller,
 * all under one shared `orderId` (what the buyer sees as one purchase). Each order's items (`products`)
 * hold the prices read from the products then, frozen in cents, and `commissions` one frozen commission
 * line per item (its five percentages and amounts, src/domain/commission.ts `freezeCommissionLines`).
 *
 * Two declared states: the paid status (UNPAID → PAID by the admin after checking the proof, or →
 * REFUNDED) and the delivery status (PENDING → PROCESSING → SHIPPED → DELIVERED, CANCELLED before
 * SHIPPED, the stock given back). Every transition notifies the buyer and the seller. A cancellation or
 * refund posts the ledger's reversal (src/features/checkout/order-hooks.ts), in the transition's transaction.
 *
 * Reach: the buyer (`user`) owns its orders; a seller reaches, through the items, the orders of its
 * products; a dealer reads the orders that name it (`dealerId`: its sellers' sales); the admin all.
 * `checkouts` keeps each checkout's `Idempotency-Key` and answer.
 */
import { z } from 'zod';
import { defineResource, dialog, field, operation, read, type NotifyDef } from '../src/manifest/index.ts';
import { COMMISSION_FIELDS, MAX_QUANTITY } from '../src/domain/commission.ts';
import { orderHooks } from '../src/features/checkout/order-hooks.ts';

export const ORDERS = 'orders';
export const CHECKOUTS = 'checkouts';

/** Checkout's texts (400 unless said). */
export const CHECKOUT_MESSAGES = {
  city: 'City is required.',
  district: 'District is required.',
  country: 'Country is required.',
  fulladdress: 'Full address is required.',
  paymentmethod: 'Please choose a payment method.',
  unknownPaymentMethod: 'No payment method has this id.',
  senderinfo: 'Sender info is required.',
  senderfile: 'Please upload the proof of payment.',
  idempotencyKey: 'An Idempotency-Key header (1 to 100 characters) is required.',
  empty: 'Your cart is empty.',
  notForSale: 'A product in your cart is no longer for sale.',
  /** 409: a product has less stock than the cart asks; nothing is written. */
  outOfStock: 'Out of stock',
  success: 'Order placed successfully.',
} as const;

export const PAID_STATUSES = ['UNPAID', 'PAID', 'REFUNDED'] as const;
export const DELIVERY_STATUSES = ['PENDING', 'PROCESSING', 'SHIPPED', 'DELIVERED', 'CANCELLED'] as const;

const MAX_ADDRESS = 500;
const text = (message: string, max = 255) => z.string({ error: message }).trim().min(1, message).max(max);

/** `POST /api/cart/checkout`: where to send it, how it was paid and the proof (an uploaded image's URL). */
export const checkoutBody = z.strictObject({
  address: z.strictObject({
    city: text(CHECKOUT_MESSAGES.city),
    district: text(CHECKOUT_MESSAGES.district),
    country: text(CHECKOUT_MESSAGES.country),
    fulladdress: text(CHECKOUT_MESSAGES.fulladdress, MAX_ADDRESS),
  }),
  paymentmethod: text(CHECKOUT_MESSAGES.paymentmethod, 64),
  senderinfo: text(CHECKOUT_MESSAGES.senderinfo, 1000),
  senderfile: text(CHECKOUT_MESSAGES.senderfile, 2000),
});

/** Each transition tells the buyer and the seller (the one who made it is never told). */
const told = (title: string, message: string): NotifyDef[] => [
  { to: { field: 'user' }, title, message, type: 'info', category: 'orders' },
  { to: { field: 'sellerId' }, title, message, type: 'info', category: 'orders' },
];

const cents = (name: string, label: string) => field.number(name, { label, readOnly: true, sortable: false });

export const orders = defineResource({
  name: ORDERS,
  label: 'Order',
  plural: 'Orders',
  title: 'orderId',
  access: {
    read: ['admin', 'seller', 'user', 'dealer'],
    write: ['admin', 'seller', 'user'],
    owner: {
      field: 'user',
      roles: {
        admin: 'all',
        user: 'own',
        seller: { through: { items: 'products', via: 'product', field: 'sellerId' } },
        // The orders carrying its share (`dealerId`, frozen at checkout): its sellers' sales, read only.
        dealer: { party: 'dealerId' },
      },
    },
  },
  menu: { group: 'Money', icon: 'Payments' },
  empty: 'No orders yet',
  fields: [
    // The purchase's id, shared by the orders of one checkout (no index of its own for sorting).
    field.text('orderId', { label: 'Order id', list: true, sortable: false, filterable: true, maxLength: 64, setOnce: true }),
    field.reference('user', 'users', { label: 'Buyer', list: true, setOnce: true }),
    field.reference('sellerId', 'users', { label: 'Seller', list: true, setOnce: true }),
    // The seller's dealer when the order was placed: the party of the dealer's commission share.
    field.reference('dealerId', 'users', { label: 'Dealer', setOnce: true }),
    // §3's address (city, district, country, fulladdress): kept part by part, and whole in one line.
    field.textarea('address', { label: 'Address', readOnly: true, maxLength: 1300 }),
    field.text('city', { maxLength: 255 }),
    field.text('district', { maxLength: 255 }),
    field.text('country', { maxLength: 255 }),
    field.textarea('fulladdress', { label: 'Full address', maxLength: MAX_ADDRESS }),
    field.items('products', {
      label: 'Products',
      fields: [
        field.reference('product', 'products', { label: 'Product' }),
        field.text('name', { maxLength: 1000 }),
        field.number('price', { label: 'Price', display: 'money' }),
        field.number('quantity', { storage: 'integer', rule: z.number().int().min(1).max(MAX_QUANTITY) }),
        field.number('priceCents', { label: 'Unit price (cents)' }),
        field.number('sellerPriceCents', { label: 'Unit seller price (cents)' }),
      ],
    }),
    // One frozen commission line per item: its five percentages (basis points) and line amounts (cents).
    field.items('commissions', {
      label: 'Commission lines',
      fields: [
        field.reference('product', 'products', { label: 'Product' }),
        field.number('quantity', { storage: 'integer' }),
        ...COMMISSION_FIELDS.map((f) => field.number(`${f}Bp`, { label: `${f} (basis points)`, storage: 'integer' })),
        ...COMMISSION_FIELDS.map((f) => field.number(`${f}Cents`, { label: `${f} (cents)` })),
      ],
    }),
    field.number('totalamount', { label: 'Total amount', display: 'money', list: true, readOnly: true, sortable: false }),
    cents('totalCents', 'Total (cents)'),
    cents('sellerCents', 'Seller total (cents)'),
    field.reference('paymentmethod', 'paymentMethods', { label: 'Payment method', list: true }),
    field.select('paidstatus', PAID_STATUSES, {
      label: 'Paid status',
      list: true,
      createdWith: 'UNPAID',
      choices: [
        { value: 'UNPAID', label: 'Unpaid', tone: 'warning' },
        { value: 'PAID', label: 'Paid', tone: 'success' },
        { value: 'REFUNDED', label: 'Refunded', tone: 'default' },
      ],
      states: {
        transitions: [
          {
            name: 'markPaid', label: 'Mark paid', from: ['UNPAID'], to: 'PAID', roles: ['admin'],
            guard: (record) => (record.status === 'CANCELLED' ? 'A cancelled order cannot be marked paid.' : undefined),
            notify: told('Order paid', 'Order {orderId} is paid.'),
          },
          {
            name: 'refund', label: 'Refund', from: ['UNPAID', 'PAID'], to: 'REFUNDED', roles: ['admin'],
            notify: told('Order refunded', 'Order {orderId} was refunded.'),
          },
        ],
      },
    }),
    field.select('status', DELIVERY_STATUSES, {
      label: 'Delivery status',
      list: true,
      createdWith: 'PENDING',
      choices: [
        { value: 'PENDING', label: 'Pending', tone: 'default' },
        { value: 'PROCESSING', label: 'Processing', tone: 'info' },
        { value: 'SHIPPED', label: 'Shipped', tone: 'info' },
        { value: 'DELIVERED', label: 'Delivered', tone: 'success' },
        { value: 'CANCELLED', label: 'Cancelled', tone: 'error' },
      ],
      states: {
        transitions: [
          { name: 'process', label: 'Process', from: ['PENDING'], to: 'PROCESSING', roles: ['admin', 'seller'], notify: told('Order processing', 'Order {orderId} is being processed.') },
          { name: 'ship', label: 'Ship', from: ['PROCESSING'], to: 'SHIPPED', roles: ['admin', 'seller'], notify: told('Order shipped', 'Order {orderId} was shipped.') },
          { name: 'deliver', label: 'Deliver', from: ['SHIPPED'], to: 'DELIVERED', roles: ['admin', 'seller'], notify: told('Order delivered', 'Order {orderId} was delivered.') },
          // Before it is shipped; the stock goes back and the ledger posts the reversal (order-hooks.ts).
          { name: 'cancel', label: 'Cancel order', from: ['PENDING', 'PROCESSING'], to: 'CANCELLED', roles: ['admin'], notify: told('Order cancelled', 'Order {orderId} was cancelled.') },
        ],
      },
    }),
    field.textarea('senderinfo', { label: 'Sender info', maxLength: 1000 }),
    field.image('senderfile', { label: 'Proof of payment', upload: { endpoint: 'paymentproofs' } }),
  ],
  // Issue 52 point 9: the admin's dashboard shows the proofs of payment waiting to be checked; a seller's
  // area the paid orders it still has to send.
  waiting: [
    { label: 'Proofs waiting to be checked', filter: { paidstatus: 'UNPAID' }, roles: ['admin'] },
    { label: 'Paid orders to send', filter: { paidstatus: 'PAID', status: 'PENDING' }, roles: ['seller'] },
  ],
  sort: { field: 'id', order: 'DESC' },
  reads: {
    // §7: the admin's, by a dealer's sellers when `dealerId` is given. Ours: a seller and a buyer read the
    // same list within their reach (the orders of its products, its own purchases), so each role's
    // Orders screen is this one list.
    list: read.list('GET /orders', { scope: { field: 'sellerId', param: 'dealerId', through: 'dealerId' }, embed: { paymentmethodDetails: { via: 'paymentmethod' } } }),
    seller: read.list('GET /orders/seller', { access: ['admin', 'seller'] }),
    user: read.list('GET /orders/user', { access: ['admin', 'user'] }),
    // The buyer's purchases: its orders grouped by the shared orderId.
    stack: read.grouped('GET /user/stack', 'orderId', { access: ['user'] }),
    one: read.one('GET /orders/{id}', { embed: { paymentmethodDetails: { via: 'paymentmethod' } } }),
    // The orders of one purchase, as the reader may see them.
    byOrderId: read.list('GET /orders/{orderId}/orderid', { scope: { field: 'orderId', param: 'orderId' } }),
  },
  dialogs: {
    orderdetailsmodal: dialog.details({
      title: 'Order details',
      show: ['orderId', 'user', 'sellerId', 'address', 'products', 'totalamount', 'paidstatus', 'status'],
    }),
    orderPaymentDetailsmodal: dialog.details({
      title: 'Payment details',
      show: ['orderId', 'totalamount', 'paymentmethod', 'paidstatus', 'senderinfo', 'senderfile'],
    }),
  },
  operations: {
    checkout: operation('POST /api/cart/checkout', 'cartCheckout', { access: ['user'], body: checkoutBody }),
  },
  hooks: orderHooks,
});

/** One row per buyer and `Idempotency-Key`: the checkout it made and its answer, given again to the same key. */
export const checkouts = defineResource({
  name: CHECKOUTS,
  label: 'Checkout',
  plural: 'Checkouts',
  title: 'orderId',
  access: { read: [], write: ['user'], owner: { field: 'userId', roles: { user: 'own' } } },
  fields: [
    field.text('userId', { maxLength: 64, setOnce: true }),
    field.text('checkoutKey', { unique: true, maxLength: 200, setOnce: true }),
    field.text('orderId', { maxLength: 64 }),
    field.textarea('answer', { maxLength: 200_000 }),
  ],
});

/** Spec §3's shape of an item of an order's `products`. */
export interface OrderItem {
  product: string;
  name: string;
  price: number;
  quantity: number;
  priceCents: number;
  sellerPriceCents: number;
}
