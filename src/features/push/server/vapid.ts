/**
 * The server's VAPID key pair (RFC 8292): made on first start and kept in the settings table, so every
 * node and every restart signs with the same key and browsers' subscriptions stay valid. Two nodes
 * starting at once on one PostgreSQL may both make a pair; each inserts only if no pair is stored yet
 * and then reads back what is stored, so both use the one that won.
 */
import { hostname } from 'node:os';
import { SETTINGS, getSetting } from '../../../server/settings/index.ts';
import type { Db } from '../../../server/records/index.ts';

/** The settings key the pair is stored under (the private key never leaves the server). */
export const VAPID_SETTING = 'push.vapidKeys';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export async function loadVapidKeys(db: Db): Promise<VapidKeys> {
  const stored = await getSetting(db, VAPID_SETTING);
  if (stored) return JSON.parse(stored) as VapidKeys;
  // web-push is loaded only to make the pair, once per database, and to send (send.ts).
  const { default: webpush } = await import('web-push');
  const made = webpush.generateVAPIDKeys();
  await db
    .insertInto(SETTINGS)
    .values({ key: VAPID_SETTING, value: JSON.stringify(made), updatedAt: new Date().toISOString() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return JSON.parse((await getSetting(db, VAPID_SETTING))!) as VapidKeys;
}

/**
 * Who the push services may contact about our pushes (RFC 8292 `sub`): `VAPID_SUBJECT` (a `mailto:` or
 * `https:` URL), else `mailto:admin@<this machine's name>`.
 */
export function vapidSubject(env: NodeJS.ProcessEnv = process.env): string {
  return env.VAPID_SUBJECT || `mailto:admin@${hostname()}`;
}
