/**
 * Referrals (spec §7 "GET /flowchart/agents, /flowchart/users", "POST /api/admin/v1/affiliate with bhrfc,
 * userId"; §9 "A referral code (bref) is read from the link query"): who brought whom. The link itself
 * is `users.referredBy` (resources/people.ts); this manifest declares the calls that write and read it.
 *
 * The resource has no fields and no list: it exists so these calls are declared like every other one
 * (access, body rule, API document, spec check). Its table stays empty.
 */
import { z } from 'zod';
import { defineResource, operation } from '../src/manifest/index.ts';

/** The resource's name, and the name of the admin's "Referrals" screen. */
export const REFERRALS = 'referrals';

/** The longest invite code the affiliate call takes (a code is a short token; anything longer is junk). */
export const MAX_INVITE_CODE = 64;

/** Messages of the affiliate call (not in the spec: it says only that a failed call returns false). */
export const affiliateMessages = {
  codeRequired: 'Referral code is required.',
  userRequired: 'User is required.',
  unknownCode: 'Unknown referral code.',
  ownCode: 'You cannot refer yourself.',
  circle: 'This referral would go round in a circle.',
  taken: 'This user already has a referrer.',
} as const;

/**
 * The affiliate call's body: the referrer's invite code (`bhrfc`, as the spec spells the wire name) and
 * the account that was referred. Unknown fields are refused.
 */
export const affiliateBody = z.strictObject({
  bhrfc: z
    .string({ error: affiliateMessages.codeRequired })
    .trim()
    .min(1, affiliateMessages.codeRequired)
    .max(MAX_INVITE_CODE, `Referral code must be at most ${MAX_INVITE_CODE} characters.`),
  userId: z.string({ error: affiliateMessages.userRequired }).trim().min(1, affiliateMessages.userRequired).max(64, 'User must be at most 64 characters.'),
});

/**
 * One account in a referral tree, as `/flowchart/*` answers it: who it is, and the accounts it brought
 * in, each with theirs. `descendants` counts everyone below it.
 */
export interface ReferralNode {
  id: string;
  name: string | null;
  email: string | null;
  role: string | null;
  image: string | null;
  descendants: number;
  children: ReferralNode[];
}

/** What `/flowchart/*` answers: the roots, and whether the tree was cut at its size or depth bound. */
export interface ReferralTree {
  data: ReferralNode[];
  /** Accounts in the answer. */
  total: number;
  truncated: boolean;
}

export const referrals = defineResource({
  name: REFERRALS,
  // Not 'Referral': that is §3's browser-storage record `{ bref }` (src/client/areas/referral-storage.ts).
  label: 'Referral link',
  plural: 'Referrals',
  title: 'id',
  sort: { field: 'id', order: 'ASC' },
  access: { read: ['admin'], write: ['admin'] },
  fields: [],
  operations: {
    // Every agent with the accounts it brought in, recursively (each account once).
    agentTree: operation('GET /flowchart/agents', 'referralTreeOfAgents', { access: ['admin'] }),
    // Every referral: each account nobody referred that brought someone in, with its downline.
    userTree: operation('GET /flowchart/users', 'referralTreeOfUsers', { access: ['admin'] }),
    // Records who referred an account, once; a user records its own, an admin anyone's.
    affiliate: operation('POST /affiliate', 'recordAffiliate', { access: 'signedIn', body: affiliateBody }),
  },
});
