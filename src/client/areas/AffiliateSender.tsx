/**
 * Sends the kept referral code once the signed-in account is known (affiliate.ts). Renders nothing;
 * the layout holds it, so it runs after any sign-in, whichever screen the user lands on.
 */
import { useEffect } from 'react';
import { useGetIdentity } from 'react-admin';
import { sendAffiliate } from './affiliate.ts';

export function AffiliateSender() {
  const { identity } = useGetIdentity();
  const id = identity?.id;
  useEffect(() => {
    if (id !== undefined) void sendAffiliate(String(id));
  }, [id]);
  return null;
}
