/**
 * The auctions' hook (resources/auctions.ts), run by the records service inside the write's transaction.
 * Manifests load in the browser too: this module imports no server code; it reads through its context.
 *
 * A person's create or update (an admin, or a seller its own) is held to the rules the field rules
 * cannot judge alone: the product exists; a seller's is its own (and an auction's product stays its
 * seller's, so the owner never moves); the end is after the start. The seller, the product's id and the
 * hard end (how far bids may extend it) are the server's. The server's own writes (a bid moving the
 * end, the close job) pass as they are.
 */
import { HookRefusal, type ResourceHooks } from '../../manifest/hooks.ts';
import { AUCTION_MESSAGES, hardEndOf, timeOf } from './rules.ts';

const refuse = (field: string, message: string) => new HookRefusal(message, { [field]: [message] });

export const auctionHooks: ResourceHooks = {
  async beforeChange({ data, previous, user, find, operation }) {
    if (!user) return data;
    const productId = data.product ?? previous?.product;
    const product = typeof productId === 'string' ? await find('products', 'id', productId) : undefined;
    if (!product) throw refuse('product', AUCTION_MESSAGES.unknownProduct);
    const sellerId = String(product.sellerId ?? '');
    if (user.role === 'seller' && sellerId !== String(user.id)) throw refuse('product', AUCTION_MESSAGES.notOwnProduct);
    if (operation === 'update' && previous && sellerId !== String(previous.sellerId ?? '')) throw refuse('product', AUCTION_MESSAGES.notOwnProduct);
    const start = timeOf(data.startdate ?? previous?.startdate);
    const end = timeOf(data.enddate ?? previous?.enddate);
    if (start === undefined) throw refuse('startdate', AUCTION_MESSAGES.startdate);
    if (end === undefined) throw refuse('enddate', AUCTION_MESSAGES.enddate);
    if (end <= start) throw refuse('enddate', AUCTION_MESSAGES.endAfterStart);
    const enddate = new Date(end).toISOString();
    return {
      ...data,
      productId: String(product.id),
      productName: String(product.name ?? ''),
      ...(operation === 'create' ? { sellerId } : {}),
      startdate: new Date(start).toISOString(),
      enddate,
      hardEnd: hardEndOf(enddate),
    };
  },
};
