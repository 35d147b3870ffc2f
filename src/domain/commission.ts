/**
 * Product commissions (spec §5 "Agents and commissions", §9 "Commission rounding: 2 decimals. Commission
 * percentages at least 1"), shared by the commission dialog (live preview) and the server (which
 * recomputes every price and refuses one that does not match): both import this module, so they cannot
 * disagree.
 *
 * "Commission percentages apply to the seller price. Each commission price equals percentage times
 * sellerprice divided by 100, rounded to 2 decimals. Main sell price is sellerprice plus site, dealer,
 * agent-site, agent-from-dealer and dealer-from-seller commissions."
 *
 * Money is computed in integer minor units (cents) and percentages in integer basis points (hundredths
 * of a percent: 2.5 % is 250), never with binary floats: a price or a percentage is read from its decimal
 * text digit by digit, each commission is the exact rational `cents × basisPoints / 10 000` rounded
 * half-up to the cent (every value here is non-negative, so half-up is half away from zero), and the
 * main sell price is an integer sum. The bounds below keep every intermediate product under 2^53, so
 * plain integer arithmetic on numbers is exact.
 *
 * Wire names keep the spec's spelling: the product's `ageentFormDealerCommission`, the cart's
 * `siteCommissin`, `agentFormDealerCommission` and `sellerPrice` (mapped once, in `CART_FIELD_NAMES`).
 */
import { formatMoney } from './money.ts';

/** The five commissions of a product, by their wire names, in the spec's order (site first). */
export const COMMISSION_FIELDS = [
  'siteCommission',
  'dealerSiteCommission',
  'agentSiteCommission',
  'ageentFormDealerCommission',
  'dealerCommissionFromSeller',
] as const;
export type CommissionField = (typeof COMMISSION_FIELDS)[number];

/** One value per commission field: percentages in basis points, or amounts in cents. */
export type CommissionValues = Readonly<Record<CommissionField, number>>;

/** The commission statuses of a product (`comissionStatus`, spelled so). */
export const COMMISSION_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type CommissionStatus = (typeof COMMISSION_STATUSES)[number];

/** Spec §9 "Commission percentages at least 1". */
export const MIN_COMMISSION_PERCENT = 1;
/**
 * The largest percentage accepted. The spec shows no upper bound; a commission larger than the seller's
 * own price is not a commission, and the bound keeps `cents × basisPoints` exact.
 */
export const MAX_COMMISSION_PERCENT = 100;
/** The spec's message for a missing or too small percentage (§5 "messages such as 'amount is required!'"). */
export const COMMISSION_REQUIRED_MESSAGE = 'amount is required!';

/** Cents in a unit of money. */
export const CENTS = 100;
/** Basis points in one percent. */
export const BASIS_POINTS = 100;
/** The largest seller price accepted, in cents: 1,000,000,000.00. */
export const MAX_PRICE_CENTS = 100_000_000_000;
/** The largest main sell price there can be: the largest seller price plus five commissions of 100 %. */
export const MAX_SELL_PRICE_CENTS = MAX_PRICE_CENTS * (1 + (COMMISSION_FIELDS.length * MAX_COMMISSION_PERCENT) / 100);
/** The largest quantity an order line may freeze (keeps a line's totals exact integers). */
export const MAX_QUANTITY = 10_000;

/** What a parse or check gives: the value, or why not. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A refusal shaped like the API's 400 body: `{ message, errors: { field: [messages] } }`. */
export interface Refusal {
  ok: false;
  message: string;
  errors: Record<string, string[]>;
}

// ---------------------------------------------------------------------------------------------------
// Decimals

/**
 * A non-negative decimal (a number, or text such as '12.5') as an integer count of `10^-decimals` units,
 * read from its digits so no binary rounding ever happens. Trailing zeros past `decimals` are fine
 * ('12.500'); other digits past it are refused, as are NaN, ±Infinity, negatives, exponents in text,
 * thousands separators and anything over `maxUnits`.
 */
