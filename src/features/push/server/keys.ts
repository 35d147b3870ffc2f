/**
 * The browser's keys of a push subscription, judged when it is saved: `p256dh` must be a point of the
 * P-256 curve (a zod length check lets any 65 bytes through, and web-push then fails at every send),
 * and the keys tell whether a newcomer for an endpoint is the browser that holds it.
 */
import { createPublicKey, timingSafeEqual } from 'node:crypto';

/** The keys of `PushSubscription.toJSON()`, base64url. */
export interface BrowserKeys {
  p256dh: string;
  auth: string;
}

/** Whether `p256dh` (base64url) is an uncompressed P-256 public key: 65 bytes, 0x04, a point on the curve. */
export function isP256Point(p256dh: string): boolean {
  const bytes = Buffer.from(p256dh, 'base64url');
  if (bytes.length !== 65 || bytes[0] !== 0x04) return false;
  try {
    // OpenSSL refuses coordinates that are not a point of the curve (or not below its prime).
    createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: bytes.subarray(1, 33).toString('base64url'), y: bytes.subarray(33).toString('base64url') },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a stored subscription (its JSON text) has exactly `keys`. The auth secret never leaves the
 * browser but to us, so a caller that sends it is the browser holding the subscription (a shared
 * computer, the next person signed in), not someone who learned the endpoint URL.
 */
export function sameKeys(stored: unknown, keys: BrowserKeys): boolean {
  let held: Partial<BrowserKeys> | undefined;
  try {
    held = (JSON.parse(String(stored)) as { keys?: Partial<BrowserKeys> }).keys;
  } catch {
    return false;
  }
  const equal = (a: unknown, b: string) => {
    if (typeof a !== 'string') return false;
    const [x, y] = [Buffer.from(a), Buffer.from(b)];
    return x.length === y.length && timingSafeEqual(x, y);
  };
  return equal(held?.p256dh, keys.p256dh) && equal(held?.auth, keys.auth);
}
