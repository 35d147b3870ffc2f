/**
 * The double-entry ledger (issue 52 point 6), pure: which entries each money event posts, in integer
 * cents, and the balances they add up to. Every transaction's entries sum to zero; entries are only
 * ever appended (a cancellation or refund posts reversals at the frozen amounts, never an update).
 *
 * Accounts (each entry names one, and the party it is about where there is one):
 * - `buyer`: what the buyer paid (a checkout posts the order's total as a negative amount: money out);
 * - `sellerPayable`: what the site owes the seller (the seller prices × quantities of its order);
 * - `sellerPaidOut`: what the site has paid the seller (a payout paid moves payable into it);
 * - `siteCommission`, `dealerCommission`, `agentCommission`: the commission shares of the frozen lines
 *   (site: siteCommission; dealer: dealerSiteCommission and dealerCommissionFromSeller; agent:
 *   agentSiteCommission and ageentFormDealerCommission).
 *
 * Sign: positive is owed to (or held for) the account's party, negative is paid by it. So a checkout of
 * total T posts buyer −T, sellerPayable +S, and the five commissions, with S + commissions = T.
 */
import { COMMISSION_FIELDS, type CommissionField, type CommissionValues } from './commission.ts';

export const LEDGER_ACCOUNTS = ['buyer', 'sellerPayable', 'sellerPaidOut', 'siteCommission', 'dealerCommission', 'agentCommission'] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

/** What caused a transaction. */
export const LEDGER_KINDS = ['checkout', 'reversal', 'payout'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** Which share each of the five commission percentages is. */
export const COMMISSION_SHARE: Readonly<Record<CommissionField, LedgerAccount>> = Object.freeze({
  siteCommission: 'siteCommission',
  dealerSiteCommission: 'dealerCommission',
  dealerCommissionFromSeller: 'dealerCommission',
  agentSiteCommission: 'agentCommission',
  ageentFormDealerCommission: 'agentCommission',
});

/** One entry as posted: an account, its party (a user id, or null for the site), cents. */
export interface LedgerLine {
  account: LedgerAccount;
  party: string | null;
  amountCents: number;
}

/** The parties of an order's entries. */
export interface OrderParties {
  buyer: string;
  seller: string;
  dealer?: string | null;
  agent?: string | null;
}

/** An order's frozen amounts, in cents: its lines' seller prices and commissions, and its total. */
export interface OrderAmounts {
  totalCents: number;
  sellerCents: number;
  commissionCents: CommissionValues;
}

/** The sum of some amounts, refusing anything but whole cents (a RangeError). */
export function sumCents(amounts: readonly number[]): number {
  let total = 0;
  for (const a of amounts) {
    if (!Number.isSafeInteger(a)) throw new RangeError(`not whole cents: ${a}`);
    total += a;
  }
  if (!Number.isSafeInteger(total)) throw new RangeError('sum out of range');
  return total;
}

/** Whether a transaction's entries balance (sum to zero, each whole cents). */
export function balanced(lines: readonly LedgerLine[]): boolean {
  return lines.length > 0 && sumCents(lines.map((l) => l.amountCents)) === 0;
}

/** Refuses an unbalanced transaction (a bug, never a user's input). */
export function assertBalanced(lines: readonly LedgerLine[]): readonly LedgerLine[] {
  if (!balanced(lines)) throw new Error(`ledger transaction does not balance: ${JSON.stringify(lines)}`);
  return lines;
}

/** Adds commission values field by field (an order's lines into its totals). */
export function addCommissions(a: CommissionValues, b: CommissionValues): CommissionValues {
  const out = {} as Record<CommissionField, number>;
  for (const f of COMMISSION_FIELDS) out[f] = a[f] + b[f];
  return out;
}

export const NO_COMMISSION: CommissionValues = Object.freeze(Object.fromEntries(COMMISSION_FIELDS.map((f) => [f, 0])) as Record<CommissionField, number>);

/** A checkout of one order: the buyer's payment, the seller's payable and each commission share. */
export function checkoutLines(parties: OrderParties, amounts: OrderAmounts): readonly LedgerLine[] {
  const shares = new Map<LedgerAccount, number>();
  for (const f of COMMISSION_FIELDS) shares.set(COMMISSION_SHARE[f], (shares.get(COMMISSION_SHARE[f]) ?? 0) + amounts.commissionCents[f]);
  const partyOf = (account: LedgerAccount) =>
    account === 'dealerCommission' ? (parties.dealer ?? null) : account === 'agentCommission' ? (parties.agent ?? null) : null;
  const lines: LedgerLine[] = [
    { account: 'buyer', party: parties.buyer, amountCents: -amounts.totalCents },
    { account: 'sellerPayable', party: parties.seller, amountCents: amounts.sellerCents },
    ...[...shares].map(([account, amountCents]) => ({ account, party: partyOf(account), amountCents })),
  ];
  return assertBalanced(lines);
}

/** The reversal of a transaction: each entry again, negated (a cancellation or a refund). */
export function reversalLines(lines: readonly LedgerLine[]): readonly LedgerLine[] {
  return assertBalanced(lines.map((l) => ({ ...l, amountCents: l.amountCents === 0 ? 0 : -l.amountCents })));
}

/** A payout paid: the amount moves from the seller's payable into its paid out. */
export function payoutLines(seller: string, amountCents: number): readonly LedgerLine[] {
  return assertBalanced([
    { account: 'sellerPayable', party: seller, amountCents: -amountCents },
    { account: 'sellerPaidOut', party: seller, amountCents },
  ]);
}

/** Balances by account (and party): `account` or `account:party` → cents. */
export function balances(lines: readonly LedgerLine[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const l of lines) {
    const key = l.party ? `${l.account}:${l.party}` : l.account;
    out.set(key, (out.get(key) ?? 0) + l.amountCents);
  }
  return out;
}

/**
 * A seller's summary from its ledger entries and its payouts waiting: earned (its payable ever posted,
 * reversals taken off), requested (payouts asked and not yet paid), paid (paid out) and due (payable
 * not yet paid out, requested or not), all in cents.
 */
export function sellerSummary(lines: readonly Pick<LedgerLine, 'account' | 'amountCents'>[], requestedCents: number) {
  let payable = 0;
  let paid = 0;
  for (const l of lines) {
    if (l.account === 'sellerPayable') payable += l.amountCents;
    else if (l.account === 'sellerPaidOut') paid += l.amountCents;
  }
  return { earnedCents: payable + paid, requestedCents, paidCents: paid, dueCents: payable };
}