function parseDecimal(input: unknown, decimals: number, maxUnits: number, maxText: string): Parsed<number> {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, reason: 'must be a finite number' };
    if (input < 0) return { ok: false, reason: 'must not be negative' };
    // String() gives the shortest text that reads back as the same number: 12.5 → '12.5', and a float
    // that is not what was meant (0.1 + 0.2 → '0.30000000000000004') shows its extra digits.
    text = String(input);
    if (/e/i.test(text))
      return input >= 1
        ? { ok: false, reason: `must be at most ${maxText}` }
        : { ok: false, reason: `must have at most ${decimals} decimals` };
  } else if (typeof input === 'string') {
    text = input.trim();
    if (!text) return { ok: false, reason: 'is required' };
  } else if (input === null || input === undefined) {
    return { ok: false, reason: 'is required' };
  } else {
    return { ok: false, reason: 'must be a number' };
  }
  if (/^-\s*(\d+\.?\d*|\.\d+)$/.test(text)) return { ok: false, reason: 'must not be negative' };
  // '12', '12.5', '12.' (half typed) and '.5'; a leading '+' is not a price anyone types.
  const match = /^(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || !/\d/.test(text)) return { ok: false, reason: 'must be a number' };
  const whole = match[1].replace(/^0+/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) return { ok: false, reason: `must have at most ${decimals} decimals` };
  // More whole digits than the bound has cannot be under it; stop before Number() could round.
  if (whole.length > String(maxUnits).length) return { ok: false, reason: `must be at most ${maxText}` };
  const units = Number(whole || '0') * 10 ** decimals + Number(fraction.padEnd(decimals, '0') || '0');
  if (units > maxUnits) return { ok: false, reason: `must be at most ${maxText}` };
  return { ok: true, value: units };
}

