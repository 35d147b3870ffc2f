/**
 * Slows password guessing without locking the rightful user out. Failures are counted per account
 * (its email, from anywhere) and per client address (failures on accounts that exist, whatever the
 * email), in separate tables. Past a few free failures each further one spaces the key's next attempt
 * out by a delay that doubles up to `maxDelayMs`; an attempt is held until both its account's and its
 * address's turn and then checked, so a right password still signs in, only later. Only a flood faster
 * than the spacing is refused (429), for as long as it keeps the queue fuller than `maxDelayMs`.
 *
 * Every attempt is booked *before* its password is checked, so a parallel burst is spaced exactly like
 * a sequence. Failures on an email no account has never count for the address: made-up emails cannot
 * slow the real accounts of a shared address (a NAT, a proxy not trusted). In memory: one server's view,
 * bounded in size. docs/security.md says what this does and does not defend.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';
import { HttpError } from '../errors.ts';

/** What an attempt held for its turn is told when the server closes meanwhile (it is not kept waiting for it). */
export const CLOSING_MESSAGE = 'The server is shutting down. Try again in a moment.';

/** How wrong passwords are spaced out (`SIGN_IN_DELAY`, `SIGN_IN_MAX_DELAY`; the rest fixed but for tests). */
export interface SignInLimits {
  /** Failures one account may have within the window before its attempts are spaced out. */
  freePerAccount: number;
  /** Failures on existing accounts one client address may have within the window before its attempts are spaced out. */
  freePerAddress: number;
  /** The spacing after the first failure past the free ones, in ms; it doubles with each further failure. */
  delayMs: number;
  /** The most one failure spaces the next attempt, in ms; also the longest an attempt is held before it is refused instead. */
  maxDelayMs: number;
  /** How long failures are remembered after the last of them, in ms. */
  windowMs: number;
  /** Most keys each table keeps; past it the oldest are dropped, so a flood of names cannot exhaust memory. */
  capacity: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  freePerAccount: 5,
  freePerAddress: 20,
  delayMs: 1000,
  maxDelayMs: 30_000,
  windowMs: 15 * 60_000,
  capacity: 20_000,
};

/** The answer to an attempt: checked after `waitMs`, or refused for this many seconds. */
export type Reservation = { ok: true; waitMs: number } | { ok: false; retryAfterSeconds: number };

/**
 * Counters over fixed windows, kept in a Map whose insertion order is the order the windows
 * started (a new window re-inserts its key): expired counters are always at the front, so pruning
 * is cheap, and when the table is full the oldest counter is the one dropped.
 */
export class WindowCounter {
  private readonly counts = new Map<string, { count: number; since: number }>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
    readonly capacity = DEFAULT_SIGN_IN_LIMITS.capacity,
  ) {}

  /** How many counters are held (for tests: it stays under `capacity`). */
  get size() {
    return this.counts.size;
  }

  /** Milliseconds until `key` may try again; 0 when it is under its limit. */
  waitFor(key: string, now = Date.now()): number {
    this.prune(now);
    const c = this.counts.get(key);
    return c && c.count >= this.max ? c.since + this.windowMs - now : 0;
  }

  /** Counts one attempt for `key` (the caller checked `waitFor` first). */
  take(key: string, now = Date.now()) {
    this.prune(now);
    const c = this.counts.get(key);
    if (c) {
      c.count++;
      return;
    }
    while (this.counts.size >= this.capacity) this.counts.delete(this.counts.keys().next().value!);
    this.counts.set(key, { count: 1, since: now });
  }

  /** Gives one attempt back (a success is not a failure). */
  refund(key: string) {
    const c = this.counts.get(key);
    if (c && c.count > 0) c.count--;
  }

  /** Forgets `key`'s attempts. */
  clear(key: string) {
    this.counts.delete(key);
  }

  private prune(now: number) {
    for (const [key, c] of this.counts) {
      if (now - c.since < this.windowMs) break;
      this.counts.delete(key);
    }
  }
}

/**
 * Failures per key and when the key's next attempt may be checked. A key's failures are forgotten once
 * it has been quiet for the window (a steady guesser never earns fresh free attempts); kept in the order
 * of their last failure (each re-inserts its key), so the quiet ones are at the front and pruning is
 * cheap. An entry outlives its window while its next turn is still ahead.
 */
export class Backoff {
  private readonly entries = new Map<string, { failures: number; last: number; nextAt: number }>();

  constructor(
    readonly free: number,
    readonly limits: SignInLimits,
  ) {}

