/**
 * Auctions and bids (spec §3 "Auction", §5 "Auctions", §7 "Auctions", §8; issue 52 point 8).
 *
 * - An auction sells a seller's product from its start to its end, starting at its price. The admin
 *   creates, updates and deletes any (updateAuctionModal, deleteAuction); a seller its own, of its own
 *   products only (updateAuctionSellerModal: §7 shows no path for it; ours is `PATCH /auctions/sellers/{id}`,
 *   as one call cannot be two dialogs' routes). Its seller is its product's and never moves; a dealer
 *   reads its sellers'; a buyer reads them all, to bid.
 * - A bid (`POST /auctions/bits`, spelled so) is a signed-in buyer's, while the auction runs, at least the
 *   starting price and then above the highest so far by the step (a setting); bids on one auction are
 *   serialised and an accepted bid in the last minutes extends the end up to its hard end
 *   (src/features/auctions/server.ts). The close job ends it once at its end and records the winner.
 *
 * The settings the bids read: `auctions.bidStepCents` (default 100) and `auctions.extendMinutes` (5).
 */
import { z } from 'zod';
import { defineResource, dialog, field, operation, read } from '../src/manifest/index.ts';
import { moneyRule } from './money-rule.ts';
import { AUCTION_MESSAGES as M, AUCTION_STATUSES } from '../src/features/auctions/rules.ts';
import { auctionHooks } from '../src/features/auctions/hooks.ts';
import { closeAuction } from '../src/features/auctions/close.ts';

export const AUCTIONS = 'auctions';
export const AUCTION_BIDS = 'auctionBids';

/** A date and time (ISO text, as the form's date-time picker sends it). */
const dateRule = (required: string) =>
  z.iso.datetime({ offset: true, error: (issue) => (issue.input === undefined || issue.input === '' ? required : M.notDate) });

const qtyRule = z.number({ error: M.qty }).min(1, M.qty).max(10_000, 'Qty must be at most 10,000.');

const auctionForm = ['product', 'price', 'qty', 'startdate', 'enddate'];

export const auctions = defineResource({
  name: AUCTIONS,
  label: 'Auction',
  plural: 'Auctions',
  title: 'productName',
  access: {
    read: ['admin', 'seller', 'dealer', 'user'],
    write: ['admin', 'seller'],
    owner: { field: 'sellerId', roles: { admin: 'all', seller: 'own', dealer: { team: 'dealerId' }, user: 'all' } },
  },
  menu: { group: 'Money', icon: 'Gavel' },
  fields: [
    field.reference('product', 'products', { label: 'Product', rule: z.string({ error: M.product }).min(1, M.product), list: true }),
    // §3's productId: the product's id as the server found it (the form sends `product`).
    field.text('productId', { label: 'Product id', maxLength: 64, sortable: false }),
    // §3's product (name): the product's name when the auction was set, what the auction is called elsewhere.
    field.text('productName', { label: 'Product name', maxLength: 1000 }),
    field.number('price', { label: 'Starting price', rule: moneyRule(M.price, 'Price'), display: 'money', list: true }),
    field.number('qty', { label: 'Qty', storage: 'integer', rule: qtyRule, default: 1, list: true }),
    field.text('startdate', { label: 'Start', rule: dateRule(M.startdate), display: 'datetime', list: true }),
    field.text('enddate', { label: 'End', rule: dateRule(M.enddate), display: 'datetime', list: true }),
    // The latest a bid may move the end to (anti-sniping's cap): the end as set by a person + MAX_EXTENSION_MINUTES.
    field.text('hardEnd', { label: 'Hard end', display: 'datetime', sortable: false }),
    field.select('status', AUCTION_STATUSES, {
      createdWith: 'OPEN',
      list: true,
      choices: [
        { value: 'OPEN', label: 'Open', tone: 'success' },
        { value: 'CLOSED', label: 'Closed', tone: 'default' },
      ],
      // Closed by its job alone, once, at its end.
      states: { transitions: [{ name: 'close', label: 'Close', from: ['OPEN'], to: 'CLOSED', roles: [] }] },
    }),
    field.number('highestBid', { label: 'Highest bid', display: 'money', list: true }),
    field.reference('highestBidder', 'users', { label: 'Highest bidder', sortable: false }),
    field.number('bidCount', { label: 'Bids', storage: 'integer', createdWith: 0, list: true, sortable: false }),
    field.reference('winnerId', 'users', { label: 'Winner', sortable: false }),
    field.number('winningBid', { label: 'Winning bid', display: 'money', sortable: false }),
    // The owner: its product's seller, set by the server, never sent, never moved.
    field.reference('sellerId', 'users', { label: 'Seller', list: true, setOnce: true }),
  ],
  sort: { field: 'enddate', order: 'ASC' },
  reads: {
    list: read.list('GET /auctions/'),
    one: read.one('GET /auctions/{id}', { notFound: M.notFound }),
    // The buyers' auctions: every auction, to follow and bid on.
    users: read.list('GET /auctions/users', { access: ['admin', 'user'] }),
    // A dealer's sellers' auctions (the admin names any dealer).
    sellers: read.list('GET /auctions/sellers/{dealerId}', {
      access: ['admin', 'dealer'],
      scope: { field: 'sellerId', param: 'dealerId', through: 'dealerId' },
    }),
  },
  dialogs: {
    createAuction: dialog.create({
      pick: auctionForm,
      call: 'POST /auctions/',
      success: 'Auction created successfully.',
      failure: M.failed,
    }),
    updateAuctionModal: dialog.update({
      pick: auctionForm,
      call: 'PATCH /auctions/{id}',
      access: ['admin'],
      success: 'Auction updated successfully.',
      failure: M.failed,
    }),
    updateAuctionSellerModal: dialog.update({
      pick: auctionForm,
      call: 'PATCH /auctions/sellers/{id}',
      access: ['seller'],
      success: 'Auction updated successfully.',
      failure: M.failed,
    }),
    // An open auction: its price and end live over the socket, and a buyer's bid.
    auctionLive: dialog.details({
      title: 'Live auction',
      show: ['productName', 'price', 'highestBid', 'bidCount', 'enddate', 'status'],
      component: () => import('../src/features/auctions/AuctionLive.tsx'),
    }),
    deleteAuction: dialog.remove({
      call: 'DELETE /auctions/{id}',
      missing: 'Auction is missing.',
      success: 'Auction deleted successfully.',
    }),
  },
  hooks: auctionHooks,
  jobs: { close: { at: 'enddate', retries: 3, backoff: 5, run: closeAuction } },
});