/** Integer units of `10^-decimals` as plain decimal text with exactly `decimals` places: 1250 → '12.50'. */
function formatUnits(units: number, decimals: number): string {
  if (!Number.isSafeInteger(units)) throw new RangeError(`not a whole number of units: ${units}`);
  const digits = String(Math.abs(units)).padStart(decimals + 1, '0');
  const text = `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return units < 0 ? `-${text}` : text;
}

/**
 * A price (a number such as 12.5, or text such as '12.50') as integer cents: `parsePrice('12.5')` →
 * `{ ok: true, value: 1250 }`. Refused, with the reason: NaN, ±Infinity, negatives, more than 2
 * decimals (`0.1 + 0.2` included), text that is not a plain decimal, and more than 1,000,000,000.00.
 */
export function parsePrice(input: unknown): Parsed<number> {
  return parseDecimal(input, 2, MAX_PRICE_CENTS, formatUnits(MAX_PRICE_CENTS, 2));
}

/** `parsePrice` for a main sell price (`price`), which may be up to `MAX_SELL_PRICE_CENTS`. */
export function parseSellPrice(input: unknown): Parsed<number> {
  return parseDecimal(input, 2, MAX_SELL_PRICE_CENTS, formatUnits(MAX_SELL_PRICE_CENTS, 2));
}

/**
 * A percentage (2.5 or '2.5') as integer basis points: `parsePercent(2.5)` → `{ ok: true, value: 250 }`.
 * At most 2 decimals and at most `MAX_COMMISSION_PERCENT`; the minimum of 1 % is checked by
 * `parseCommissionPercent` (a site-wide default may be read here before it is checked).
 */
export function parsePercent(input: unknown): Parsed<number> {
  return parseDecimal(input, 2, MAX_COMMISSION_PERCENT * BASIS_POINTS, String(MAX_COMMISSION_PERCENT));
}

/** `parsePercent`, plus the spec's minimum of 1 %; missing or below it gives 'amount is required!'. */
export function parseCommissionPercent(input: unknown): Parsed<number> {
  const parsed = parsePercent(input);
  if (!parsed.ok && parsed.reason === 'is required') return { ok: false, reason: COMMISSION_REQUIRED_MESSAGE };
  if (parsed.ok && parsed.value < MIN_COMMISSION_PERCENT * BASIS_POINTS)
    return { ok: false, reason: COMMISSION_REQUIRED_MESSAGE };
  return parsed;
}

/** Cents as 2-decimal text, without floats: 1250 → '12.50', 5 → '0.05'. */
export function formatCents(cents: number): string {
  return formatUnits(cents, 2);
}

/** Cents as the wire's number: 1250 → 12.5 (the double nearest the exact amount, which is what '12.5' reads as). */
export function centsToNumber(cents: number): number {
  return Number(formatCents(cents));
}

/** Cents through the app's one money formatter (§9, en-US, USD by default): 123450 → '$1,234.50'. */
export function formatCentsMoney(cents: number, currency?: string | null): string {
  return formatMoney(formatCents(cents), currency);
}

/** Basis points as the wire's percentage number: 250 → 2.5. */
export function basisPointsToPercent(basisPoints: number): number {
  return Number(formatUnits(basisPoints, 2));
}

// ---------------------------------------------------------------------------------------------------
// The math

/**
 * One commission price in cents: `sellerPriceCents × basisPoints / 10 000`, rounded half-up to the
 * cent: `commissionCents(1001, 250)` → 25 (25.025 cents). Inputs are whole, non-negative and within the
 * bounds (a RangeError otherwise: parse with `parsePrice` / `parsePercent` first).
 */
export function commissionCents(sellerPriceCents: number, basisPoints: number): number {
  if (!Number.isSafeInteger(sellerPriceCents) || sellerPriceCents < 0 || sellerPriceCents > MAX_PRICE_CENTS)
    throw new RangeError(`seller price out of range: ${sellerPriceCents} cents`);
  if (!Number.isSafeInteger(basisPoints) || basisPoints < 0 || basisPoints > MAX_COMMISSION_PERCENT * BASIS_POINTS)
    throw new RangeError(`percentage out of range: ${basisPoints} basis points`);
  const divisor = CENTS * BASIS_POINTS; // percent of (÷100), in basis points (÷100)
  const exact = sellerPriceCents * basisPoints; // at most 10^11 × 10^4 = 10^15 < 2^53: exact
  const remainder = exact % divisor;
  const whole = (exact - remainder) / divisor;
  return remainder * 2 >= divisor ? whole + 1 : whole;
}

/** A product's prices, all computed from its seller price and five percentages. */
export interface CommissionQuote {
  /** The seller's price, in cents. */
  sellerPriceCents: number;
  /** The five percentages, in basis points. */
  percentBasisPoints: CommissionValues;
  /** The five commission prices, in cents. */
  commissionCents: CommissionValues;
  /** The five commission prices added up, in cents. */
  totalCommissionCents: number;
  /** The main sell price (`price` on the wire): seller price plus the five commissions, in cents. */
  priceCents: number;
}

/** The quote of a seller price (cents) and five percentages (basis points). Pure; the result is frozen. */
export function quoteCommission(sellerPriceCents: number, percentBasisPoints: CommissionValues): CommissionQuote {
  const commissions = {} as Record<CommissionField, number>;
  const percents = {} as Record<CommissionField, number>;
  let total = 0;
  for (const field of COMMISSION_FIELDS) {
    percents[field] = percentBasisPoints[field];
    commissions[field] = commissionCents(sellerPriceCents, percentBasisPoints[field]);
    total += commissions[field];
  }
  return Object.freeze({
    sellerPriceCents,
    percentBasisPoints: Object.freeze(percents),
    commissionCents: Object.freeze(commissions),
    totalCommissionCents: total,
    priceCents: sellerPriceCents + total,
  });
}

/**
 * The quote whose main sell price is exactly `priceCents` (an auction's winning bid: the buyer pays what
 * it bid): the largest seller price whose quote does not exceed it, and the cents the rounding leaves
 * added to the site commission, so seller price plus the five commissions is the price to the cent.
 * The quote's price never falls as the seller price rises, so the seller price is found by halving.
 */
export function quoteForSellPrice(priceCents: number, percentBasisPoints: CommissionValues): CommissionQuote {
  if (!Number.isSafeInteger(priceCents) || priceCents < 0 || priceCents > MAX_SELL_PRICE_CENTS) throw new RangeError(`sell price out of range: ${priceCents} cents`);
  let lo = 0;
  let hi = Math.min(priceCents, MAX_PRICE_CENTS);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (quoteCommission(mid, percentBasisPoints).priceCents <= priceCents) lo = mid;
    else hi = mid - 1;
  }
  const quote = quoteCommission(lo, percentBasisPoints);
  const left = priceCents - quote.priceCents;
  const commissions = { ...quote.commissionCents, siteCommission: quote.commissionCents.siteCommission + left };
  return Object.freeze({
    ...quote,
    commissionCents: Object.freeze(commissions),
    totalCommissionCents: quote.totalCommissionCents + left,
    priceCents,
  });
}

/** The product's commission fields as sent (PATCH /products/{id}/commission) and stored. */
export type CommissionWireInput = { sellerprice?: unknown; price?: unknown } & Partial<
  Record<CommissionField, unknown>
>;

/** A product's prices on the wire: `sellerprice` and `price` in money, the five fields in percent. */
export type CommissionWire = { sellerprice: number; price: number } & Record<CommissionField, number>;

/**
 * The quote of a product's wire fields (`sellerprice` and the five percentages; `price` is ignored),
 * or a refusal naming each bad field: 'sellerprice must have at most 2 decimals', 'amount is required!'.
 */
export function quoteFromWire(input: CommissionWireInput): { ok: true; quote: CommissionQuote } | Refusal {
  const errors: Record<string, string[]> = {};
  const seller = parsePrice(input?.sellerprice);
  if (!seller.ok) errors.sellerprice = [`sellerprice ${seller.reason}`];
  const percents = {} as Record<CommissionField, number>;
  for (const field of COMMISSION_FIELDS) {
    const parsed = parseCommissionPercent(input?.[field]);
    if (parsed.ok) percents[field] = parsed.value;
    else errors[field] = [parsed.reason === COMMISSION_REQUIRED_MESSAGE ? parsed.reason : `${field} ${parsed.reason}`];
  }
  if (!seller.ok || Object.keys(errors).length) return { ok: false, message: 'Invalid commission', errors };
  return { ok: true, quote: quoteCommission(seller.value, percents) };
}

/** A quote as the wire's fields: what the server stores and answers for a product's commission. */
export function quoteToWire(quote: CommissionQuote): CommissionWire {
  const wire = {
    sellerprice: centsToNumber(quote.sellerPriceCents),
    price: centsToNumber(quote.priceCents),
  } as CommissionWire;
  for (const field of COMMISSION_FIELDS) wire[field] = basisPointsToPercent(quote.percentBasisPoints[field]);
  return wire;
}

/** Why `checkPrices` refused a price that parsed but does not match the percentages. */
export interface PriceMismatch {
  field: 'price';
  /** The price the percentages give, as 2-decimal text ('123.45'). */
  expected: string;
  expectedCents: number;
  receivedCents: number;
}

/**
 * The server's check of a client's prices: parses `sellerprice`, the five percentages and `price`,
 * recomputes, and refuses a `price` that is not exactly (to the cent) the seller price plus the five
 * commissions. On success the quote is what the server stores (never the client's numbers).
 * A refusal names the field and, for a mismatch, the expected value:
 *   `{ ok: false, message: 'price does not match the commission percentages: expected 123.45',
 *      errors: { price: ['price must be 123.45 (sellerprice plus the five commissions)'] },
 *      mismatch: { field: 'price', expected: '123.45', expectedCents: 12345, receivedCents: 12346 } }`
 */
export function checkPrices(
  input: CommissionWireInput,
): { ok: true; quote: CommissionQuote } | (Refusal & { mismatch?: PriceMismatch }) {
  const quoted = quoteFromWire(input);
  const price = parseSellPrice(input?.price);
  if (!quoted.ok) {
    if (!price.ok) quoted.errors.price = [`price ${price.reason}`];
    return quoted;
  }
  if (!price.ok) return { ok: false, message: 'Invalid commission', errors: { price: [`price ${price.reason}`] } };
  const { quote } = quoted;
  if (price.value !== quote.priceCents) {
    const expected = formatCents(quote.priceCents);
    return {
      ok: false,
      message: `price does not match the commission percentages: expected ${expected}`,
      errors: { price: [`price must be ${expected} (sellerprice plus the five commissions)`] },
      mismatch: { field: 'price', expected, expectedCents: quote.priceCents, receivedCents: price.value },
    };
  }
  return { ok: true, quote };
}

/**
 * What the commission dialog shows while the seller price and percentages are typed: each commission
 * price and the main sell price as 2-decimal text, '' where an input is not (yet) a valid number.
 * Never throws.
 */
export function previewCommission(input: CommissionWireInput): Record<CommissionField | 'price', string> {
  const seller = parsePrice(input?.sellerprice);
  const preview = { price: '' } as Record<CommissionField | 'price', string>;
  let total = 0;
  let complete = seller.ok;
  for (const field of COMMISSION_FIELDS) {
    const percent = parsePercent(input?.[field]);
    if (seller.ok && percent.ok) {
      const cents = commissionCents(seller.value, percent.value);
      preview[field] = formatCents(cents);
      total += cents;
    } else {
      preview[field] = '';
      complete = false;
    }
  }
  if (complete && seller.ok) preview.price = formatCents(seller.value + total);
  return preview;
}

// ---------------------------------------------------------------------------------------------------
// Cart spelling

/**
 * The product's field names → the cart item's (§3 "Cart item": `siteCommissin`, `agentFormDealerCommission`
 * and `sellerPrice`, spelled so). The one place the two spellings meet.
 */
export const CART_FIELD_NAMES = Object.freeze({
  siteCommission: 'siteCommissin',
  dealerSiteCommission: 'dealerSiteCommission',
  agentSiteCommission: 'agentSiteCommission',
  ageentFormDealerCommission: 'agentFormDealerCommission',
  dealerCommissionFromSeller: 'dealerCommissionFromSeller',
  sellerprice: 'sellerPrice',
  price: 'price',
} as const);
type ProductPriceField = keyof typeof CART_FIELD_NAMES;
type CartPriceField = (typeof CART_FIELD_NAMES)[ProductPriceField];

/**
 * A product's price fields under the cart's names: `{ siteCommission: 5 }` → `{ siteCommissin: 5 }`.
 * Other fields are left out.
 */
export function toCartFields<T>(product: Partial<Record<ProductPriceField, T>>): Partial<Record<CartPriceField, T>> {
  const cart: Partial<Record<CartPriceField, T>> = {};
  for (const [from, to] of Object.entries(CART_FIELD_NAMES) as [ProductPriceField, CartPriceField][])
    if (product && from in product) cart[to] = product[from];
  return cart;
}

/**
 * A cart item's price fields under the product's names: `{ sellerPrice: 10 }` → `{ sellerprice: 10 }`.
 * Other fields are left out.
 */
export function fromCartFields<T>(cart: Partial<Record<CartPriceField, T>>): Partial<Record<ProductPriceField, T>> {
  const product: Partial<Record<ProductPriceField, T>> = {};
  for (const [to, from] of Object.entries(CART_FIELD_NAMES) as [ProductPriceField, CartPriceField][])
    if (cart && from in cart) product[to] = cart[from];
  return product;
}

// ---------------------------------------------------------------------------------------------------
// Orders

/** A product as an order reads it: its wire price fields and its `comissionStatus` (spelled so). */
export type CommissionProduct = CommissionWireInput & { comissionStatus?: unknown };

/** The commission lines of one order line, frozen when the order is placed (amounts in cents). */
export interface FrozenCommissionLine {
  quantity: number;
  /** The percentages the amounts were computed with, in basis points. */
  percentBasisPoints: CommissionValues;
  /** One unit's seller price, commissions and main sell price. */
  unit: Readonly<{ sellerPriceCents: number; commissionCents: CommissionValues; priceCents: number }>;
  /** The line's: each unit amount times the quantity (rounded per unit, then multiplied, so line = unit × quantity). */
  total: Readonly<{ sellerPriceCents: number; commissionCents: CommissionValues; priceCents: number }>;
}

/**
 * Spec: "Once approved, a product's commission lines are frozen onto each order that sells it". The
 * order line's amounts, computed now from the product's seller price and percentages (not from its
 * stored `price`) and returned frozen, so later changes to the product do not reach placed orders.
 * Refused: a product whose `comissionStatus` is not APPROVED, bad price fields, and a quantity that is
 * not a whole number from 1 to `MAX_QUANTITY`.
 */
export function freezeCommissionLines(
  product: CommissionProduct,
  quantity: unknown,
): { ok: true; line: FrozenCommissionLine } | Refusal {
  if (product?.comissionStatus !== 'APPROVED')
    return {
      ok: false,
      message: 'The commission of this product is not approved',
      errors: { comissionStatus: ['comissionStatus must be APPROVED'] },
    };
  if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY)
    return {
      ok: false,
      message: 'Invalid quantity',
      errors: { quantity: [`quantity must be a whole number from 1 to ${MAX_QUANTITY}`] },
    };
  const quoted = quoteFromWire(product);
  if (!quoted.ok) return quoted;
  const { quote } = quoted;
  const times = {} as Record<CommissionField, number>;
  for (const field of COMMISSION_FIELDS) times[field] = quote.commissionCents[field] * quantity;
  return {
    ok: true,
    line: Object.freeze({
      quantity,
      percentBasisPoints: quote.percentBasisPoints,
      unit: Object.freeze({
        sellerPriceCents: quote.sellerPriceCents,
        commissionCents: quote.commissionCents,
        priceCents: quote.priceCents,
      }),
      total: Object.freeze({
        sellerPriceCents: quote.sellerPriceCents * quantity,
        commissionCents: Object.freeze(times),
        priceCents: quote.priceCents * quantity,
      }),
    }),
  };
}
