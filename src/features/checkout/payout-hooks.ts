/**
 * A payout's rules (resources/payouts.ts), in its write's transaction. Client-safe: domain and manifest only.
 * - create (payoutModalUser): the order must be the seller's own, PAID and DELIVERED; the amount is the
 *   order's frozen seller total (its items' seller price × quantity), as §3's string; a sent amount
 *   that differs is refused (400 under `amount`);
 * - update (updatePayout): `status: true` with the invoice pays it (REQUESTED → PAID, the declared
 *   transition); the ledger then moves the amount from the seller's payable to its paid out.
 */
import { formatCents, parsePrice } from '../../domain/commission.ts';
import { payoutLines } from '../../domain/ledger.ts';
import { HookRefusal, type AfterChangeArgs, type BeforeChangeArgs, type ResourceHooks, type StoredRow } from '../../manifest/hooks.ts';
import { postLedger } from './order-hooks.ts';

const ORDERS = 'orders';
const VALIDATION_FAILED = 'Validation failed.';

// The texts are the manifest's (resources/payouts.ts imports this module, so they are repeated by reference there).
export const PAYOUT_HOOK_MESSAGES = {
  notYours: 'No order of yours has this id.',
  notPayable: 'Only a paid and delivered order can be paid out.',
  amountMismatch: (amount: string) => `The amount is computed by the server: ${amount}.`,
} as const;

async function beforeChange(args: BeforeChangeArgs): Promise<StoredRow> {
  const data: StoredRow = { ...args.data };
  if (args.operation === 'create') {
    const order = await args.find(ORDERS, 'id', data.order);
    const seller = args.user ? String(args.user.id) : undefined;
    if (!order || (seller !== undefined && args.user?.role !== 'admin' && String(order.sellerId) !== seller))
      throw new HookRefusal(VALIDATION_FAILED, { order: [PAYOUT_HOOK_MESSAGES.notYours] });
    if (order.paidstatus !== 'PAID' || order.status !== 'DELIVERED')
      throw new HookRefusal(VALIDATION_FAILED, { order: [PAYOUT_HOOK_MESSAGES.notPayable] });
    const cents = Number(order.sellerCents);
    const amount = formatCents(cents);
    if (data.amount !== undefined && data.amount !== null && data.amount !== '') {
      const sent = parsePrice(data.amount);
      if (!sent.ok || sent.value !== cents) throw new HookRefusal(VALIDATION_FAILED, { amount: [PAYOUT_HOOK_MESSAGES.amountMismatch(amount)] });
    }
    return { ...data, amount, amountCents: cents, sellerId: String(order.sellerId) };
  }
  // The invoice sent with `status: true` pays a requested payout.
  if (data.status === true && args.previous?.payoutStatus === 'REQUESTED') data.payoutStatus = 'PAID';
  return data;
}

async function afterChange(args: AfterChangeArgs): Promise<void> {
  if (args.operation !== 'update' || args.previous?.payoutStatus === 'PAID' || args.record.payoutStatus !== 'PAID') return;
  await postLedger(args.create, 'payout', String(args.record.order), payoutLines(String(args.record.sellerId), Number(args.record.amountCents)));
}

export const payoutHooks: ResourceHooks = { beforeChange, afterChange };
