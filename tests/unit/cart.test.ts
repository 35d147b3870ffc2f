/**
 * The cart's rules (spec §4 "Cart", §5 "Cart quantity update ignores values of 0 or less"), as pure
 * functions (src/domain/cart.ts): examples of each rule, then properties over random sequences of
 * operations checked against a plain model (a map of id → quantity), and totals against a BigInt
 * reference.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addToCart,
  CART_ITEM_FIELDS,
  cartItemOf,
  cartTotals,
  decrementItem,
  emptyCart,
  incrementItem,
  isCartQuantity,
  lineCents,
  MAX_QUANTITY,
  mergeCarts,
  moneyToNumber,
  priceChange,
  removeFromCart,
  setItemQuantity,
  type Cart,
  type CartItem,
} from '../../src/domain/cart.ts';
import { moneyToNumber as moneyHelper, formatMoney } from '../../src/domain/money.ts';
import { MAX_SELL_PRICE_CENTS } from '../../src/domain/commission.ts';

const item = (id: string, price = 10, quantity = 1): CartItem => ({
  id,
  name: `Product ${id}`,
  price,
  quantity,
  images: '/logo.jpg',
  slug: `product-${id}`,
  discount: 0,
  agentSiteCommission: 1,
  dealerSiteCommission: 1,
  agentFormDealerCommission: 1,
  siteCommissin: 1,
  dealerCommissionFromSeller: 1,
  sellerPrice: 9,
});
const quantities = (cart: Cart) => Object.fromEntries(cart.map((x) => [x.id, x.quantity]));

describe('cart rules (§4), by example', () => {
  it('adds a new id with the given amount, or 1', () => {
    expect(quantities(addToCart([], item('a')))).toEqual({ a: 1 });
    expect(quantities(addToCart([], item('a'), 3))).toEqual({ a: 3 });
    // The item's own quantity is not the amount added.
    expect(quantities(addToCart([], item('a', 10, 7)))).toEqual({ a: 1 });
  });

  it('adds to an id already there the given amount, or 1, and keeps the order', () => {
    const cart = addToCart(addToCart([], item('a')), item('b'));
    expect(quantities(addToCart(cart, item('a')))).toEqual({ a: 2, b: 1 });
    expect(quantities(addToCart(cart, item('a'), 4))).toEqual({ a: 5, b: 1 });
    expect(addToCart(cart, item('a'), 4).map((x) => x.id)).toEqual(['a', 'b']);
  });

  it('ignores an add of 0, a negative or a fraction (the cart it was given comes back)', () => {
    const cart = addToCart([], item('a'), 2);
    for (const amount of [0, -1, 1.5, Number.NaN, Infinity]) {
      expect(addToCart(cart, item('a'), amount)).toBe(cart);
      expect(addToCart(cart, item('b'), amount)).toBe(cart);
    }
  });

  it('removes, empties, increments, and decrements never below 1', () => {
    const cart = addToCart(addToCart([], item('a'), 2), item('b'));
    expect(quantities(removeFromCart(cart, 'a'))).toEqual({ b: 1 });
    expect(removeFromCart(cart, 'zzz')).toBe(cart);
    expect(emptyCart()).toEqual([]);
    expect(quantities(incrementItem(cart, 'b'))).toEqual({ a: 2, b: 2 });
    expect(quantities(decrementItem(cart, 'a'))).toEqual({ a: 1, b: 1 });
    expect(decrementItem(cart, 'b')).toBe(cart);
    expect(quantities(decrementItem(decrementItem(decrementItem(cart, 'a'), 'a'), 'a'))).toEqual({ a: 1, b: 1 });
  });

  it('sets a quantity only when greater than 0 (§5: 0 or less is ignored)', () => {
    const cart = addToCart([], item('a'), 2);
    expect(quantities(setItemQuantity(cart, 'a', 9))).toEqual({ a: 9 });
    expect(setItemQuantity(cart, 'a', 0)).toBe(cart);
    expect(setItemQuantity(cart, 'a', -3)).toBe(cart);
    expect(setItemQuantity(cart, 'a', 2.5)).toBe(cart);
    expect(setItemQuantity(cart, 'missing', 4)).toBe(cart);
  });

  it('stops quantities at MAX_QUANTITY (the most an order line takes)', () => {
    const cart = addToCart([], item('a'), MAX_QUANTITY + 50);
    expect(quantities(cart)).toEqual({ a: MAX_QUANTITY });
    expect(incrementItem(cart, 'a')).toBe(cart);
    expect(quantities(setItemQuantity(cart, 'a', 1e9))).toEqual({ a: MAX_QUANTITY });
  });

  it("keeps §3's field names and spellings, read from a product's", () => {
    const made = cartItemOf({
      id: 'p1', name: 'Mug', price: 12.34, images: '/m.jpg', slug: 'mug', sellerprice: 10,
      siteCommission: 5, dealerSiteCommission: 4, agentSiteCommission: 3, ageentFormDealerCommission: 2, dealerCommissionFromSeller: 1,
    });
    expect(Object.keys(made).sort()).toEqual([...CART_ITEM_FIELDS].sort());
    expect(made).toMatchObject({ id: 'p1', price: 12.34, quantity: 1, sellerPrice: 10, siteCommissin: 5, agentFormDealerCommission: 2, discount: 0 });
  });

  it("offers money.ts's money-to-number helper (§5), not a copy", () => {
    expect(moneyToNumber).toBe(moneyHelper);
    expect(moneyToNumber('$1,234')).toBe(1234);
  });

  it('says whether a price changed since it was added, in cents and through the one formatter', () => {
    expect(priceChange({ price: 10 }, { price: 10.0 })).toEqual({ changed: false });
    expect(priceChange({ price: 10 }, { price: 12.5 })).toEqual({ changed: true, before: formatMoney('10.00'), now: formatMoney('12.50') });
  });

  it('totals in cents through the one formatter', () => {
    const cart = addToCart(addToCart([], item('a', 0.1), 3), item('b', 1234.5), 2);
    expect(cartTotals(cart)).toEqual({ lines: 2, quantity: 5, totalCents: 246930, total: '$2,469.30' });
    expect(cartTotals([])).toEqual({ lines: 0, quantity: 0, totalCents: 0, total: '$0.00' });
  });
});

// ---- properties --------------------------------------------------------------------------------

const IDS = ['a', 'b', 'c', 'd', 'e'];
const anId = fc.constantFrom(...IDS, 'not-there');
/** Amounts people and bad clients send: small, huge, zero, negative, fractional. */
const anAmount = fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: -5, max: 0 }), fc.constantFrom(1.5, MAX_QUANTITY, MAX_QUANTITY + 1, 1e12));

