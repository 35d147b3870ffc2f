/**
 * Sending the kept referral code after sign-in (spec §7 `POST /api/admin/v1/affiliate` with bhrfc and
 * userId; §8 "A failed affiliate call returns false silently").
 */
import { referrals } from '../../../resources/referrals.ts';
import { send } from '../providers/http.ts';
import { takeReferral } from './referral-storage.ts';

type Store = Parameters<typeof takeReferral>[0];

/** The declared call, from the manifest. */
const AFFILIATE = referrals.operations.affiliate.call;

/**
 * Sends the kept referral code (if any) for the signed-in account `userId`, once: the code leaves
 * storage before the call, so neither a second tab nor a failure sends it again. Answers whether the
 * server recorded it; never throws and shows nothing.
 */
export async function sendAffiliate(userId: unknown, storage?: Store, post: typeof send = send): Promise<boolean> {
  if (typeof userId !== 'string' || !userId) return false;
  const bhrfc = takeReferral(storage);
  if (!bhrfc) return false;
  try {
    await post(AFFILIATE, {}, { bhrfc, userId });
    return true;
  } catch {
    return false;
  }
}
