/**
 * What an order's transitions do besides moving its state (resources/orders.ts), in the transition's
 * transaction: a cancellation gives each item's quantity back to its product's stock, and a
 * cancellation or refund posts the ledger's reversal of the checkout at the frozen amounts (once: an
 * order cancelled and then refunded, or refunded and then cancelled, is reversed by the first).
 * Client-safe (manifests load in the browser): domain and manifest types only.
 */
import { COMMISSION_FIELDS, centsToNumber, type CommissionField } from '../../domain/commission.ts';
import { checkoutLines, reversalLines, type LedgerLine } from '../../domain/ledger.ts';
import type { AfterChangeArgs, HookContext, ResourceHooks, StoredRow } from '../../manifest/hooks.ts';

const LEDGER = 'ledgerEntries';
const PRODUCTS = 'products';
/** How often a stock given back is tried again when a concurrent write moved the product on. */
const STOCK_RETRIES = 20;

type Items = { product: string; quantity: number }[];
const itemsOf = (record: StoredRow, name: string): StoredRow[] => (Array.isArray(record[name]) ? (record[name] as StoredRow[]) : []);

/** The checkout's ledger lines of an order, from its frozen amounts and parties. */
export function orderCheckoutLines(order: StoredRow): readonly LedgerLine[] {
  const commissionCents = Object.fromEntries(COMMISSION_FIELDS.map((f) => [f, 0])) as Record<CommissionField, number>;
  for (const line of itemsOf(order, 'commissions')) for (const f of COMMISSION_FIELDS) commissionCents[f] += Number(line[`${f}Cents`] ?? 0);
  return checkoutLines(
    { buyer: String(order.user), seller: String(order.sellerId), dealer: order.dealerId ? String(order.dealerId) : null },
    { totalCents: Number(order.totalCents), sellerCents: Number(order.sellerCents), commissionCents },
  );
}

/** Appends one balanced transaction of ledger entries about `orderId`, through the records service. */
export async function postLedger(
  create: HookContext['create'],
  kind: 'checkout' | 'reversal' | 'payout',
  order: string | null,
  lines: readonly LedgerLine[],
): Promise<void> {
  const transactionId = globalThis.crypto.randomUUID().replace(/-/g, '');
  for (const line of lines)
    await create(LEDGER, { transactionId, kind, account: line.account, party: line.party, order, amountCents: line.amountCents, amount: centsToNumber(Math.abs(line.amountCents)) * Math.sign(line.amountCents) });
}

/** Puts `quantity` back on the product's stock, again when a concurrent write moved it on meanwhile. */
async function giveBack(args: AfterChangeArgs, productId: string, quantity: number): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const product = await args.find(PRODUCTS, 'id', productId);
    if (!product) return; // a product deleted since keeps no stock
    try {
      await args.update(PRODUCTS, productId, { stock: Number(product.stock ?? 0) + quantity });
      return;
    } catch (error) {
      if ((error as { status?: number }).status !== 412 || attempt >= STOCK_RETRIES) throw error;
    }
  }
}

async function afterChange(args: AfterChangeArgs): Promise<void> {
  if (args.operation !== 'update' || !args.previous) return;
  const { record, previous } = args;
  const cancelled = record.status === 'CANCELLED' && previous.status !== 'CANCELLED';
  const refunded = record.paidstatus === 'REFUNDED' && previous.paidstatus !== 'REFUNDED';
  if (cancelled) {
    const items = itemsOf(record, 'products') as unknown as Items;
    for (const item of [...items].sort((a, b) => String(a.product).localeCompare(String(b.product))))
      await giveBack(args, String(item.product), Number(item.quantity));
  }
  const reversedBefore = previous.status === 'CANCELLED' || previous.paidstatus === 'REFUNDED';
  if ((cancelled || refunded) && !reversedBefore) await postLedger(args.create, 'reversal', String(record.id), reversalLines(orderCheckoutLines(record)));
}

export const orderHooks: ResourceHooks = { afterChange };
