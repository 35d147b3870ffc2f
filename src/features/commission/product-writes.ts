/**
 * The product writes that are more than a generic create or update: approving a product's commission and
 * rejecting it. (Creating one is the generic create, with the products' hooks: product-hooks.ts.)
 */
import type { HandlerContext } from '../../server/routes/handlers.ts';
import type { Row } from '../../server/records/index.ts';
import { badRequest } from '../../server/errors.ts';
import { approvalOf, rejectionOf } from './decisions.ts';

export const PRODUCTS = 'products';

/**
 * `PATCH /products/{id}/commission` (CreateProductCommissionInQueryMessage): the admin's percentages with the prices they
 * give. The server recomputes both prices and refuses a `price` that differs by even a cent (400 under
 * `price`, with the expected value), or a `sellerprice` other than the product's. Approves on success.
 */
export async function approveCommission({ records, resource, params, body, record, ifMatch }: HandlerContext): Promise<Row> {
  const stored = record ?? (await records.reachable(resource, params.id));
  const decided = approvalOf(body, stored);
  if (!decided.ok) throw badRequest(decided.message, decided.errors);
  return records.update(resource, params.id, decided.values, { ifMatch });
}

/**
 * `POST /site-commissions/reject/{id}` (rejectCommission): the product's commission
 * is REJECTED with the typed reason, which its seller then reads in the commission dialog.
 */
export async function rejectCommission({ records, params, body, ifMatch }: HandlerContext): Promise<Row> {
  return records.update(PRODUCTS, params.id, rejectionOf(String(body.message)), { ifMatch });
}
