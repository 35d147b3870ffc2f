/** What the server tells an open auction page over the socket (src/features/auctions/server.ts), client-safe. */
export const AUCTION_EVENT = 'auction:update';

/** An auction's live state: its price, highest bid and end. */
export interface AuctionUpdate {
  id: string;
  price: number;
  highestBid: number | null;
  bidCount: number;
  enddate: string;
  status: string;
}
