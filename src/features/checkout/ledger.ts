/**
 * `GET /ledger-entries/summary` (resources/ledger.ts; issue 52 points 6 and 9): earned, requested, paid
 * and due, in cents and formatted, from the ledger (and the payouts waiting to be paid).
 *
 * - A seller reads its own.
 * - A dealer reads its own, one of its team's (`?sellerId=`), and `team`: each of its sellers' figures.
 * - The admin reads any seller's (`?sellerId=`), and without one the whole marketplace's (`all`: every
 *   seller's summed) with the sellers owed the most (`team`, the first TOP_SELLERS by due).
 *
 * Summed by the database (one grouped query over the ledger's `(party, …)` rows and one over the
 * payouts), so the answer's cost is one round trip whatever the number of entries or sellers.
 */
import { sql } from 'kysely';
import { LEDGER_ENTRIES } from '../../../resources/ledger.ts';
import { PAYOUTS } from '../../../resources/payouts.ts';
import { formatCentsMoney } from '../../domain/commission.ts';
import { sellerSummary, type LedgerAccount } from '../../domain/ledger.ts';
import { notFound } from '../../server/errors.ts';
import type { HandlerContext, Handlers } from '../../server/routes/handlers.ts';
import type { Db, Row } from '../../server/records/index.ts';

/** How many sellers the admin's summary lists (those owed the most). */
export const TOP_SELLERS = 10;

export interface SummaryFigures {
  earnedCents: number;
  requestedCents: number;
  paidCents: number;
  dueCents: number;
  earned: string;
  requested: string;
  paid: string;
  due: string;
}

const figures = (s: ReturnType<typeof sellerSummary>): SummaryFigures => ({
  ...s,
  earned: formatCentsMoney(s.earnedCents),
  requested: formatCentsMoney(s.requestedCents),
  paid: formatCentsMoney(s.paidCents),
  due: formatCentsMoney(s.dueCents),
});

/** Each party's summary, summed by the database. */
async function summaries(db: Db, parties: string[]): Promise<Map<string, SummaryFigures>> {
  if (!parties.length) return new Map();
  const lines = await db
    .selectFrom(LEDGER_ENTRIES)
    .select(['party', 'account', sql<number>`sum(${sql.ref('amountCents')})`.as('cents')])
    .where('account', 'in', ['sellerPayable', 'sellerPaidOut'])
    .where('party', 'in', parties)
    .groupBy(['party', 'account'])
    .execute();
  const requested = await db
    .selectFrom(PAYOUTS)
    .select(['sellerId', sql<number>`sum(${sql.ref('amountCents')})`.as('cents')])
    .where('payoutStatus', '=', 'REQUESTED')
    .where('sellerId', 'in', parties)
    .groupBy('sellerId')
    .execute();
  const byParty = new Map<string, { lines: { account: LedgerAccount; amountCents: number }[]; requested: number }>();
  const of = (party: string) => byParty.get(party) ?? byParty.set(party, { lines: [], requested: 0 }).get(party)!;
  for (const l of lines as Row[]) of(String(l.party)).lines.push({ account: l.account as LedgerAccount, amountCents: Number(l.cents) });
  for (const p of requested as Row[]) of(String(p.sellerId)).requested = Number(p.cents);
  for (const p of parties) of(p);
  return new Map([...byParty].map(([party, x]) => [party, figures(sellerSummary(x.lines, x.requested))]));
}

async function named(db: Db, rows: [string, SummaryFigures][]) {
  const ids = rows.map(([id]) => id);
  const names = new Map(
    ids.length ? ((await db.selectFrom('users').select(['id', 'name']).where('id', 'in', ids).execute()) as Row[]).map((u) => [String(u.id), String(u.name ?? '')]) : [],
  );
  return rows.map(([sellerId, s]) => ({ sellerId, name: names.get(sellerId) ?? '', ...s }));
}

async function ledgerSummary({ db, request, query }: HandlerContext) {
  const user = request.user! as Row;
  const me = String(user.id);
  const asked = typeof query.sellerId === 'string' && query.sellerId ? query.sellerId : undefined;
  if (asked && asked !== me) {
    if (user.role === 'seller') throw notFound('Seller not found.');
    if (user.role === 'dealer') {
      const member = await db.selectFrom('users').select(['id']).where('id', '=', asked).where('dealerId', '=', me).executeTakeFirst();
      if (!member) throw notFound('Seller not found.');
    }
  }
  if (asked || user.role === 'seller') {
    const sellerId = asked ?? me;
    return { sellerId, ...(await summaries(db, [sellerId])).get(sellerId)! };
  }
  if (user.role === 'dealer') {
    const team = ((await db.selectFrom('users').select('id').where('dealerId', '=', me).where('role', '=', 'seller').execute()) as Row[]).map((u) => String(u.id));
    const all = await summaries(db, [me, ...team]);
    return { sellerId: me, ...all.get(me)!, team: await named(db, team.map((id) => [id, all.get(id)!])) };
  }
  // The admin: the whole marketplace (summed by account, not by seller), and the sellers owed the most.
  const totals = (await db
    .selectFrom(LEDGER_ENTRIES)
    .select(['account', sql<number>`sum(${sql.ref('amountCents')})`.as('cents')])
    .where('account', 'in', ['sellerPayable', 'sellerPaidOut'])
    .groupBy('account')
    .execute()) as Row[];
  const waiting = (await db.selectFrom(PAYOUTS).select(sql<number>`sum(${sql.ref('amountCents')})`.as('cents')).where('payoutStatus', '=', 'REQUESTED').executeTakeFirst()) as Row | undefined;
  const whole = figures(sellerSummary(totals.map((t) => ({ account: t.account as LedgerAccount, amountCents: Number(t.cents) })), Number(waiting?.cents ?? 0)));
  const owed = (await db
    .selectFrom(LEDGER_ENTRIES)
    .select(['party', sql<number>`sum(${sql.ref('amountCents')})`.as('cents')])
    .where('account', '=', 'sellerPayable')
    .groupBy('party')
    .orderBy(sql`sum(${sql.ref('amountCents')})`, 'desc')
    .orderBy('party')
    .limit(TOP_SELLERS)
    .execute()) as Row[];
  const top = owed.map((o) => String(o.party));
  const each = await summaries(db, top);
  return { sellerId: null, ...whole, team: await named(db, top.map((id) => [id, each.get(id)!])) };
}

export const ledgerHandlers = { ledgerSummary } satisfies Handlers;
