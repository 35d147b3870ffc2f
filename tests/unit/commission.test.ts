import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import {
  CART_FIELD_NAMES,
  COMMISSION_FIELDS,
  MAX_PRICE_CENTS,
  MAX_QUANTITY,
  MAX_SELL_PRICE_CENTS,
  basisPointsToPercent,
  centsToNumber,
  checkPrices,
  commissionCents,
  formatCents,
  formatCentsMoney,
  freezeCommissionLines,
  fromCartFields,
  parseCommissionPercent,
  parsePercent,
  parsePrice,
  parseSellPrice,
  previewCommission,
  quoteCommission,
  quoteFromWire,
  quoteToWire,
  toCartFields,
  type CommissionField,
} from '../../src/domain/commission.ts';

/** Five equal percentages under the wire names. */
const all = (percent: number | string) =>
  Object.fromEntries(COMMISSION_FIELDS.map((f) => [f, percent])) as Record<CommissionField, number | string>;
/** The same amount under each of the five names. */
const each = (value: number) => Object.fromEntries(COMMISSION_FIELDS.map((f) => [f, value]));

describe('parsePrice: money to integer cents, exactly', () => {
  it.each([
    [12.5, 1250],
    ['12.5', 1250],
    ['12.50', 1250],
    ['12.500', 1250],
    [' 7 ', 700],
    ['0', 0],
    [0, 0],
    [-0, 0],
    ['.5', 50],
    ['12.', 1200],
    ['0012.34', 1234],
    [0.01, 1],
    [0.29, 29], // 0.29 * 100 is 28.999999999999996 in floats; read from its digits it is 29
  ])('%j → %i cents', (input, cents) => {
    expect(parsePrice(input)).toEqual({ ok: true, value: cents });
  });

  it('reads the largest price and refuses one cent more', () => {
    expect(parsePrice('1000000000.00')).toEqual({ ok: true, value: MAX_PRICE_CENTS });
    expect(parsePrice(1_000_000_000)).toEqual({ ok: true, value: MAX_PRICE_CENTS });
    expect(parsePrice('1000000000.01')).toEqual({ ok: false, reason: 'must be at most 1000000000.00' });
    expect(parsePrice('99999999999999999999999')).toEqual({ ok: false, reason: 'must be at most 1000000000.00' });
    expect(parsePrice(1e21)).toEqual({ ok: false, reason: 'must be at most 1000000000.00' });
  });

  it.each([
    [NaN, 'must be a finite number'],
    [Infinity, 'must be a finite number'],
    [-Infinity, 'must be a finite number'],
    [-1, 'must not be negative'],
    [-0.01, 'must not be negative'],
    ['-5', 'must not be negative'],
    ['- 5.5', 'must not be negative'],
    [1.005, 'must have at most 2 decimals'],
    ['1.005', 'must have at most 2 decimals'],
    [0.1 + 0.2, 'must have at most 2 decimals'],
    [1e-7, 'must have at most 2 decimals'],
    ['1e3', 'must be a number'],
    ['1,234.50', 'must be a number'],
    ['$5', 'must be a number'],
    ['+5', 'must be a number'],
    ['.', 'must be a number'],
    ['abc', 'must be a number'],
    ['1.2.3', 'must be a number'],
    ['', 'is required'],
    ['   ', 'is required'],
    [null, 'is required'],
    [undefined, 'is required'],
    [true, 'must be a number'],
    [{}, 'must be a number'],
    [[5], 'must be a number'],
  ])('refuses %j: %s', (input, reason) => {
    expect(parsePrice(input)).toEqual({ ok: false, reason });
  });
  it('refuses a BigInt (not what JSON carries)', () => {
    expect(parsePrice(5n)).toEqual({ ok: false, reason: 'must be a number' });
  });
});

describe('parsePercent: percentages to basis points', () => {
  it('reads whole and decimal percentages exactly', () => {
    expect(parsePercent(1)).toEqual({ ok: true, value: 100 });
    expect(parsePercent(2.5)).toEqual({ ok: true, value: 250 });
    expect(parsePercent('33.33')).toEqual({ ok: true, value: 3333 });
    expect(parsePercent(100)).toEqual({ ok: true, value: 10_000 });
    expect(parsePercent(0)).toEqual({ ok: true, value: 0 });
  });
  it('refuses more than 2 decimals, more than 100 %, negatives and junk', () => {
    expect(parsePercent(2.125)).toEqual({ ok: false, reason: 'must have at most 2 decimals' });
    expect(parsePercent(100.01)).toEqual({ ok: false, reason: 'must be at most 100' });
    expect(parsePercent(-1)).toEqual({ ok: false, reason: 'must not be negative' });
    expect(parsePercent('ten')).toEqual({ ok: false, reason: 'must be a number' });
  });
  it("checks the spec's minimum of 1 % with 'amount is required!'", () => {
    expect(parseCommissionPercent(1)).toEqual({ ok: true, value: 100 });
    for (const below of [0, 0.99, '0.5', '', null, undefined])
      expect(parseCommissionPercent(below)).toEqual({ ok: false, reason: 'amount is required!' });
    expect(parseCommissionPercent('x')).toEqual({ ok: false, reason: 'must be a number' });
  });
});