type Op =
  | { kind: 'add'; id: string; amount?: number }
  | { kind: 'remove' | 'increment' | 'decrement'; id: string }
  | { kind: 'set'; id: string; quantity: number }
  | { kind: 'empty' };
const anOp: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), id: anId, amount: fc.option(anAmount, { nil: undefined }) }),
  fc.record({ kind: fc.constantFrom('remove' as const, 'increment' as const, 'decrement' as const), id: anId }),
  fc.record({ kind: fc.constant('set' as const), id: anId, quantity: anAmount }),
  fc.constant({ kind: 'empty' as const }),
);

function apply(cart: Cart, op: Op): Cart {
  switch (op.kind) {
    case 'add': return addToCart(cart, item(op.id), op.amount);
    case 'remove': return removeFromCart(cart, op.id);
    case 'increment': return incrementItem(cart, op.id);
    case 'decrement': return decrementItem(cart, op.id);
    case 'set': return setItemQuantity(cart, op.id, op.quantity);
    case 'empty': return emptyCart();
  }
}

/** The model: §4 read literally on a map, with the bound and the whole-number rule of cart.ts. */
function model(state: Map<string, number>, op: Op): Map<string, number> {
  const next = new Map(state);
  const whole = (n: number) => Number.isInteger(n) && n >= 1;
  const cap = (n: number) => Math.min(n, MAX_QUANTITY);
  switch (op.kind) {
    case 'add': {
      const amount = op.amount ?? 1;
      if (!whole(amount)) return state;
      next.set(op.id, cap((state.get(op.id) ?? 0) + amount));
      return next;
    }
    case 'remove': next.delete(op.id); return next;
    case 'increment': if (state.has(op.id)) next.set(op.id, cap(state.get(op.id)! + 1)); return next;
    case 'decrement': if (state.has(op.id)) next.set(op.id, Math.max(1, state.get(op.id)! - 1)); return next;
    case 'set': if (state.has(op.id) && whole(op.quantity)) next.set(op.id, cap(op.quantity)); return next;
    case 'empty': return new Map();
  }
}