/** `POST /auctions/bits`: the auction and the amount (the bidder is the caller). */
export const placeBidBody = z.strictObject({
  auction: z.string({ error: M.bidAuction }).min(1, M.bidAuction).max(64, M.bidAuction),
  amount: moneyRule(M.bidAmount, 'Bid amount'),
});

export const auctionBids = defineResource({
  name: AUCTION_BIDS,
  label: 'Auction bid',
  plural: 'Auction bids',
  title: 'amount',
  timestamps: 'shown',
  // A buyer reads its own bids; a seller and a dealer read the bids on theirs through their own calls.
  access: {
    read: ['admin', 'user'],
    write: ['user'],
    owner: { field: 'userId', roles: { admin: 'all', user: 'own' } },
  },
  menu: { group: 'Money', icon: 'Gavel' },
  empty: 'No bids yet',
  fields: [
    field.reference('auction', 'auctions', { label: 'Auction', list: true }),
    field.number('amount', { label: 'Bid', display: 'money', list: true, sortable: false }),
    field.reference('userId', 'users', { label: 'Bidder', list: true, setOnce: true, sortable: false }),
    // The auction's seller, kept with the bid: the dealer filter (`?dealerId`) and the seller's bids read it.
    field.reference('sellerId', 'users', { label: 'Seller', setOnce: true, sortable: false }),
  ],
  sort: { field: 'id', order: 'DESC' },
  reads: {
    list: read.list('GET /auctions/bits/', { scope: { field: 'sellerId', param: 'dealerId', through: 'dealerId' } }),
    user: read.list('GET /auctions/bits/user', { access: ['admin', 'user'] }),
  },
  operations: {
    place: operation('POST /auctions/bits', 'placeAuctionBid', { access: ['user'], body: placeBidBody }),
    public: operation('GET /auctions/bits/public/{auctionId}', 'publicAuctionBids', { access: 'signedIn' }),
    sellers: operation('GET /auctions/sellers/bits', 'sellerAuctionBids', { access: ['admin', 'seller', 'dealer'] }),
  },
});