describe('formatting cents back', () => {
  it('gives 2-decimal text without floats', () => {
    expect(formatCents(1250)).toBe('12.50');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(100)).toBe('1.00');
    expect(formatCents(-5)).toBe('-0.05');
    expect(formatCents(MAX_PRICE_CENTS * 6)).toBe('6000000000.00');
    expect(() => formatCents(1.5)).toThrow(RangeError);
  });
  it('gives the wire number, basis points as percent, and the app formatter', () => {
    expect(centsToNumber(1250)).toBe(12.5);
    expect(centsToNumber(29)).toBe(0.29);
    expect(basisPointsToPercent(250)).toBe(2.5);
    expect(formatCentsMoney(123450)).toBe('$1,234.50');
    expect(formatCentsMoney(5, 'EUR')).toBe('€0.05');
  });
});

describe('commissionCents: percentage × sellerprice / 100, half-up to the cent', () => {
  it.each([
    // [seller price cents, basis points, commission cents, why]
    [10_000, 1_000, 1_000, '10 % of 100.00 is 10.00'],
    [10_000, 100, 100, '1 % (the minimum) of 100.00 is 1.00'],
    [1_999, 250, 50, '2.5 % of 19.99 is 0.49975 → 0.50'],
    [1_001, 250, 25, '2.5 % of 10.01 is 0.25025 → 0.25'],
    [50, 100, 1, '1 % of 0.50 is 0.005: exactly half a cent rounds up → 0.01'],
    [49, 100, 0, '1 % of 0.49 is 0.0049 → 0.00'],
    [150, 100, 2, '1 % of 1.50 is 0.015 → 0.02 (in floats 0.015 is 0.01499…, which toFixed(2) makes 0.01)'],
    [1, 5_000, 1, '50 % of 0.01 is 0.005 → 0.01'],
    [1_000_000_000, 333, 33_300_000, '3.33 % of 10,000,000.00 is 333,000.00'],
    [999_999_999, 1_234, 123_400_000, '12.34 % of 9,999,999.99 is 1,233,999.9987... → 1,234,000.00'],
    [MAX_PRICE_CENTS, 10_000, MAX_PRICE_CENTS, '100 % of the largest price'],
    [0, 5_000, 0, 'nothing of nothing'],
  ])('%i cents at %i bp → %i cents (%s)', (cents, bp, expected) => {
    expect(commissionCents(cents, bp)).toBe(expected);
  });

  it('refuses inputs outside the bounds (parse first)', () => {
    expect(() => commissionCents(1.5, 100)).toThrow(RangeError);
    expect(() => commissionCents(-1, 100)).toThrow(RangeError);
    expect(() => commissionCents(MAX_PRICE_CENTS + 1, 100)).toThrow(RangeError);
    expect(() => commissionCents(100, 10_001)).toThrow(RangeError);
    expect(() => commissionCents(100, NaN)).toThrow(RangeError);
  });
});

