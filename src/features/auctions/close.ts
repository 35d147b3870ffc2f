/**
 * The auctions' close job (resources/auctions.ts `jobs.close`, at the auction's `enddate`): run by the
 * job runner once per occurrence across the nodes. A bid that moves the end moves the occurrence (the
 * records service reschedules it), so a run finding the end still ahead does nothing. Closing is the
 * declared transition OPEN → CLOSED, so a second run finds it closed and leaves it.
 *
 * The winner is the highest bidder (none without bids). In the same transaction as the close, the
 * winner's order is made (issue 52 point 8): the auction's `qty` units of its product at the winning bid
 * each, the stock taken, the bid split into the seller's price and the five commissions at the product's
 * percentages (`quoteForSellPrice`: the buyer pays exactly what it bid) and frozen on the order, and the
 * ledger's checkout transaction posted, as a checkout's would be. The order waits UNPAID for the
 * winner's payment; the admin marks it paid as for any order. Stock short of the lot: the auction still
 * closes with its winner, no order is made, and the seller and the admins are told.
 *
 * Client-safe (manifests load in the browser): it imports no server code; the job's context carries
 * the records service it writes through.
 */
import type { JobContext, JobTransaction } from '../../manifest/jobs.ts';
import { COMMISSION_FIELDS, centsToNumber, quoteFromWire, quoteForSellPrice } from '../../domain/commission.ts';
import { checkoutLines } from '../../domain/ledger.ts';
import { postLedger } from '../checkout/order-hooks.ts';
import { AUCTION_MESSAGES, centsOf, timeOf } from './rules.ts';

export const AUCTIONS = 'auctions';
const ORDERS = 'orders';
const PRODUCTS = 'products';

/** A new record id in the marketplace's shape (24 hexadecimal characters). */
const hexId = () => globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 24);

/** What the close made: the winner's order, or why none. */
type Sale = { order: Record<string, unknown> } | { refused: string } | undefined;

/** The winner's order of `qty` units at `cents` each, its stock taken and its ledger posted; or why not. */
async function winnerOrder(rs: JobTransaction, auction: Record<string, unknown>, winner: string, cents: number): Promise<Sale> {
  const product = await rs.db.selectFrom(PRODUCTS).selectAll().where('id', '=', String(auction.product ?? '')).executeTakeFirst();
  if (!product) return { refused: 'its product no longer exists' };
  const quoted = quoteFromWire(product);
  if (!quoted.ok) return { refused: 'its product has no valid commission' };
  const qty = Math.max(1, Number(auction.qty ?? 1));
  const taken = await rs.operation([PRODUCTS], (t) =>
    t
      .updateTable(PRODUCTS)
      .set((eb) => ({ stock: eb('stock', '-', qty), version: eb('version', '+', 1), updatedAt: new Date().toISOString() }))
      .where('id', '=', String(product.id))
      .where('stock', '>=', qty)
      .executeTakeFirst(),
  );
  if (!Number(taken.numUpdatedRows)) return { refused: `its product has fewer than ${qty} in stock` };
  const unit = quoteForSellPrice(cents, quoted.quote.percentBasisPoints);
  const seller = String(product.sellerId);
  const account = await rs.db.selectFrom('users').select(['dealerId', 'country']).where('id', '=', seller).executeTakeFirst();
  const buyer = await rs.db.selectFrom('users').select(['country']).where('id', '=', winner).executeTakeFirst();
  const dealer = account?.dealerId ? String(account.dealerId) : null;
  const commissionCents = Object.fromEntries(COMMISSION_FIELDS.map((f) => [f, unit.commissionCents[f] * qty])) as Record<(typeof COMMISSION_FIELDS)[number], number>;
  const totalCents = unit.priceCents * qty;
  const sellerCents = unit.sellerPriceCents * qty;
  const order = await rs.create(ORDERS, {
    orderId: hexId(),
    user: winner,
    sellerId: seller,
    dealerId: dealer,
    country: buyer?.country ?? null,
    address: 'To be given by the winner',
    products: [{ product: String(product.id), name: String(product.name ?? ''), price: centsToNumber(unit.priceCents), quantity: qty, priceCents: unit.priceCents, sellerPriceCents: unit.sellerPriceCents }],
    commissions: [
      {
        product: String(product.id),
        quantity: qty,
        ...Object.fromEntries(COMMISSION_FIELDS.map((f) => [`${f}Bp`, unit.percentBasisPoints[f]])),
        ...Object.fromEntries(COMMISSION_FIELDS.map((f) => [`${f}Cents`, commissionCents[f]])),
      },
    ],
    totalCents,
    sellerCents,
    totalamount: centsToNumber(totalCents),
    senderinfo: `Won at auction ${String(auction.id)}`,
  });
  await postLedger((resource, input) => rs.create(resource, input), 'checkout', String(order.id), checkoutLines({ buyer: winner, seller, dealer }, { totalCents, sellerCents, commissionCents }));
  return { order };
}

export async function closeAuction({ record, records, db, now, log, tell }: JobContext): Promise<void> {
  if (!record || record.status !== 'OPEN') return;
  const end = timeOf(record.enddate);
  if (end === undefined || end > now.getTime()) return;
  const winner = record.highestBidder ? String(record.highestBidder) : null;
  const winningBid = winner ? (record.highestBid as number) : null;
  const cents = centsOf(winningBid);
  const sale = await records.transaction(async (rs) => {
    await rs.update(AUCTIONS, String(record.id), { status: 'CLOSED', winnerId: winner, winningBid });
    return winner && cents !== undefined ? winnerOrder(rs, record, winner, cents) : undefined;
  });
  log.info(`auction ${String(record.id)} closed${winner ? ` for ${winner}` : ' without bids'}${sale && 'refused' in sale ? `, no order: ${sale.refused}` : ''}`);
  if (!winner || cents === undefined) return;
  const product = await db.selectFrom(PRODUCTS).select(['name', 'sellerId']).where('id', '=', String(record.product ?? '')).executeTakeFirst();
  const name = String(product?.name ?? 'the auction');
  const about = (resource: string, recordId: string) => JSON.stringify({ resource, recordId });
  const order = sale && 'order' in sale ? sale.order : undefined;
  await records.create('notifications', {
    userId: winner,
    title: AUCTION_MESSAGES.wonTitle,
    message: AUCTION_MESSAGES.won(name, cents) + (order ? ` Your order ${String(order.orderId)} waits for your payment.` : ''),
    type: 'success',
    isRead: false,
    category: 'auctions',
    metadata: order ? about(ORDERS, String(order.id)) : about(AUCTIONS, String(record.id)),
  });
  if (sale && 'refused' in sale && product?.sellerId) {
    const warning = {
      title: 'Auction won, no order made',
      message: `${name} was won at ${centsToNumber(cents)}, but ${sale.refused}. Contact the winner.`,
      type: 'warning' as const,
    };
    await records.create('notifications', { ...warning, userId: String(product.sellerId), isRead: false, category: 'auctions', metadata: about(AUCTIONS, String(record.id)) });
    // Every admin: one notification for the role, whatever their number (a bare runner has no one to tell).
    await tell?.('admin', { ...warning, metadata: { category: 'auctions', resource: AUCTIONS, recordId: String(record.id) } });
  }
}
