/**
 * What approving or rejecting a product's commission writes (spec §4), decided from the request body and
 * the product as stored. Pure: the server's handlers carry it out, the tests judge it directly.
 */
import {
  COMMISSION_FIELDS,
  checkPrices,
  formatCents,
  parsePrice,
  quoteToWire,
  type CommissionWireInput,
  type Refusal,
} from '../../domain/commission.ts';

type Row = Record<string, unknown>;

/**
 * Approving (`PATCH /products/{id}/commission`): the prices are recomputed from the seller price and the
 * five percentages (checkPrices), and a `price` that does not match them to the cent is refused; so is a
 * `sellerprice` other than the one the product holds: the seller's price is the seller's, and an approval
 * computed on a price the seller has changed since is an approval of something else. Answers the values
 * to write: the recomputed prices (never the client's numbers), APPROVED, and no reject reason.
 */
export function approvalOf(body: CommissionWireInput, stored: Row): { ok: true; values: Row } | Refusal {
  const checked = checkPrices(body);
  if (!checked.ok) return { ok: false, message: checked.message, errors: checked.errors };
  const held = parsePrice(stored.sellerprice);
  if (held.ok && held.value !== checked.quote.sellerPriceCents) {
    const message = `sellerprice must be ${formatCents(held.value)}, the seller's price as the product holds it now.`;
    return { ok: false, message, errors: { sellerprice: [message] } };
  }
  const wire = quoteToWire(checked.quote);
  const values: Row = { sellerprice: wire.sellerprice, price: wire.price, comissionStatus: 'APPROVED', commissionRejectReason: null };
  for (const field of COMMISSION_FIELDS) values[field] = wire[field];
  return { ok: true, values };
}

/** Rejecting (`POST /site-commissions/reject/{id}`): REJECTED, with the reason typed (already validated). */
export function rejectionOf(message: string): Row {
  return { comissionStatus: 'REJECTED', commissionRejectReason: message };
}