describe('quotes: the five commissions and the main sell price', () => {
  it('adds the seller price and the five commissions (worked example)', () => {
    const q = quoteFromWire({
      sellerprice: '199.99',
      siteCommission: 5,
      dealerSiteCommission: 2.5,
      agentSiteCommission: 1,
      ageentFormDealerCommission: 1.5,
      dealerCommissionFromSeller: 3,
    });
    expect(q.ok).toBe(true);
    if (!q.ok) return;
    // 5 % of 199.99 = 9.9995 → 10.00; 2.5 % = 4.99975 → 5.00; 1 % = 1.9999 → 2.00;
    // 1.5 % = 2.99985 → 3.00; 3 % = 5.9997 → 6.00
    expect(q.quote.commissionCents).toEqual({
      siteCommission: 1000,
      dealerSiteCommission: 500,
      agentSiteCommission: 200,
      ageentFormDealerCommission: 300,
      dealerCommissionFromSeller: 600,
    });
    expect(q.quote.totalCommissionCents).toBe(2600);
    expect(q.quote.priceCents).toBe(19_999 + 2600);
    expect(quoteToWire(q.quote)).toEqual({
      sellerprice: 199.99,
      price: 225.99,
      siteCommission: 5,
      dealerSiteCommission: 2.5,
      agentSiteCommission: 1,
      ageentFormDealerCommission: 1.5,
      dealerCommissionFromSeller: 3,
    });
  });

  it('rounds each commission on its own, then adds (as the dialog shows them)', () => {
    // 1 % of 0.50 five times: each 0.005 → 0.01, so the price is 0.55, not 0.50 + round(0.025) = 0.53.
    const q = quoteCommission(50, each(100) as Record<CommissionField, number>);
    expect(q.priceCents).toBe(55);
  });

  it('names every bad field', () => {
    const q = quoteFromWire({ sellerprice: '1.005', ...all(2), siteCommission: 0, dealerSiteCommission: 'x' });
    expect(q).toEqual({
      ok: false,
      message: 'Invalid commission',
      errors: {
        sellerprice: ['sellerprice must have at most 2 decimals'],
        siteCommission: ['amount is required!'],
        dealerSiteCommission: ['dealerSiteCommission must be a number'],
      },
    });
    expect(quoteFromWire(undefined as never)).toMatchObject({ ok: false, errors: { sellerprice: ['sellerprice is required'] } });
  });
});

describe('checkPrices: the server refuses a price that does not match the percentages', () => {
  const body = { sellerprice: 100, ...all(2) }; // five times 2 % of 100.00 = 10.00

  it('accepts the exact price, as number or text', () => {
    for (const price of [110, '110', '110.00', 110.0]) {
      const checked = checkPrices({ ...body, price });
      expect(checked.ok).toBe(true);
      if (checked.ok) expect(checked.quote.priceCents).toBe(11_000);
    }
  });

  it('refuses a price one cent off, naming the field and the expected value', () => {
    expect(checkPrices({ ...body, price: 110.01 })).toEqual({
      ok: false,
      message: 'price does not match the commission percentages: expected 110.00',
      errors: { price: ['price must be 110.00 (sellerprice plus the five commissions)'] },
      mismatch: { field: 'price', expected: '110.00', expectedCents: 11_000, receivedCents: 11_001 },
    });
    expect(checkPrices({ ...body, price: 100 })).toMatchObject({ ok: false, mismatch: { expected: '110.00', receivedCents: 10_000 } });
  });

  it('refuses a float-summed price (what a client adding binary floats may send)', () => {
    // 0.1 + 0.2 style sums: 19.99 + five commissions summed in floats
    const floatSum = 19.99 + 0.4 + 0.4 + 0.4 + 0.4 + 0.4;
    expect(String(floatSum)).not.toBe('21.99');
    expect(checkPrices({ sellerprice: 19.99, ...all(2), price: floatSum })).toEqual({
      ok: false,
      message: 'Invalid commission',
      errors: { price: ['price must have at most 2 decimals'] },
    });
  });

  it('accepts main sell prices above the largest seller price, up to five commissions of 100 %', () => {
    const top = { sellerprice: '1000000000.00', ...all(100) };
    expect(checkPrices({ ...top, price: '6000000000.00' }).ok).toBe(true);
    expect(checkPrices({ ...top, price: '6000000000.01' })).toMatchObject({ ok: false, errors: { price: ['price must be at most 6000000000.00'] } });
    expect(parseSellPrice('6000000000.00')).toEqual({ ok: true, value: MAX_SELL_PRICE_CENTS });
  });

  it('reports bad price and bad percentages together', () => {
    const checked = checkPrices({ sellerprice: -1, ...all(1), agentSiteCommission: 200, price: 'abc' });
    expect(checked).toEqual({
      ok: false,
      message: 'Invalid commission',
      errors: {
        sellerprice: ['sellerprice must not be negative'],
        agentSiteCommission: ['agentSiteCommission must be at most 100'],
        price: ['price must be a number'],
      },
    });
    expect(checkPrices({ ...body })).toMatchObject({ ok: false, errors: { price: ['price is required'] } });
    expect(checkPrices(null as never)).toMatchObject({ ok: false });
  });
});

