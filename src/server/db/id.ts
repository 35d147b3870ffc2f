/** Record ids: 24 hex characters (spec §9 "Product id is 24 hex characters"), time-ordered then random. */
import { randomBytes } from 'node:crypto';

export function newId(now = Date.now()): string {
  return Math.floor(now / 1000).toString(16).padStart(8, '0') + randomBytes(8).toString('hex');
}
