/**
 * The product writes that are more than a generic create or update: creating a product (its owner, its
 * category levels, the site commission's percentages), approving its commission and rejecting it.
 */
import { labelOf, type Registry, type ResourceDef } from '../../manifest/index.ts';
import type { HandlerContext } from '../../server/routes/handlers.ts';
import { writeContext } from '../../server/routes/dialogs.ts';
import { findBy, type Db, type Row } from '../../server/db/repository.ts';
import { createRecord, updateRecord } from '../../server/db/writes.ts';
import { ownedInput, reachableRow } from '../../server/db/ownership.ts';
import { badRequest, VALIDATION_FAILED } from '../../server/errors.ts';
import { approvalOf, rejectionOf } from './decisions.ts';
import { sitePercentages } from './site-commission.ts';

export const PRODUCTS = 'products';

/** The category levels of a product, top first: each lower level must sit under the one above it. */
const LEVELS = ['category', 'childCategory', 'subCategory', 'subChildCategory'] as const;

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Refuses category levels that do not form one branch of the tree: a level without the one above it, or
 * one whose parent is not the level above (400, under the field). Unknown ids are told they do not exist.
 */
async function checkBranch(db: Db, registry: Registry, r: ResourceDef, input: Row): Promise<void> {
  const errors: Record<string, string[]> = {};
  let above: Row | undefined;
  for (let i = 0; i < LEVELS.length; i++) {
    const name = LEVELS[i];
    const f = r.fields.find((x) => x.name === name)!;
    if (isEmpty(input[name])) {
      above = undefined;
      continue;
    }
    const row = await findBy(db, registry.resource(f.reference!), 'id', input[name]);
    if (!row) {
      errors[name] = [`${labelOf(f)} does not exist.`];
      above = undefined;
      continue;
    }
    if (i > 0) {
      const upper = r.fields.find((x) => x.name === LEVELS[i - 1])!;
      if (isEmpty(input[LEVELS[i - 1]])) errors[name] = [`Choose the ${labelOf(upper).toLowerCase()} first.`];
      else if (above && row.category !== above.id) errors[name] = [`${labelOf(f)} is not under the ${labelOf(upper).toLowerCase()} chosen.`];
    }
    above = row;
  }
  if (Object.keys(errors).length) throw badRequest(VALIDATION_FAILED, errors);
}

/**
 * `POST /products`: a seller's new product (a dealer's own, or one of its team's sellers'). The owner is
 * the caller (`ownedInput`); the five percentages are the site commission's at this moment; the status is
 * PENDING (`createdWith`), and the main sell price is computed from the seller price and percentages.
 */
export async function createProduct({ db, registry, resource, request, reply, body }: HandlerContext): Promise<Row> {
  const input: Row = { ...body };
  // Lower levels left empty are stored as absent, not as empty text.
  for (const name of LEVELS) if (isEmpty(input[name])) input[name] = null;
  if (isEmpty(input.images)) input.images = null;
  const owned = await ownedInput(db, registry, resource, request.user, input, true);
  await checkBranch(db, registry, resource, owned);
  const percentages = await sitePercentages(db, registry);
  const created = await createRecord(db, registry, resource, { ...owned, ...percentages }, writeContext(request, resource));
  reply.code(201);
  return created;
}

/**
 * `PATCH /products/{id}/commission` (CreateProductCommissionInQueryMessage): the admin's percentages with the prices they
 * give. The server recomputes both prices and refuses a `price` that differs by even a cent (400 under
 * `price`, with the expected value), or a `sellerprice` other than the product's. Approves on success.
 */
export async function approveCommission({ db, registry, resource, request, params, body, record }: HandlerContext): Promise<Row> {
  const stored = record ?? (await reachableRow(db, registry, resource, request.user, params.id));
  const decided = approvalOf(body, stored);
  if (!decided.ok) throw badRequest(decided.message, decided.errors);
  return updateRecord(db, registry, resource, params.id, decided.values, writeContext(request, resource));
}

/**
 * `POST /site-commissions/reject/{id}` (rejectCommission): the product's commission
 * is REJECTED with the typed reason, which its seller then reads in the commission dialog.
 */
export async function rejectCommission({ db, registry, request, params, body, invalidate }: HandlerContext): Promise<Row> {
  const products = registry.resource(PRODUCTS);
  await reachableRow(db, registry, products, request.user, params.id);
  try {
    return await updateRecord(db, registry, products, params.id, rejectionOf(String(body.message)), writeContext(request, products));
  } finally {
    invalidate(PRODUCTS);
  }
}
