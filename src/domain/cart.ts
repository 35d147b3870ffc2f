/**
 * The cart's rules (spec §4 "Cart"), pure, shared by the browser (a guest's cart in browser storage) and
 * the server (a signed-in buyer's cart, src/features/cart/server.ts):
 *
 * - add: an id already there increases its quantity by the given amount, or 1; a new id comes in with
 *   the given amount, or 1;
 * - remove; empty; increment; decrement, never below 1;
 * - set a quantity, only when greater than 0 (§5 "Cart quantity update ignores values of 0 or less").
 *
 * Every function returns a new cart and never changes the one it is given; a call that changes nothing
 * (an unknown id, a quantity of 0) returns the very cart it was given, so a React state stays put.
 * What this module adds to the spec, so the carts it makes are always ones a checkout can take: a
 * quantity is a whole number from 1 to `MAX_QUANTITY` (the most an order line freezes; adds and
 * increments stop there), and an amount that is not a whole number above 0 (0, -2, 1.5, NaN) changes
 * nothing, as the spec says of setting one.
 *
 * Cart items keep §3's fields and spellings (`siteCommissin`, `agentFormDealerCommission`,
 * `sellerPrice`: the names meet the product's in `CART_FIELD_NAMES`, src/domain/commission.ts). Money is
 * counted in integer cents and shown through the one formatter (src/domain/money.ts).
 */
import { CART_FIELD_NAMES, COMMISSION_FIELDS, formatCentsMoney, MAX_QUANTITY, parseSellPrice } from './commission.ts';

/** §5 "A money-to-number helper strips all non-digits": the one helper, kept in money.ts. */
export { moneyToNumber } from './money.ts';
export { MAX_QUANTITY };

/** Spec §3 "Cart item", field for field. `id` is the product's; money fields in money, the five commissions in percent. */
export interface CartItem {
  id: string;
  name: string;
  /** The main sell price of one unit (money, as the product's `price`). */
  price: number;
  /** Default 1. */
  quantity: number;
  images: string;
  slug: string;
  discount: number;
  agentSiteCommission: number;
  dealerSiteCommission: number;
  agentFormDealerCommission: number;
  /** Spelled so (§3). */
  siteCommissin: number;
  dealerCommissionFromSeller: number;
  /** The seller's price of one unit (money, the product's `sellerprice`). */
  sellerPrice: number;
}

export type Cart = readonly CartItem[];

/** The §3 fields of a cart item, in the spec's order. */
export const CART_ITEM_FIELDS = [
  'id',
  'name',
  'price',
  'quantity',
  'images',
  'slug',
  'discount',
  'agentSiteCommission',
  'dealerSiteCommission',
  'agentFormDealerCommission',
  'siteCommissin',
  'dealerCommissionFromSeller',
  'sellerPrice',
] as const satisfies readonly (keyof CartItem)[];

/** A quantity a cart holds: a whole number from 1 to `MAX_QUANTITY`. */
export function isCartQuantity(quantity: unknown): quantity is number {
  return typeof quantity === 'number' && Number.isInteger(quantity) && quantity >= 1 && quantity <= MAX_QUANTITY;
}

/** An amount to add or set: a whole number above 0 (a larger one is taken as `MAX_QUANTITY`). */
function amountOf(amount: unknown): number | undefined {
  if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1) return undefined;
  return Math.min(amount, MAX_QUANTITY);
}

/** A quantity plus `more`, stopped at `MAX_QUANTITY`. */
const grown = (quantity: number, more: number) => Math.min(quantity + more, MAX_QUANTITY);

/** The cart with the item `id` replaced by `change(item)`; the same cart when `id` is not there or nothing changed. */
function changeItem(cart: Cart, id: string, change: (item: CartItem) => CartItem): Cart {
  const index = cart.findIndex((item) => item.id === id);
  if (index < 0) return cart;
  const changed = change(cart[index]);
  if (changed === cart[index]) return cart;
  const next = cart.slice();
  next[index] = changed;
  return next;
}

const withQuantity = (item: CartItem, quantity: number): CartItem => (item.quantity === quantity ? item : { ...item, quantity });

/**
 * Add `item` (§4): an id already in the cart has its quantity increased by `amount`, or by 1 when no
 * amount is given; a new id is added at the end with `amount`, or 1. The item's own `quantity` is not
 * read: the amount says how many are added. An amount that is not a whole number above 0 changes nothing.
 */
export function addToCart(cart: Cart, item: Omit<CartItem, 'quantity'> & { quantity?: number }, amount?: number): Cart {
  const more = amount === undefined ? 1 : amountOf(amount);
  if (more === undefined) return cart;
  if (cart.some((x) => x.id === item.id)) return changeItem(cart, item.id, (x) => withQuantity(x, grown(x.quantity, more)));
  return [...cart, { ...item, quantity: more }];
}

