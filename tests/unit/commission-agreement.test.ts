/**
 * The commission dialog and the server agree to the cent (spec §5, §9: each commission is percentage ×
 * sellerprice / 100 rounded to 2 decimals; the main sell price adds them to the seller price): for
 * 10,000 random seller prices and percentages, typed as a person types them, what the dialog shows and
 * sends (src/features/commission/form.ts) is what the server recomputes and accepts
 * (src/features/commission/decisions.ts, the `productPrice` computation), and both equal a decimal
 * reference computed with BigInt, independently of src/domain/commission.ts.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { registry } from '../../resources/index.ts';
import { COMMISSION_FIELDS, MAX_COMMISSION_PERCENT, MAX_PRICE_CENTS, centsToNumber, type CommissionField } from '../../src/domain/commission.ts';
import { computations } from '../../src/domain/computed.ts';
import { approvalOf, rejectionOf } from '../../src/features/commission/decisions.ts';
import {
  CHOOSE_DECISION,
  approveBody,
  declaredDecisions,
  initialForm,
  isChanged,
  previewOf,
  submission,
  type CommissionForm,
} from '../../src/features/commission/form.ts';

const decisions = declaredDecisions(registry);

/** The reference: a commission in cents, half-up, in BigInt (no floats anywhere). */
function referenceCents(sellerCents: bigint, basisPoints: bigint): bigint {
  const exact = sellerCents * basisPoints; // cents × hundredths of a percent
  const divisor = 10_000n;
  const whole = exact / divisor;
  return (exact % divisor) * 2n >= divisor ? whole + 1n : whole;
}

