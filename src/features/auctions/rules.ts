/**
 * The auctions' rules as pure functions, shared by the manifest's hook, the bid handler, the close job
 * and the client (issue 52 point 8). Money is integer cents here (src/domain/commission.ts `parsePrice`);
 * the stored and wire amounts are numbers of whole cents (12.5 is $12.50), as a product's prices are.
 */
import { centsToNumber, formatCentsMoney, parsePrice } from '../../domain/commission.ts';

/** The auctions' messages (spec §5 "Auctions": product, price, startdate, enddate required; qty at least 1). */
export const AUCTION_MESSAGES = {
  product: 'Product is required!',
  price: 'Price is required!',
  startdate: 'Start date is required!',
  enddate: 'End date is required!',
  notDate: 'Must be a date and time.',
  qty: 'Qty must be at least 1.',
  endAfterStart: 'End date must be after the start date.',
  /** A seller's auction of another seller's product (issue 52: "a product of another seller"). */
  notOwnProduct: 'The product must be your own.',
  unknownProduct: 'No product has this id.',
  /** §8: the auction update's failure toast (with the answer's data as its description). */
  failed: 'Something went wrong.',
  // Bids.
  bidAuction: 'Auction is required.',
  bidAmount: 'Bid amount is required.',
  notRunning: 'This auction is not running.',
  notFound: 'Auction not found.',
  tooLow: (min: number) => `Your bid must be at least ${formatCentsMoney(min)}.`,
  outbidTitle: 'You were outbid',
  outbid: (name: string, amount: number) => `Someone bid ${formatCentsMoney(amount)} on ${name}: bid again to win it.`,
  wonTitle: 'You won an auction',
  won: (name: string, amount: number) => `You won ${name} at ${formatCentsMoney(amount)}.`,
} as const;

/** An auction's states: running until closed (by its job at its end, once). */
export const AUCTION_STATUSES = ['OPEN', 'CLOSED'] as const;

/** The settings the bids read (the settings table), with their defaults. */
export const AUCTION_SETTINGS = {
  /** The least a bid must be above the highest so far, in cents. */
  bidStepCents: { key: 'auctions.bidStepCents', fallback: 100 },
  /** An accepted bid in the last N minutes moves the end to now + N (anti-sniping). */
  extendMinutes: { key: 'auctions.extendMinutes', fallback: 5 },
} as const;

/** How far past its first end an auction may be extended: its hard end is end + this. */
export const MAX_EXTENSION_MINUTES = 60;

const MINUTE = 60_000;

/** A date-time text as milliseconds, or undefined. */
export function timeOf(value: unknown): number | undefined {
  if (typeof value !== 'string' || !value) return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

/** Cents of a stored or sent amount (12.5 → 1250), or undefined when it is not whole cents. */
export function centsOf(amount: unknown): number | undefined {
  if (amount === null || amount === undefined || amount === '') return undefined;
  const parsed = parsePrice(amount);
  return parsed.ok ? parsed.value : undefined;
}

export const amountOf = centsToNumber;

/** The hard end of an auction whose end is `end` (ISO text): no bid moves the end past it. */
export function hardEndOf(end: string): string {
  return new Date(Date.parse(end) + MAX_EXTENSION_MINUTES * MINUTE).toISOString();
}

/** Whether the auction runs at `now`: open, started, not ended. */
export function isRunning(auction: Record<string, unknown>, now: number): boolean {
  const start = timeOf(auction.startdate);
  const end = timeOf(auction.enddate);
  return auction.status === 'OPEN' && start !== undefined && end !== undefined && start <= now && now < end;
}

/**
 * The least the next bid may be, in cents: the starting price for the first bid, else the highest so
 * far plus the step.
 */
export function minimumBid(priceCents: number, highestCents: number | undefined, stepCents: number): number {
  return highestCents === undefined ? priceCents : highestCents + Math.max(1, stepCents);
}

/**
 * Anti-sniping: the end after a bid accepted at `now`. A bid within the last `minutes` moves the end to
 * now + `minutes`, never past `hardEnd`; any other bid leaves it.
 */
export function extendedEnd(end: string, hardEnd: string | undefined, now: number, minutes: number): string {
  const endMs = Date.parse(end);
  const window = minutes * MINUTE;
  if (!(window > 0) || endMs - now > window) return end;
  const cap = timeOf(hardEnd) ?? endMs;
  const moved = Math.min(now + window, cap);
  return moved > endMs ? new Date(moved).toISOString() : end;
}
