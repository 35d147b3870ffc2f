/**
 * Slows password guessing. Every sign-in attempt is counted *before* its password is checked (a
 * reservation), so a burst of parallel guesses is limited exactly like a sequence: at most
 * `MAX_FAILURES_PER_ACCOUNT` guesses per client address and email, and `MAX_FAILURES_PER_ADDRESS`
 * per client address across all emails (password spraying), within `SIGN_IN_WINDOW_MS`. A success
 * gives its reservation back. In memory: one server's view, bounded in size.
 */

/** How long failures are remembered. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Failed sign-ins allowed for one email from one client address within the window. */
export const MAX_FAILURES_PER_ACCOUNT = 10;
/** Failed sign-ins allowed from one client address, whatever the emails, within the window. */
export const MAX_FAILURES_PER_ADDRESS = 50;
/** Most counters each table keeps; past it the oldest are dropped, so a flood of names cannot exhaust memory. */
export const MAX_TRACKED_KEYS = 20_000;

/** The answer to an attempt: go ahead, or wait this many seconds. */
export type Reservation = { ok: true } | { ok: false; retryAfterSeconds: number };

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
    readonly capacity = MAX_TRACKED_KEYS,
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

/** The sign-in limiter: per client address and email, and per client address. */
export function signInLimiter({
  perAccount = MAX_FAILURES_PER_ACCOUNT,
  perAddress = MAX_FAILURES_PER_ADDRESS,
  windowMs = SIGN_IN_WINDOW_MS,
  capacity = MAX_TRACKED_KEYS,
} = {}) {
  const accounts = new WindowCounter(perAccount, windowMs, capacity);
  const addresses = new WindowCounter(perAddress, windowMs, capacity);
  const keys = (ip: string | undefined, email: string) => {
    const address = addressKey(ip);
    return { address, account: `${address} ${email}` };
  };
  return {
    accounts,
    addresses,
    /** Counts an attempt before its password is checked, or says how long to wait when over a limit. */
    reserve(ip: string | undefined, email: string, now = Date.now()): Reservation {
      const { address, account } = keys(ip, email);
      const wait = Math.max(accounts.waitFor(account, now), addresses.waitFor(address, now));
      if (wait > 0) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
      accounts.take(account, now);
      addresses.take(address, now);
      return { ok: true };
    },
    /** A right password: this email's failures from this address are forgotten, and the attempt given back. */
    succeed(ip: string | undefined, email: string) {
      const { address, account } = keys(ip, email);
      accounts.clear(account);
      addresses.refund(address);
    },
  };
}