/** Remove the item `id` (§4). */
export function removeFromCart(cart: Cart, id: string): Cart {
  return cart.some((item) => item.id === id) ? cart.filter((item) => item.id !== id) : cart;
}

/** Empty the cart (§4). */
export function emptyCart(): Cart {
  return [];
}

/** One more of the item `id` (§4), up to `MAX_QUANTITY`. */
export function incrementItem(cart: Cart, id: string): Cart {
  return changeItem(cart, id, (item) => withQuantity(item, grown(item.quantity, 1)));
}

/** One fewer of the item `id` (§4), never below 1. */
export function decrementItem(cart: Cart, id: string): Cart {
  return changeItem(cart, id, (item) => withQuantity(item, Math.max(1, item.quantity - 1)));
}

/**
 * Set the quantity of the item `id` (§4), only when greater than 0 (§5: 0 or less is ignored, as is an
 * amount that is not a whole number); above `MAX_QUANTITY` it is `MAX_QUANTITY`.
 */
export function setItemQuantity(cart: Cart, id: string, quantity: number): Cart {
  const q = amountOf(quantity);
  return q === undefined ? cart : changeItem(cart, id, (item) => withQuantity(item, q));
}

/**
 * A guest's cart merged into a signed-in buyer's (on sign-in): each guest item is added by the add rule
 * with its quantity, so a product in both carts has the quantities added (up to `MAX_QUANTITY`), and the
 * buyer's item keeps its fields (it was added first). Items of `guest` with a quantity that is not a
 * whole number above 0 are left out.
 */
export function mergeCarts(buyer: Cart, guest: Cart): Cart {
  return guest.reduce((cart, item) => addToCart(cart, item, item.quantity), buyer);
}

/**
 * A product's cart item: its id, name, images and slug, and its price fields under the cart's names
 * (`sellerprice` → `sellerPrice`, `siteCommission` → `siteCommissin`, …). Missing numbers are 0.
 */
export function cartItemOf(product: Record<string, unknown>, quantity = 1): CartItem {
  const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const item: CartItem = {
    id: String(product.id),
    name: text(product.name),
    price: number(product.price),
    quantity,
    images: text(product.images),
    slug: text(product.slug),
    discount: number(product.discount),
  } as CartItem;
  for (const from of [...COMMISSION_FIELDS, 'sellerprice', 'price'] as const) item[CART_FIELD_NAMES[from]] = number(product[from]);
  return item;
}

/** One unit's price in cents (`price`, read digit by digit), or undefined when it is not a price. */
export function unitCents(item: Pick<CartItem, 'price'>): number | undefined {
  const parsed = parseSellPrice(item.price);
  return parsed.ok ? parsed.value : undefined;
}

/** A line's price in cents: one unit's times the quantity (exact: both are bounded), or undefined. */
export function lineCents(item: Pick<CartItem, 'price' | 'quantity'>): number | undefined {
  const unit = unitCents(item);
  return unit === undefined || !isCartQuantity(item.quantity) ? undefined : unit * item.quantity;
}

/** Whether a unit price moved since the item was put in the cart (compared in cents), and the two prices. */
export function priceChange(
  added: Pick<CartItem, 'price'>,
  now: Pick<CartItem, 'price'>,
  currency?: string | null,
): { changed: boolean; before?: string; now?: string } {
  const a = unitCents(added);
  const b = unitCents(now);
  if (a === undefined || b === undefined || a === b) return { changed: false };
  return { changed: true, before: formatCentsMoney(a, currency), now: formatCentsMoney(b, currency) };
}

export interface CartTotals {
  /** Lines counted (items with a readable price and quantity). */
  lines: number;
  /** Units in those lines. */
  quantity: number;
  /** The total price in cents; undefined when it is past what is counted exactly (`Number.MAX_SAFE_INTEGER` cents). */
  totalCents: number | undefined;
  /** The total through the one money formatter ('$1,234.50'); '' when `totalCents` is undefined. */
  total: string;
}

/**
 * The cart's totals: each line's cents (unit × quantity), added up; shown through the one formatter.
 * An item whose price or quantity cannot be read is not counted (`lines` says how many were).
 */
export function cartTotals(cart: Cart, currency?: string | null): CartTotals {
  let lines = 0;
  let quantity = 0;
  let cents = 0;
  for (const item of cart) {
    const line = lineCents(item);
    if (line === undefined) continue;
    lines++;
    quantity += item.quantity;
    // Each line is at most 6·10^11 × 10^4 < 2^53 cents; a sum past 2^53 stays past it, so the check holds.
    cents += line;
  }
  const exact = Number.isSafeInteger(cents);
  return { lines, quantity, totalCents: exact ? cents : undefined, total: exact ? formatCentsMoney(cents, currency) : '' };
}