  get size() {
    return this.entries.size;
  }

  /** Failures counted for `key` in its window (booked attempts included). */
  failures(key: string): number {
    return this.entries.get(key)?.failures ?? 0;
  }

  /** When `key`'s next attempt may be checked (`now` when it need not wait). */
  nextAt(key: string, now: number): number {
    this.prune(now);
    return Math.max(now, this.entries.get(key)?.nextAt ?? now);
  }

  /** How long the `failures`-th failure holds the key's next attempt back. */
  spacing(failures: number): number {
    const over = failures - this.free;
    return over < 0 ? 0 : Math.min(this.limits.maxDelayMs, this.limits.delayMs * 2 ** over);
  }

  /** Books an attempt checked at `at` as a failure (a success gives it back). */
  take(key: string, at: number, now: number) {
    const e = this.entries.get(key);
    if (e) this.entries.delete(key);
    else while (this.entries.size >= this.limits.capacity) this.entries.delete(this.entries.keys().next().value!);
    const failures = e && now - e.last < this.limits.windowMs ? e.failures + 1 : 1;
    this.entries.set(key, { failures, last: now, nextAt: Math.max(e?.nextAt ?? now, at + this.spacing(failures)) });
  }

  /** Gives one booked failure back (the password was right). */
  refund(key: string) {
    const e = this.entries.get(key);
    if (e && e.failures > 0) e.failures--;
  }

  private prune(now: number) {
    for (const [key, e] of this.entries) {
      if (now - e.last < this.limits.windowMs || e.nextAt > now) break;
      this.entries.delete(key);
    }
  }
}

/**
 * The address a limit is kept for: IPv4 as is (also when mapped into IPv6), IPv6 by its /64
 * prefix, since one client usually holds a whole /64 and could otherwise rotate through it.
 */
export function addressKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head, tail = ''] = ip.toLowerCase().split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

export type SignInLimiter = ReturnType<typeof signInLimiter>;

/** The limiter shared by signing in and changing a password (both check a password). */
export function signInLimiter(options: Partial<SignInLimits> = {}) {
  const limits: SignInLimits = { ...DEFAULT_SIGN_IN_LIMITS, ...options };
  const accounts = new Backoff(limits.freePerAccount, limits);
  const addresses = new Backoff(limits.freePerAddress, limits);
  const closing = new AbortController();
  return {
    limits,
    accounts,
    addresses,
    /**
     * Books an attempt at `email` before its password is checked: when it may be checked (the later of
     * its account's and its address's turns, for every email alike, so the wait does not tell whether
     * an account exists), or a refusal when that is more than `maxDelayMs` away.
     */
    reserve(ip: string | undefined, email: string, { exists }: { exists: boolean }, now = Date.now()): Reservation {
      const address = addressKey(ip);
      const at = Math.max(accounts.nextAt(email, now), addresses.nextAt(address, now));
      const waitMs = at - now;
      if (waitMs > limits.maxDelayMs)
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((waitMs - limits.maxDelayMs) / 1000)) };
      accounts.take(email, at, now);
      if (exists) addresses.take(address, at, now);
      return { ok: true, waitMs };
    },
    /** Holds an attempt for its turn; once `stop` is called (the server closing) answers 503 at once instead. */
    async hold(waitMs: number) {
      if (waitMs <= 0) return;
      try {
        await sleep(waitMs, undefined, { signal: closing.signal });
      } catch {
        throw new HttpError(503, CLOSING_MESSAGE);
      }
    },
    /** Ends every hold (the server is closing: a shutdown must not wait half a minute for a guesser). */
    stop() {
      closing.abort();
    },
    /**
     * A right password: its booking is given back. The account's earlier failures stay until their
     * window ends, so an owner signing in does not hand a guesser fresh free attempts.
     */
    succeed(ip: string | undefined, email: string) {
      accounts.refund(email);
      addresses.refund(addressKey(ip));
    },
  };
}

/** Answers 429 with `Retry-After` (an attempt refused before its password was checked). */
export function refuseAttempt(reply: FastifyReply, retryAfterSeconds: number) {
  const [n, unit] = retryAfterSeconds < 60 ? [retryAfterSeconds, 'second'] : [Math.ceil(retryAfterSeconds / 60), 'minute'];
  return reply
    .code(429)
    .header('Retry-After', String(retryAfterSeconds))
    .send({ message: `Too many failed sign-ins. Try again in ${n} ${unit}${n === 1 ? '' : 's'}.` });
}
