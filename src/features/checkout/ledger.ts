/**
 * `GET /ledger-entries/summary` (resources/ledger.ts; issue 52 point 6): a seller's earned, requested,
 * paid and due, in cents and formatted, from the ledger (and its payouts waiting to be paid). A seller
 * reads its own; the admin any seller's (`?sellerId=`); a dealer one of its team's (or its own).
 */
import { LEDGER_ENTRIES } from '../../../resources/ledger.ts';
import { PAYOUTS } from '../../../resources/payouts.ts';
import { formatCentsMoney } from '../../domain/commission.ts';
import { sellerSummary, type LedgerAccount } from '../../domain/ledger.ts';
import { notFound } from '../../server/errors.ts';
import type { HandlerContext, Handlers } from '../../server/routes/handlers.ts';
import type { Row } from '../../server/records/index.ts';

async function ledgerSummary({ db, request, query }: HandlerContext) {
  const user = request.user! as Row;
  const asked = typeof query.sellerId === 'string' && query.sellerId ? query.sellerId : String(user.id);
  if (asked !== String(user.id)) {
    if (user.role === 'seller') throw notFound('Seller not found.');
    if (user.role === 'dealer') {
      const member = await db.selectFrom('users').select(['id']).where('id', '=', asked).where('dealerId', '=', String(user.id)).executeTakeFirst();
      if (!member) throw notFound('Seller not found.');
    }
  }
  const lines = await db
    .selectFrom(LEDGER_ENTRIES)
    .select(['account', 'amountCents'])
    .where('party', '=', asked)
    .where('account', 'in', ['sellerPayable', 'sellerPaidOut'])
    .execute();
  const requested = await db.selectFrom(PAYOUTS).select(['amountCents']).where('sellerId', '=', asked).where('payoutStatus', '=', 'REQUESTED').execute();
  const summary = sellerSummary(
    lines.map((l: Row) => ({ account: l.account as LedgerAccount, amountCents: Number(l.amountCents) })),
    requested.reduce((sum: number, p: Row) => sum + Number(p.amountCents ?? 0), 0),
  );
  return {
    sellerId: asked,
    ...summary,
    earned: formatCentsMoney(summary.earnedCents),
    requested: formatCentsMoney(summary.requestedCents),
    paid: formatCentsMoney(summary.paidCents),
    due: formatCentsMoney(summary.dueCents),
  };
}

export const ledgerHandlers = { ledgerSummary } satisfies Handlers;