describe('previewCommission: what the dialog shows while typing', () => {
  it('shows each commission price and the main sell price', () => {
    expect(previewCommission({ sellerprice: '10.01', ...all('2.5') })).toEqual({
      siteCommission: '0.25',
      dealerSiteCommission: '0.25',
      agentSiteCommission: '0.25',
      ageentFormDealerCommission: '0.25',
      dealerCommissionFromSeller: '0.25',
      price: '11.26',
    });
  });
  it('shows blanks where an input is not a number yet, and never throws', () => {
    expect(previewCommission({ sellerprice: '10.', ...all(1), siteCommission: '' })).toEqual({
      siteCommission: '',
      dealerSiteCommission: '0.10',
      agentSiteCommission: '0.10',
      ageentFormDealerCommission: '0.10',
      dealerCommissionFromSeller: '0.10',
      price: '',
    });
    expect(previewCommission({ sellerprice: 'abc', ...all(1) }).price).toBe('');
    expect(previewCommission(undefined as never).price).toBe('');
  });
});

describe('cart spelling (siteCommissin, agentFormDealerCommission, sellerPrice)', () => {
  it('maps product fields to cart fields and back', () => {
    const product = { sellerprice: 10, price: 11, ...all(2) };
    const cart = toCartFields(product);
    expect(cart).toEqual({
      siteCommissin: 2,
      dealerSiteCommission: 2,
      agentSiteCommission: 2,
      agentFormDealerCommission: 2,
      dealerCommissionFromSeller: 2,
      sellerPrice: 10,
      price: 11,
    });
    expect(fromCartFields(cart)).toEqual(product);
    expect(Object.keys(CART_FIELD_NAMES)).toEqual([...COMMISSION_FIELDS, 'sellerprice', 'price']);
  });
  it('leaves out fields that are not there or not prices', () => {
    expect(toCartFields({ siteCommission: 3, name: 'x' } as never)).toEqual({ siteCommissin: 3 });
    expect(fromCartFields({ quantity: 2, sellerPrice: 4 } as never)).toEqual({ sellerprice: 4 });
  });
});

describe('freezeCommissionLines: an approved product\'s amounts, frozen onto an order line', () => {
  const product = { sellerprice: '19.99', price: 21.99, comissionStatus: 'APPROVED', ...all(2) };

  it('computes unit and line amounts in cents (per unit rounded, then times the quantity)', () => {
    const frozen = freezeCommissionLines(product, 3);
    expect(frozen.ok).toBe(true);
    if (!frozen.ok) return;
    const { line } = frozen;
    // 2 % of 19.99 = 0.3998 → 0.40 a unit
    expect(line.quantity).toBe(3);
    expect(line.percentBasisPoints.siteCommission).toBe(200);
    expect(line.unit).toEqual({ sellerPriceCents: 1999, commissionCents: each(40), priceCents: 2199 });
    expect(line.total).toEqual({ sellerPriceCents: 5997, commissionCents: each(120), priceCents: 6597 });
  });

  it('returns frozen amounts that later product changes cannot reach', () => {
    const source = { ...product };
    const frozen = freezeCommissionLines(source, 1);
    if (!frozen.ok) throw new Error('expected a line');
    source.siteCommission = 50;
    source.sellerprice = '1.00';
    expect(frozen.line.unit.commissionCents.siteCommission).toBe(40);
    expect(Object.isFrozen(frozen.line)).toBe(true);
    expect(Object.isFrozen(frozen.line.unit)).toBe(true);
    expect(Object.isFrozen(frozen.line.total.commissionCents)).toBe(true);
    expect(Object.isFrozen(frozen.line.percentBasisPoints)).toBe(true);
  });

  it('refuses a product whose commission is not approved', () => {
    for (const comissionStatus of ['PENDING', 'REJECTED', undefined, 'approved'])
      expect(freezeCommissionLines({ ...product, comissionStatus }, 1)).toEqual({
        ok: false,
        message: 'The commission of this product is not approved',
        errors: { comissionStatus: ['comissionStatus must be APPROVED'] },
      });
  });

  it('refuses a quantity that is not a whole number from 1 to the maximum', () => {
    for (const quantity of [0, -1, 1.5, NaN, '2', MAX_QUANTITY + 1, null])
      expect(freezeCommissionLines(product, quantity)).toMatchObject({ ok: false, errors: { quantity: [expect.any(String)] } });
    expect(freezeCommissionLines(product, MAX_QUANTITY).ok).toBe(true);
  });

  it('keeps the largest line an exact integer', () => {
    const big = freezeCommissionLines({ sellerprice: '1000000000.00', comissionStatus: 'APPROVED', ...all(100) }, MAX_QUANTITY);
    if (!big.ok) throw new Error('expected a line');
    expect(big.line.total.priceCents).toBe(MAX_PRICE_CENTS * 6 * MAX_QUANTITY);
    expect(Number.isSafeInteger(big.line.total.priceCents)).toBe(true);
  });

  it('refuses bad stored prices rather than freezing them', () => {
    expect(freezeCommissionLines({ ...product, sellerprice: 'abc' }, 1)).toMatchObject({
      ok: false,
      errors: { sellerprice: ['sellerprice must be a number'] },
    });
  });
});

