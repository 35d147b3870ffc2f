/**
 * The referral trees of `/flowchart/*` built from accounts and their `referredBy`: pure, so the rules
 * (each account once, bounded size and depth, circles broken) are tested without a database.
 */
import type { ReferralNode, ReferralTree } from '../../../resources/referrals.ts';

/** An account as the tree reads it (a row of `users`, only these columns). */
export interface ReferralAccount {
  id: string;
  name?: unknown;
  email?: unknown;
  role?: unknown;
  image?: unknown;
  referredBy?: unknown;
}

/**
 * The most accounts one answer holds, and the deepest level it goes to. Both keep the answer's size
 * (and the nesting JSON and the screen must handle) bounded whatever the data; a cut tree says so.
 */
export const MAX_TREE_ACCOUNTS = 5_000;
export const MAX_TREE_DEPTH = 40;

/**
 * Whose trees: `'users'` every referral (roots: accounts nobody in the set referred, that brought
 * someone in); `'agents'` the agents' (roots: every agent with no agent above it, whether or not it
 * brought anyone, so the admin sees each agent and its downline).
 */
export type TreeRoots = 'users' | 'agents';

const text = (v: unknown) => (typeof v === 'string' ? v : null);

/**
 * Grows the forest. Every account appears at most once; an account whose referrer is not in `accounts`
 * is a root; members of a circle (which the affiliate call refuses, but old data may hold) are placed
 * from the first of them met. Children are in the order of `accounts` (ids are time-ordered: the order
 * they joined).
 */
export function referralForest(accounts: readonly ReferralAccount[], roots: TreeRoots, cut = false): ReferralTree {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const referrerOf = (a: ReferralAccount) => {
    const r = typeof a.referredBy === 'string' ? a.referredBy : undefined;
    return r && r !== a.id && byId.has(r) ? r : undefined;
  };
  const childrenOf = new Map<string, ReferralAccount[]>();
  for (const a of accounts) {
    const r = referrerOf(a);
    if (r) childrenOf.set(r, [...(childrenOf.get(r) ?? []), a]);
  }
  const placed = new Set<string>();
  let truncated = cut;

  function grow(a: ReferralAccount, depth: number): ReferralNode {
    placed.add(a.id);
    const node: ReferralNode = { id: a.id, name: text(a.name), email: text(a.email), role: text(a.role), image: text(a.image), descendants: 0, children: [] };
    for (const child of childrenOf.get(a.id) ?? []) {
      if (placed.has(child.id)) continue;
      if (depth + 1 >= MAX_TREE_DEPTH || placed.size >= MAX_TREE_ACCOUNTS) {
        truncated = true;
        break;
      }
      const grown = grow(child, depth + 1);
      node.children.push(grown);
      node.descendants += grown.descendants + 1;
    }
    return node;
  }

  const isAgent = (a: ReferralAccount) => a.role === 'agent';
  /** Whether an agent stands above `a` (its referrer, theirs, …), a circle stopping the walk. */
  const agentAbove = (a: ReferralAccount) => {
    const seen = new Set([a.id]);
    for (let r = referrerOf(a); r && !seen.has(r); r = referrerOf(byId.get(r)!)) {
      if (isAgent(byId.get(r)!)) return true;
      seen.add(r);
    }
    return false;
  };
  const first =
    roots === 'agents'
      ? accounts.filter((a) => isAgent(a) && !agentAbove(a))
      : accounts.filter((a) => !referrerOf(a) && childrenOf.has(a.id));
  // Then whatever a circle kept out: an agent (or, for every referral, a referrer) not placed yet.
  const rest = roots === 'agents' ? accounts.filter(isAgent) : accounts.filter((a) => childrenOf.has(a.id));
  const data: ReferralNode[] = [];
  for (const a of [...first, ...rest]) {
    if (placed.has(a.id)) continue;
    if (placed.size >= MAX_TREE_ACCOUNTS) {
      truncated = true;
      break;
    }
    data.push(grow(a, 0));
  }
  return { data, total: placed.size, truncated };
}
