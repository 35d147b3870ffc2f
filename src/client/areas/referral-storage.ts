/**
 * The referral code a link brings (`?bref=CODE`, spec §9), kept in browser storage under the
 * `{product}-house` key as `{ bref }` until the first sign-in sends it (affiliate.ts). Light on
 * purpose (no manifest, no zod): the app reads the link before anything else loads.
 */
import { REFERRAL_STORAGE_KEY } from '../shell/app-name.ts';

/** The query parameter a referral link carries. */
export const BREF_PARAM = 'bref';
/** §3 "A referral record in browser storage holds bref": the record as kept. */
export interface ReferralRecord {
  bref: string;
}
/** The kept record's fields, for the spec check (scripts/check-spec.ts). */
export const REFERRAL_RECORD_FIELDS = ['bref'] as const satisfies readonly (keyof ReferralRecord)[];
/** The longest code kept (the server's bound too: resources/referrals.ts MAX_INVITE_CODE). */
const MAX_CODE = 64;

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The browser's storage, or none where it is unavailable (private modes, blocked cookies). */
function browserStorage(): Store | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/** A code as kept: trimmed, non-empty, at most MAX_CODE characters, printable. */
function validCode(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const code = value.trim();
  return code && code.length <= MAX_CODE && !/[\u0000-\u001f\u007f]/.test(code) ? code : undefined;
}

/**
 * The `bref` of a link: in its query (`/?bref=CODE#/`) or in the query of its hash route
 * (`#/login?bref=CODE`), as the app's hash router puts it.
 */
export function brefOf(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href, 'http://localhost');
  } catch {
    return undefined;
  }
  const inHash = url.hash.includes('?') ? new URLSearchParams(url.hash.slice(url.hash.indexOf('?') + 1)).get(BREF_PARAM) : null;
  return validCode(url.searchParams.get(BREF_PARAM)) ?? validCode(inHash);
}

/** Keeps the link's referral code, if it has one (a newer link's code replaces an older one). Answers it. */
export function captureReferral(href: string = globalThis.location?.href ?? '', storage: Store | undefined = browserStorage()): string | undefined {
  const code = brefOf(href);
  if (!code || !storage) return undefined;
  try {
    storage.setItem(REFERRAL_STORAGE_KEY, JSON.stringify({ bref: code } satisfies ReferralRecord));
  } catch {
    return undefined; // storage full or refused: the referral is lost, nothing else is
  }
  return code;
}

/** The kept referral code, if any (a record that is not ours is ignored). */
export function storedReferral(storage: Store | undefined = browserStorage()): string | undefined {
  try {
    const raw = storage?.getItem(REFERRAL_STORAGE_KEY);
    return raw ? validCode((JSON.parse(raw) as Partial<Record<keyof ReferralRecord, unknown>>)?.bref) : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the kept code out of storage: it is sent once. */
export function takeReferral(storage: Store | undefined = browserStorage()): string | undefined {
  const code = storedReferral(storage);
  try {
    storage?.removeItem(REFERRAL_STORAGE_KEY);
  } catch {
    // nothing kept, nothing to forget
  }
  return code;
}
