/**
 * A signed-in buyer's cart, kept on the server so it follows the buyer across devices (issue 52 point 2;
 * spec §3 "Cart item", §4 "Cart", §5 "Cart quantity update ignores values of 0 or less"). A guest's cart
 * lives in browser storage (the same rules: src/domain/cart.ts) and is merged into this one on sign-in.
 *
 * One row per buyer and product (`cartKey` = buyer id and product id, unique): the buyer's rows are the
 * buyer's one cart. The §3 fields are what the product was when it was first put in the cart: the
 * answers read every price from the product now, and the kept `price` shows a price that changed since
 * (`priceChanged`), and the name of a product no longer for sale. No list, no dialog: only the calls
 * below (src/features/cart/server.ts), each on the caller's own rows. A buyer's cart is the buyer's own
 * store, like its push subscriptions: its writes go through the records service (`operation`) but are
 * not audit entries (a cart is not a record anyone else edits or reviews).
 *
 * §5 says a quantity update ignores 0 or less: the cart's rules in the browser do (`setItemQuantity`);
 * the server, asked to set one, refuses it (400, `quantity`), so a client learns its update did nothing.
 */
import { z } from 'zod';
import { defineResource, field, operation } from '../src/manifest/index.ts';
import { MAX_QUANTITY } from '../src/domain/cart.ts';

export const CART_ITEMS = 'cartItems';

/** The most products (lines) one cart holds. */
export const MAX_CART_LINES = 100;

/** What the cart calls answer when they refuse (400 unless said). */
export const CART_MESSAGES = {
  quantityRequired: 'Quantity is required.',
  quantityWhole: 'Quantity must be a whole number.',
  quantityAboveZero: 'Quantity must be more than 0.',
  quantityTooLarge: `Quantity must be at most ${MAX_QUANTITY}.`,
  unknownProduct: 'No product has this id.',
  notForSale: 'This product is not for sale: its commission is not approved.',
  /** 404. */
  notInCart: 'This product is not in your cart.',
  full: `Your cart is full: it holds at most ${MAX_CART_LINES} products.`,
  tooManyItems: `A cart holds at most ${MAX_CART_LINES} products.`,
} as const;

/** A quantity to set: a whole number from 1 to `MAX_QUANTITY`. */
export const cartQuantity = z
  .number({ error: CART_MESSAGES.quantityRequired })
  .int(CART_MESSAGES.quantityWhole)
  .min(1, CART_MESSAGES.quantityAboveZero)
  .max(MAX_QUANTITY, CART_MESSAGES.quantityTooLarge);

/** `PUT /api/cart/items/{productId}`: the product's quantity in the cart (added when not there). */
export const setCartItemBody = z.strictObject({ quantity: cartQuantity });

/**
 * `POST /api/cart/merge`: a guest's cart from browser storage, each item its product `id` and
 * `quantity`, and the `price` it was added at (optional: only what `priceChanged` compares with).
 */
export const mergeCartBody = z.strictObject({
  items: z
    .array(
      z.strictObject({
        id: z.string().min(1).max(64),
        quantity: cartQuantity,
        price: z.number().nonnegative().max(1e13).optional(),
      }),
    )
    .max(MAX_CART_LINES, CART_MESSAGES.tooManyItems),
});

/** The §3 money and percent fields, kept as the product had them when it was added. */
const kept = (name: string) => field.number(name);

export const cartItems = defineResource({
  name: CART_ITEMS,
  label: 'Cart item',
  plural: 'Cart items',
  title: 'name',
  // Nobody reads the table through the generic API: only the calls below, each on the caller's own cart.
  access: { read: [], write: ['user'], owner: { field: 'userId', roles: { user: 'own' } } },
  fields: [
    // The owner (its cart is its rows), indexed: every call reads one buyer's rows.
    field.text('userId', { filterable: true, maxLength: 64 }),
    field.text('productId', { maxLength: 64 }),
    // `${userId}:${productId}`: one row per buyer and product, whatever two requests race.
    field.text('cartKey', { unique: true, maxLength: 140 }),
    field.number('quantity', { storage: 'integer', default: 1 }),
    field.text('name', { maxLength: 1000 }),
    kept('price'),
    field.text('images', { maxLength: 2000 }),
    field.text('slug', { maxLength: 1000 }),
    kept('discount'),
    kept('agentSiteCommission'),
    kept('dealerSiteCommission'),
    kept('agentFormDealerCommission'),
    kept('siteCommissin'),
    kept('dealerCommissionFromSeller'),
    kept('sellerPrice'),
  ],
  operations: {
    cart: operation('GET /api/cart', 'cartRead', { access: ['user'] }),
    setItem: operation('PUT /api/cart/items/{productId}', 'cartSetItem', { access: ['user'], body: setCartItemBody }),
    removeItem: operation('DELETE /api/cart/items/{productId}', 'cartRemoveItem', { access: ['user'] }),
    empty: operation('DELETE /api/cart', 'cartEmpty', { access: ['user'] }),
    merge: operation('POST /api/cart/merge', 'cartMerge', { access: ['user'], body: mergeCartBody }),
  },
});
