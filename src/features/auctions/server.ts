/**
 * The auctions' server calls (declared in resources/auctions.ts; issue 52 point 8):
 *
 * - `POST /auctions/bits` `{ auction, amount }`: a signed-in buyer's bid. In one transaction the auction
 *   is held (a row lock on PostgreSQL; SQLite has one writer, so its transactions run one at a time): it
 *   must be running, and the bid at least its starting price (the first) or the highest so far plus the
 *   step (the setting `auctions.bidStepCents`). The bid is stored through the records service as the
 *   buyer's; the auction's highest bid, bidder and count are updated as the server's own write, and a
 *   bid in the last `auctions.extendMinutes` (default 5) moves the end to now + that, never past the hard
 *   end: the records service moves the close job with it. A refused bid writes nothing and moves nothing.
 *   After the commit the outbid bidder is notified and every open auction page hears the new price and
 *   end (`AUCTION_EVENT` on the socket).
 * - `GET /auctions/bits/public/{auctionId}`: an auction's bids, highest first, the bidders not named.
 * - `GET /auctions/sellers/bits`: the bids on a seller's auctions (a dealer: its sellers'; the admin: all).
 */
import { PostgresAdapter } from 'kysely';
import { AUCTION_BIDS, AUCTIONS } from '../../../resources/auctions.ts';
import { badRequest, conflict, notFound } from '../../server/errors.ts';
import type { HandlerContext, Handlers } from '../../server/routes/handlers.ts';
import { getSetting } from '../../server/settings/index.ts';
import { RecordsService, type Db, type Row } from '../../server/records/index.ts';
import { notify } from '../notifications/server/index.ts';
import { AUCTION_MESSAGES as M, AUCTION_SETTINGS, amountOf, centsOf, extendedEnd, isRunning, minimumBid } from './rules.ts';
import { AUCTION_EVENT, type AuctionUpdate } from './contract.ts';

/** A whole-number setting, or its fallback when unset or unreadable. */
async function settingOf(db: Db, setting: { key: string; fallback: number }): Promise<number> {
  const stored = await getSetting(db, setting.key);
  const value = stored === null || stored.trim() === '' ? NaN : Number(stored);
  return Number.isInteger(value) && value >= 0 ? value : setting.fallback;
}

/** The auction `id`, held for the rest of the transaction (PostgreSQL: `for update`). */
async function heldAuction(trx: Db, id: string): Promise<Row | undefined> {
  const query = trx.selectFrom(AUCTIONS).selectAll().where('id', '=', id);
  return trx.getExecutor().adapter instanceof PostgresAdapter ? query.forUpdate().executeTakeFirst() : query.executeTakeFirst();
}

export const updateOf = (auction: Row): AuctionUpdate => ({
  id: String(auction.id),
  price: Number(auction.price),
  highestBid: auction.highestBid === null || auction.highestBid === undefined ? null : Number(auction.highestBid),
  bidCount: Number(auction.bidCount ?? 0),
  enddate: String(auction.enddate),
  status: String(auction.status),
});

async function placeAuctionBid({ records, request, body }: HandlerContext) {
  const buyer = String(request.user!.id);
  const auctionId = String(body.auction);
  const cents = centsOf(body.amount)!;
  const [step, minutes] = await Promise.all([settingOf(records.db, AUCTION_SETTINGS.bidStepCents), settingOf(records.db, AUCTION_SETTINGS.extendMinutes)]);
  const result = await records.transaction(async (rs) => {
    const auction = await heldAuction(rs.db, auctionId);
    if (!auction) throw notFound(M.notFound);
    const now = Date.now();
    if (!isRunning(auction, now)) throw conflict(M.notRunning);
    const highest = centsOf(auction.highestBid);
    const least = minimumBid(centsOf(auction.price) ?? 0, highest, step);
    if (cents < least) throw badRequest(M.tooLow(least), { amount: [M.tooLow(least)] });
    const bid = await rs.create(AUCTION_BIDS, { auction: auctionId, amount: amountOf(cents), sellerId: auction.sellerId });
    // The server's own write (a buyer may not update an auction): audited as the bidder's doing.
    const server = new RecordsService({ db: rs.db, registry: rs.registry, actor: rs.actor, hostRoot: records.options.hostRoot });
    const enddate = extendedEnd(String(auction.enddate), auction.hardEnd as string | undefined, now, minutes);
    const updated = await server.update(AUCTIONS, auctionId, {
      highestBid: amountOf(cents),
      highestBidder: buyer,
      bidCount: Number(auction.bidCount ?? 0) + 1,
      ...(enddate !== auction.enddate ? { enddate } : {}),
    });
    return { bid, auction: updated, outbid: auction.highestBidder ? String(auction.highestBidder) : undefined, previous: highest };
  });
  records.options.invalidate?.(AUCTIONS);
  records.options.invalidate?.(AUCTION_BIDS);
  const app = request.server;
  if (result.outbid && result.outbid !== buyer)
    await notify(
      app,
      {
        userId: result.outbid,
        title: M.outbidTitle,
        message: M.outbid(String(result.auction.productName ?? 'an auction'), cents),
        type: 'warning',
        metadata: { category: 'auctions', resource: AUCTIONS, recordId: auctionId },
      },
      { db: records.db, registry: records.registry, actor: records.actor },
    );
  app.realtime?.io.emit(AUCTION_EVENT, updateOf(result.auction));
  return { bid: result.bid, auction: updateOf(result.auction) };
}

/** A list answered as the list reads answer (rows, `Content-Range`). */
function asList({ reply }: HandlerContext, name: string, page: { rows: Row[]; total: number; start: number }) {
  const end = page.start + Math.max(page.rows.length - 1, 0);
  reply.header('Content-Range', `${name} ${page.start}-${end}/${page.total}`);
  reply.header('Access-Control-Expose-Headers', 'Content-Range');
  return page.rows;
}

async function publicAuctionBids(context: HandlerContext) {
  const { records, params } = context;
  const auctionId = String(params.auctionId ?? '');
  const auction = await records.find(AUCTIONS, 'id', auctionId, { kind: 'all', key: '' });
  if (!auction) throw notFound(M.notFound);
  const rows = await records.db
    .selectFrom(AUCTION_BIDS)
    .select(['id', 'auction', 'amount', 'createdAt'])
    .where('auction', '=', auctionId)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
  return { auction: updateOf(auction), bids: rows.map((row: Row) => ({ ...row, amount: Number(row.amount) })) };
}

async function sellerAuctionBids(context: HandlerContext) {
  const { records, request, query } = context;
  const user = request.user!;
  const role = String(user.role);
  const me = String(user.id);
  const page = await records.list(
    AUCTION_BIDS,
    query,
    (q) => {
      if (role === 'seller') return q.where('sellerId', '=', me);
      if (role === 'dealer')
        return q.where((eb) => eb.or([eb('sellerId', '=', me), eb('sellerId', 'in', eb.selectFrom('users').select('id').where('dealerId', '=', me))]));
      return q;
    },
    false,
  );
  return asList(context, AUCTION_BIDS, page);
}

export const auctionHandlers = { placeAuctionBid, publicAuctionBids, sellerAuctionBids } satisfies Handlers;
