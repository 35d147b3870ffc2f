/** Invite codes of new accounts: the referral code the affiliate call names (`bhrfc`, spec §7). */
import { randomInt } from 'node:crypto';

/** Letters and digits that cannot be mistaken for one another (no 0/O, 1/I). */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const LENGTH = 10;

/** A fresh invite code: 10 characters, 50 bits, so two accounts never share one in practice. */
export function newInviteCode(): string {
  let out = '';
  for (let i = 0; i < LENGTH; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}