/** A deep freeze, so a function that changed its input would throw in strict mode. */
const frozen = (cart: Cart): Cart => Object.freeze(cart.map((x) => Object.freeze({ ...x })));

describe('cart rules (§4), properties', () => {
  it('any sequence of operations agrees with the model, holds ids once and quantities from 1 to MAX_QUANTITY, and never changes its input', () => {
    fc.assert(
      fc.property(fc.array(anOp, { maxLength: 60 }), (ops) => {
        let cart: Cart = [];
        let state = new Map<string, number>();
        for (const op of ops) {
          const before = frozen(cart);
          const snapshot = JSON.stringify(before);
          cart = apply(before, op);
          state = model(state, op);
          expect(JSON.stringify(before)).toBe(snapshot);
          expect(quantities(cart)).toEqual(Object.fromEntries(state));
          expect(new Set(cart.map((x) => x.id)).size).toBe(cart.length);
          for (const x of cart) expect(isCartQuantity(x.quantity)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a call that changes nothing answers the same cart (unknown id, ignored amount, decrement at 1)', () => {
    fc.assert(
      fc.property(fc.array(anOp, { maxLength: 20 }), anOp, (ops, op) => {
        const cart = ops.reduce(apply, [] as Cart);
        const next = apply(cart, op);
        if (JSON.stringify(next) === JSON.stringify(cart) && op.kind !== 'empty') expect(next).toBe(cart);
      }),
      { numRuns: 500 },
    );
  });

  it('increment then decrement gives the quantity back (below the bound); decrement never goes under 1', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_QUANTITY - 1 }), (q) => {
        const cart = addToCart([], item('a'), q);
        expect(quantities(decrementItem(incrementItem(cart, 'a'), 'a'))).toEqual({ a: q });
        let down = cart;
        for (let i = 0; i < Math.min(q + 2, 50); i++) down = decrementItem(down, 'a');
        expect(down[0].quantity).toBe(Math.max(1, q - Math.min(q + 2, 50)));
      }),
    );
  });

  it('merging a guest cart adds its quantities by the add rule (commutative on quantities, the buyer first in order)', () => {
    const aCart = fc.array(anOp, { maxLength: 20 }).map((ops) => ops.reduce(apply, [] as Cart));
    fc.assert(
      fc.property(aCart, aCart, (buyer, guest) => {
        const merged = mergeCarts(buyer, guest);
        const expected = new Map<string, number>();
        for (const x of [...buyer, ...guest]) expected.set(x.id, Math.min((expected.get(x.id) ?? 0) + x.quantity, MAX_QUANTITY));
        expect(quantities(merged)).toEqual(Object.fromEntries(expected));
        expect(quantities(mergeCarts(guest, buyer))).toEqual(quantities(merged));
        expect(merged.slice(0, buyer.length).map((x) => x.id)).toEqual(buyer.map((x) => x.id));
        expect(mergeCarts(buyer, [])).toBe(buyer);
      }),
      { numRuns: 300 },
    );
  });

  it('totals equal a BigInt reference of unit cents × quantity, and format through formatMoney', () => {
    const anItem = fc.record({
      cents: fc.integer({ min: 0, max: MAX_SELL_PRICE_CENTS }),
      quantity: fc.integer({ min: 1, max: MAX_QUANTITY }),
    });
    fc.assert(
      fc.property(fc.array(anItem, { maxLength: 8 }), (lines) => {
        const cart = lines.map((l, i) => item(`p${i}`, Number(`${Math.floor(l.cents / 100)}.${String(l.cents % 100).padStart(2, '0')}`), l.quantity));
        const reference = lines.reduce((sum, l) => sum + BigInt(l.cents) * BigInt(l.quantity), 0n);
        const totals = cartTotals(cart);
        expect(totals.lines).toBe(lines.length);
        expect(totals.quantity).toBe(lines.reduce((s, l) => s + l.quantity, 0));
        cart.forEach((x, i) => expect(lineCents(x)).toBe(lines[i].cents * lines[i].quantity));
        if (reference <= BigInt(Number.MAX_SAFE_INTEGER)) {
          expect(totals.totalCents).toBe(Number(reference));
          const text = `${reference / 100n}.${(reference % 100n).toString().padStart(2, '0')}`;
          expect(totals.total).toBe(formatMoney(text));
        } else {
          expect(totals).toMatchObject({ totalCents: undefined, total: '' });
        }
      }),
      { numRuns: 500 },
    );
  });
});
