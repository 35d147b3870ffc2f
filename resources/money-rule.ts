/**
 * The rule of an amount of money a person types (an auction's price and bids, a job's pay): more than 0,
 * whole cents, within the commission math's bounds (as a product's price). Shared by the manifests that
 * take one, so the bounds and the texts are said once.
 */
import { z } from 'zod';
import { parsePrice } from '../src/domain/commission.ts';

/** `required` for a missing or non-number value; '<label> must be more than 0.' and the money math's reasons otherwise. */
export const moneyRule = (required: string, label: string) =>
  z.number({ error: required }).superRefine((v, ctx) => {
    const parsed = parsePrice(v);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `${label} ${parsed.reason}.` });
    else if (parsed.value === 0) ctx.addIssue({ code: 'custom', message: `${label} must be more than 0.` });
  });
