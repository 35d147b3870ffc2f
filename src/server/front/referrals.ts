/**
 * The referral calls of resources/referrals.ts: the trees of `GET /flowchart/agents` and
 * `GET /flowchart/users`, and `POST /affiliate`, which records who referred an account
 * (`users.referredBy`) once and never overwrites it.
 */
import { sql } from 'kysely';
import { affiliateMessages } from '../../../resources/referrals.ts';
import type { Db, Row } from '../db/types.ts';
import { VERSION } from '../db/tables.ts';
import { badRequest, conflict, notFound, VALIDATION_FAILED } from '../errors.ts';
import type { HandlerContext, Handlers } from '../routes/handlers.ts';
import { MAX_TREE_ACCOUNTS, referralForest, type ReferralAccount, type TreeRoots } from './referral-tree.ts';

const ACCOUNTS = 'users';
const TREE_COLUMNS = ['id', 'name', 'email', 'role', 'image', 'referredBy'] as const;
/** The longest chain of referrers the circle check walks up (a real chain is a handful long). */
const MAX_CHAIN = 1_000;

/**
 * The accounts a tree is made of: every account in a referral (referred, or a referrer), and for the
 * agents' tree every agent too. One more than the bound is read, to know when the answer is cut.
 */
async function treeAccounts(db: Db, roots: TreeRoots): Promise<{ accounts: ReferralAccount[]; cut: boolean }> {
  const rows = (await db
    .selectFrom(ACCOUNTS)
    .select([...TREE_COLUMNS])
    .where((eb) =>
      eb.or([
        eb('referredBy', 'is not', null),
        eb('id', 'in', eb.selectFrom(`${ACCOUNTS} as referred`).select('referred.referredBy').where('referred.referredBy', 'is not', null)),
        ...(roots === 'agents' ? [eb('role', '=', 'agent')] : []),
      ]),
    )
    .orderBy('id')
    .limit(MAX_TREE_ACCOUNTS + 1)
    .execute()) as ReferralAccount[];
  return { accounts: rows.slice(0, MAX_TREE_ACCOUNTS), cut: rows.length > MAX_TREE_ACCOUNTS };
}

async function tree(db: Db, roots: TreeRoots) {
  const { accounts, cut } = await treeAccounts(db, roots);
  return referralForest(accounts, roots, cut);
}

/** Whether `start`, or a referrer above it, is `target`: recording `target → start` would close a circle. */
async function leadsTo(trx: Db, start: string, target: string): Promise<boolean> {
  const seen = new Set<string>();
  for (let at: string | null = start; at && !seen.has(at) && seen.size < MAX_CHAIN; ) {
    if (at === target) return true;
    seen.add(at);
    const row: { referredBy: unknown } | undefined = await trx.selectFrom(ACCOUNTS).select('referredBy').where('id', '=', at).executeTakeFirst();
    at = typeof row?.referredBy === 'string' ? row.referredBy : null;
  }
  return false;
}

const refused = (message: string) => badRequest(VALIDATION_FAILED, { bhrfc: [message] });

/**
 * `POST /affiliate` `{ bhrfc, userId }`: the account `userId` was referred by the holder of the invite
 * code `bhrfc`. A user records its own referral only (another's id answers 404, as an unknown one does:
 * ids cannot be probed); an admin records anyone's. An unknown code, one's own code, or a referral that
 * would close a circle is a 400; an account that already has another referrer keeps it (409); the same
 * referral again is answered as recorded. The write is a compare-and-set on an empty `referredBy`, so
 * two racing calls cannot both win.
 */
async function recordAffiliate({ records, registry, request, body }: HandlerContext) {
  const { bhrfc, userId } = body as { bhrfc: string; userId: string };
  const me = request.user!;
  if (me.role !== 'admin' && userId !== me.id) throw notFound('User not found.');
  const users = registry.resource(ACCOUNTS);
  return records.operation([ACCOUNTS], async (trx, audit) => {
    const account = (await trx.selectFrom(ACCOUNTS).selectAll().where('id', '=', userId).executeTakeFirst()) as Row | undefined;
    if (!account) throw notFound('User not found.');
    // Two holders of one code name nobody for sure: refused like an unknown code.
    const holders = (await trx.selectFrom(ACCOUNTS).select(['id']).where('inviteCode', '=', bhrfc).limit(2).execute()) as { id: string }[];
    if (holders.length !== 1) throw refused(affiliateMessages.unknownCode);
    const referrer = holders[0].id;
    if (referrer === account.id) throw refused(affiliateMessages.ownCode);
    const recorded = { id: account.id as string, referredBy: referrer };
    if (account.referredBy) {
      if (account.referredBy === referrer) return recorded;
      throw conflict(affiliateMessages.taken);
    }
    if (await leadsTo(trx, referrer, account.id as string)) throw refused(affiliateMessages.circle);
    const now = new Date().toISOString();
    const done = await trx
      .updateTable(ACCOUNTS)
      .set({ referredBy: referrer, updatedAt: now, [VERSION]: sql`coalesce(${sql.ref(VERSION)}, 1) + 1` })
      .where('id', '=', account.id as string)
      .where('referredBy', 'is', null)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) {
      // Another call recorded a referrer in between: the same one is this call's answer too.
      const held = await trx.selectFrom(ACCOUNTS).select('referredBy').where('id', '=', account.id as string).executeTakeFirst();
      if (held?.referredBy === referrer) return recorded;
      throw conflict(affiliateMessages.taken);
    }
    await audit({
      resource: users,
      recordId: account.id as string,
      action: 'affiliate',
      before: account,
      after: { ...account, referredBy: referrer },
    });
    return recorded;
  });
}

export const referralsHandlers = {
  referralTreeOfAgents: ({ db }) => tree(db, 'agents'),
  referralTreeOfUsers: ({ db }) => tree(db, 'users'),
  recordAffiliate,
} satisfies Handlers;
