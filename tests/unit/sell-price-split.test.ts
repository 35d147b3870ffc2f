/**
 * `quoteForSellPrice` (src/domain/commission.ts): an auction's winning bid split into the seller's price
 * and the five commissions at the product's percentages, to the cent, for any price and percentages.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { COMMISSION_FIELDS, quoteCommission, quoteForSellPrice, type CommissionValues } from '../../src/domain/commission.ts';

const percents = fc.tuple(...COMMISSION_FIELDS.map(() => fc.integer({ min: 100, max: 10_000 }))).map(
  (bp) => Object.fromEntries(COMMISSION_FIELDS.map((f, i) => [f, bp[i]])) as CommissionValues,
);

describe('a sell price split into seller price and commissions', () => {
  it('adds up to the price exactly, gives the seller the most the rounding allows, and the site at most the rounding', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), percents, (price, bp) => {
        const q = quoteForSellPrice(price, bp);
        const sum = q.sellerPriceCents + COMMISSION_FIELDS.reduce((n, f) => n + q.commissionCents[f], 0);
        expect(sum).toBe(price);
        expect(q.priceCents).toBe(price);
        // One cent more to the seller would cost more than the price.
        expect(quoteCommission(q.sellerPriceCents + 1, bp).priceCents).toBeGreaterThan(price);
        // The others are the commission math's own; the site takes what rounding left, never more than the one cent step costs.
        const plain = quoteCommission(q.sellerPriceCents, bp);
        for (const f of COMMISSION_FIELDS.slice(1)) expect(q.commissionCents[f]).toBe(plain.commissionCents[f]);
        expect(q.commissionCents.siteCommission - plain.commissionCents.siteCommission).toBeLessThan(quoteCommission(q.sellerPriceCents + 1, bp).priceCents - plain.priceCents);
      }),
      { numRuns: 500 },
    );
  });

  it('a price a quote gives comes back as that quote', () => {
    const bp = Object.fromEntries(COMMISSION_FIELDS.map((f) => [f, 200])) as CommissionValues;
    const q = quoteCommission(4000, bp);
    expect(quoteForSellPrice(q.priceCents, bp)).toEqual(q);
  });
});