/** Cents as 2-decimal text, from BigInt. */
const text = (cents: bigint) => `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;

/** A percentage in basis points as a person may type it: '7', '7.5', '7.50', ' 7.05 '. */
function typed(basisPoints: number, style: number): string {
  const whole = Math.floor(basisPoints / 100);
  const cents = basisPoints % 100;
  const two = `${whole}.${String(cents).padStart(2, '0')}`;
  if (style === 0) return cents === 0 ? String(whole) : two.replace(/0$/, '');
  if (style === 1) return two;
  return ` ${two} `;
}

const form = (percents: Record<CommissionField, string>, decision: CommissionForm['decision'] = 'APPROVED'): CommissionForm => ({
  percents,
  decision,
  message: '',
});

const arbitraryCase = fc.record({
  sellerCents: fc.integer({ min: 1, max: MAX_PRICE_CENTS }),
  basisPoints: fc.array(fc.integer({ min: 100, max: MAX_COMMISSION_PERCENT * 100 }), { minLength: 5, maxLength: 5 }),
  styles: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 5, maxLength: 5 }),
});

describe('the commission dialog and the server agree to the cent', () => {
  it('on 10,000 random seller prices and percentages, with a BigInt reference', () => {
    fc.assert(
      fc.property(arbitraryCase, ({ sellerCents, basisPoints, styles }) => {
        const percents = {} as Record<CommissionField, string>;
        COMMISSION_FIELDS.forEach((f, i) => (percents[f] = typed(basisPoints[i], styles[i])));
        // The product as the API answers it: the seller price is a JSON number.
        const record = { sellerprice: centsToNumber(sellerCents) };

        // The reference.
        const seller = BigInt(sellerCents);
        const each = basisPoints.map((bp) => referenceCents(seller, BigInt(bp)));
        const price = seller + each.reduce((a, b) => a + b, 0n);

        // The client: what the dialog shows, and what it sends.
        const shown = previewOf(record, form(percents));
        COMMISSION_FIELDS.forEach((f, i) => expect(shown[f]).toBe(text(each[i])));
        expect(shown.price).toBe(text(price));
        const sent = submission(record, form(percents), decisions);
        if (!sent.ok) throw new Error(JSON.stringify(sent.errors));
        expect(sent.body.price).toBe(Number(text(price)));

        // The server: the same body recomputed, accepted, and stored at the reference's price.
        const decided = approvalOf(sent.body, record);
        if (!decided.ok) throw new Error(`${decided.message} ${JSON.stringify(decided.errors)}`);
        expect(decided.values.price).toBe(Number(text(price)));
        expect(decided.values.sellerprice).toBe(record.sellerprice);
        expect(decided.values.comissionStatus).toBe('APPROVED');
        // And the computation every later write of the product runs gives the same price.
        expect(computations.productPrice({ ...decided.values })).toBe(Number(text(price)));
      }),
      { numRuns: 10_000 },
    );
  }, 120_000);

  it('the server refuses the price the client would send for any other percentage', () => {
    fc.assert(
      fc.property(arbitraryCase, fc.integer({ min: 0, max: 4 }), ({ sellerCents, basisPoints }, which) => {
        const percents = {} as Record<CommissionField, string>;
        COMMISSION_FIELDS.forEach((f, i) => (percents[f] = typed(basisPoints[i], 1)));
        const record = { sellerprice: centsToNumber(sellerCents) };
        const body = approveBody(record, form(percents));
        // Another percentage for one field, the price left as it was: accepted only when it gives the same price.
        const field = COMMISSION_FIELDS[which];
        const other = basisPoints[which] === 100 ? 101 : basisPoints[which] - 1;
        const changed = { ...body, [field]: other / 100 };
        const seller = BigInt(sellerCents);
        const samePrice =
          referenceCents(seller, BigInt(other)) === referenceCents(seller, BigInt(basisPoints[which]));
        expect(approvalOf(changed, record).ok).toBe(samePrice);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('the commission form', () => {
  const product = { id: 'p1', version: 3, sellerprice: 100, siteCommission: 5, dealerSiteCommission: 2, agentSiteCommission: 2, ageentFormDealerCommission: 1, dealerCommissionFromSeller: 1 };

  it('opens on the decision its dialog stands for, and knows when it was changed', () => {
    const approving = initialForm(product, decisions.approve.dialog, decisions);
    expect(approving).toEqual({ percents: { siteCommission: '5', dealerSiteCommission: '2', agentSiteCommission: '2', ageentFormDealerCommission: '1', dealerCommissionFromSeller: '1' }, decision: 'APPROVED', message: '' });
    expect(initialForm(product, decisions.reject.dialog, decisions).decision).toBe('REJECTED');
    const details = registry.dialog('commissionDetails')!.dialog;
    expect(initialForm(product, details, decisions).decision).toBe('');
    expect(isChanged(approving, approving)).toBe(false);
    expect(isChanged(approving, { ...approving, percents: { ...approving.percents, siteCommission: ' 5 ' } })).toBe(false);
    expect(isChanged(approving, { ...approving, percents: { ...approving.percents, siteCommission: '6' } })).toBe(true);
    expect(isChanged(approving, { ...approving, decision: 'REJECTED' })).toBe(true);
  });

  it("judges the body by the server's rules, with the server's messages", () => {
    const start = initialForm(product, decisions.approve.dialog, decisions);
    const bad = submission(product, { ...start, percents: { ...start.percents, siteCommission: '', dealerSiteCommission: '0', agentSiteCommission: 'abc' } }, decisions);
    expect(bad).toMatchObject({
      ok: false,
      errors: { siteCommission: ['amount is required!'], dealerSiteCommission: ['amount is required!'], agentSiteCommission: ['Agent site commission must be a number.'] },
    });
    expect(submission(product, { ...start, decision: '' }, decisions)).toEqual({ ok: false, errors: { decision: [CHOOSE_DECISION] } });
    const noReason = submission(product, { ...start, decision: 'REJECTED', message: '  ' }, decisions);
    expect(noReason).toEqual({ ok: false, errors: { message: ['Please write why the commission is rejected.'] } });
    const rejecting = submission(product, { ...start, decision: 'REJECTED', message: ' Too high. ' }, decisions);
    expect(rejecting).toMatchObject({ ok: true, body: { message: 'Too high.' } });
    if (rejecting.ok) expect(rejecting.declared.dialog.call).toBe('POST /site-commissions/reject/{id}');
    expect(rejectionOf('Too high.')).toEqual({ comissionStatus: 'REJECTED', commissionRejectReason: 'Too high.' });
    const approving = submission(product, start, decisions);
    expect(approving).toMatchObject({ ok: true, body: { sellerprice: 100, price: 111 } });
    if (approving.ok) expect(approving.declared.dialog.call).toBe('PATCH /products/{id}/commission');
  });

  it('shows blanks, never a wrong number, while a percentage is not a number yet', () => {
    const start = initialForm(product, decisions.approve.dialog, decisions);
    const shown = previewOf(product, { ...start, percents: { ...start.percents, siteCommission: '5.' } });
    expect(shown.siteCommission).toBe('5.00');
    const half = previewOf(product, { ...start, percents: { ...start.percents, siteCommission: '5.5.' } });
    expect(half).toMatchObject({ siteCommission: '', price: '' });
    expect(half.dealerSiteCommission).toBe('2.00');
  });
});
