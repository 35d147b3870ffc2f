/**
 * The auctions' close job (resources/auctions.ts `jobs.close`, at the auction's `enddate`): run by the
 * job runner once per occurrence across the nodes. A bid that moves the end moves the occurrence (the
 * records service reschedules it), so a run finding the end still ahead does nothing. Closing is the
 * declared transition OPEN → CLOSED, so a second run finds it closed and leaves it. The winner is the
 * highest bidder (none without bids), told by a notification.
 *
 * Client-safe (manifests load in the browser): it imports no server code; the job's context carries
 * the records service it writes through.
 */
import type { JobContext } from '../../manifest/jobs.ts';
import { AUCTION_MESSAGES, centsOf, timeOf } from './rules.ts';

export const AUCTIONS = 'auctions';

export async function closeAuction({ record, records, db, now, log }: JobContext): Promise<void> {
  if (!record || record.status !== 'OPEN') return;
  const end = timeOf(record.enddate);
  if (end === undefined || end > now.getTime()) return;
  const winner = record.highestBidder ? String(record.highestBidder) : null;
  const winningBid = winner ? (record.highestBid as number) : null;
  await records.update(AUCTIONS, String(record.id), { status: 'CLOSED', winnerId: winner, winningBid });
  log.info(`auction ${String(record.id)} closed${winner ? ` for ${winner}` : ' without bids'}`);
  const cents = centsOf(winningBid);
  if (!winner || cents === undefined) return;
  const product = await db.selectFrom('products').select('name').where('id', '=', String(record.product ?? '')).executeTakeFirst();
  await records.create('notifications', {
      userId: winner,
      title: AUCTION_MESSAGES.wonTitle,
      message: AUCTION_MESSAGES.won(String(product?.name ?? 'the auction'), cents),
      type: 'success',
      isRead: false,
      category: 'auctions',
      metadata: JSON.stringify({ resource: AUCTIONS, recordId: String(record.id) }),
    });
}