// ---------------------------------------------------------------------------------------------------
// A decimal reference, written apart from the module: decimal text in, decimal text out, BigInt only.

/** Decimal text ('12.3', '7') → BigInt count of hundredths. */
function hundredths(text: string): bigint {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
}
/**
 * The commission of a price and a percentage, both decimal text with at most 2 decimals, as 2-decimal
 * text: price (hundredths) × percent (hundredths) is the commission in millionths of money; the cent
 * digit is the 4th from the right, and the 4 digits after it decide the rounding (≥ 5000: up).
 */
function referenceCommission(price: string, percent: string): bigint {
  const millionths = (hundredths(price) * hundredths(percent)).toString().padStart(5, '0');
  const cents = BigInt(millionths.slice(0, -4));
  return millionths.slice(-4) >= '5000' ? cents + 1n : cents;
}
/** A wire body: the seller price and the five percentages in field order. */
const bodyOf = <T>(sellerprice: T, percents: T[]) => ({
  sellerprice,
  ...Object.fromEntries(COMMISSION_FIELDS.map((f, i) => [f, percents[i]])),
});
/** BigInt hundredths → 2-decimal text. */
const decimalText = (n: bigint) => `${n / 100n}.${(n % 100n).toString().padStart(2, '0')}`;
/** An arbitrary 2-decimal text, sometimes with fewer decimals ('12', '12.5'), as a client may send it. */
const decimalOf = (maxHundredths: bigint, minHundredths = 0n) =>
  fc.tuple(fc.bigInt({ min: minHundredths, max: maxHundredths }), fc.boolean()).map(([n, trim]) => {
    const text = decimalText(n);
    return trim ? text.replace(/\.?0+$/, '') || '0' : text;
  });

describe('property: 10,000 random prices and percentages agree with the decimal reference', () => {
  it('to the cent, for text and number inputs, on two separately loaded copies of the module (client and server)', async () => {
    // The client bundle and the server load the module apart: a second, fresh instance stands in for one.
    vi.resetModules();
    const other: typeof import('../../src/domain/commission.ts') = await import('../../src/domain/commission.ts');
    expect(other.checkPrices).not.toBe(checkPrices);

    fc.assert(
      fc.property(
        decimalOf(BigInt(MAX_PRICE_CENTS)),
        fc.array(decimalOf(10_000n, 100n), { minLength: 5, maxLength: 5 }),
        (price, percents) => {
          const expected = percents.map((p) => referenceCommission(price, p));
          const expectedPrice = hundredths(price) + expected.reduce((a, b) => a + b, 0n);
          const textBody = bodyOf(price, percents);
          // The dialog's form holds numbers: the same values as JS numbers.
          const numberBody = bodyOf(Number(price), percents.map(Number));

          const server = checkPrices({ ...textBody, price: decimalText(expectedPrice) });
          expect(server.ok).toBe(true);
          if (!server.ok) return;
          COMMISSION_FIELDS.forEach((f, i) => expect(BigInt(server.quote.commissionCents[f])).toBe(expected[i]));
          expect(BigInt(server.quote.priceCents)).toBe(expectedPrice);

          // The client's live preview (other instance, number inputs) shows the same amounts.
          const client = other.previewCommission(numberBody);
          COMMISSION_FIELDS.forEach((f, i) => expect(client[f]).toBe(decimalText(expected[i])));
          expect(client.price).toBe(decimalText(expectedPrice));

          // What the client sends back as `price` (a number) is accepted, and one cent more is not.
          expect(checkPrices({ ...numberBody, price: Number(client.price) }).ok).toBe(true);
          expect(other.checkPrices({ ...numberBody, price: decimalText(expectedPrice + 1n) }).ok).toBe(false);
        },
      ),
      { numRuns: 10_000 },
    );
    // 10,000 runs take about a second on an idle machine; CI's shared 2 cores can take many times that.
  }, 120_000);

  it('is pure: the same inputs give equal answers, and inputs are not touched', () => {
    fc.assert(
      fc.property(decimalOf(100_000_000n), fc.array(decimalOf(10_000n, 100n), { minLength: 5, maxLength: 5 }), (price, percents) => {
        const body = Object.freeze(bodyOf(price, percents));
        const first = quoteFromWire(body);
        const second = quoteFromWire(body);
        expect(second).toEqual(first);
        expect(previewCommission(body)).toEqual(previewCommission(body));
      }),
      { numRuns: 500 },
    );
  });
});
