/**
 * How much a user who is not an admin may upload: a storage quota (the bytes of their stored files,
 * as the `media` table records them) and a number of upload requests a minute. Admins have neither.
 *
 * Both hold under bursts of parallel requests, not only under a sequence (docs/architecture.md): an upload is
 * counted against the rate *before* its body is read, and its bytes are reserved against the quota,
 * under a per-user lock, *before* its body is read (what its Content-Length promises) and further as
 * they arrive, so parallel uploads see each other's bytes while they stream and while the slow part
 * (storage, the insert) runs; the database's total is read once per burst (see `usage`). The state is one server's, in memory: several servers over one
 * PostgreSQL each hold the rate and can each let one burst's reservations through.
 */
import { WindowCounter } from '../auth/limiter.ts';
import { HttpError } from '../errors.ts';

export interface UploadLimits {
  /** Bytes of stored files a user who is not an admin may have (`UPLOAD_QUOTA_MB`, default 200 MiB). */
  quotaBytes: number;
  /** Upload requests a user who is not an admin may send a minute (`UPLOAD_RATE_PER_MINUTE`, default 30). */
  perMinute: number;
}

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { quotaBytes: 200 * 1024 * 1024, perMinute: 30 };

const MINUTE_MS = 60_000;

/**
 * `300 KB`, `1.5 MB`, `200 MB` (binary units, as the upload hints count them). `round` says which way:
 * what is needed is rounded up, what is left down, so a file the message says fits does fit.
 */
export function sizeText(bytes: number, round: (n: number) => number = Math.round): string {
  if (bytes < 1024 * 1024) return `${round(bytes / 1024)} KB`;
  const mb = bytes / 1024 / 1024;
  return Number.isInteger(mb) || mb >= 10 ? `${round(mb)} MB` : `${round(mb * 10) / 10} MB`;
}

/** The answers a limit gives, in the upload route's `{ message, errors: { files } }` shape. */
export const limitMessages = {
  quotaTitle: 'Upload quota exceeded',
  quotaFull: (quota: number) =>
    `Your ${sizeText(quota)} upload quota is used up. Delete files you no longer need, or ask an admin.`,
  quotaShort: (needed: number, left: number, quota: number) =>
    `These files take ${sizeText(needed, Math.ceil)}, but only ${sizeText(left, Math.floor)} of your ${sizeText(quota)} upload quota is left.`,
  /** Refused by its Content-Length, before any of the body is read. */
  quotaBody: (sent: number, left: number, quota: number) =>
    `This upload sends ${sizeText(sent, Math.ceil)}, but only ${sizeText(left, Math.floor)} of your ${sizeText(quota)} upload quota is left.`,
  /** Refused while the files arrive, before the rest is read. */
  quotaOver: (received: number, left: number, quota: number) =>
    `These files take more than ${sizeText(received, Math.floor)}, but only ${sizeText(left, Math.floor)} of your ${sizeText(quota)} upload quota is left.`,
  rateTitle: 'Too many uploads',
  rate: (perMinute: number, seconds: number) =>
    `You can upload at most ${perMinute} times a minute. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
} as const;

/** A refused upload: 413 over the quota, 429 over the rate (with the seconds to wait). */
export class UploadLimitError extends HttpError {
  constructor(
    status: 413 | 429,
    message: string,
    detail: string,
    /** For 429: the `Retry-After` seconds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(status, message, { files: [detail] });
  }
}

/** What a user has stored while uploads of theirs are being stored: the database's total when the first began, plus theirs. */
interface Usage {
  bytes: number;
  /** Uploads reserved and not yet recorded or given up. */
  pending: number;
}

/**
 * One upload's share of its sender's quota, held from before its body is read until its files are
 * recorded or given up. It starts at what the body's length promises (`reserve`), follows the bytes as
 * they arrive (`receiving`), and is set to the files' exact size once they are all in (`settle`).
 */
export interface Reservation {
  /**
   * `bytes` more of files arrived: throws 413 when the sender's uploads would then pass the quota by
   * more than the reservation's slack (the exact judgement is `settle`'s).
   */
  receiving(bytes: number): void;
  /** The files' exact bytes: throws 413 (naming them and what is left) when they do not fit the quota. */
  settle(bytes: number): void;
  /** Frees the reservation: `kept` when the files were recorded (they count from now on), else given up. */
  release(kept: boolean): void;
}

/** One app's upload limits, with the counters and reservations that enforce them. */
export class UploadLimiter {
  private readonly rate: WindowCounter;
  /**
   * Per user with uploads being stored: their usage, kept here rather than read again, since a total
   * read while another upload commits could count it twice or not at all. Dropped when the last of
   * their uploads is done, so the database is the truth again (deletes, other servers).
   */
  private readonly usage = new Map<string, Usage>();
  /** Per user, the end of the queue of quota checks (so a check and its reservation are one step). */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(readonly limits: UploadLimits = DEFAULT_UPLOAD_LIMITS) {
    this.rate = new WindowCounter(limits.perMinute, MINUTE_MS);
  }

  /** Counts an upload request by `user`, or throws 429 when they are over the rate (not counted then). */
  count(user: string, now = Date.now()) {
    const wait = this.rate.waitFor(user, now);
    if (wait > 0 || this.limits.perMinute <= 0) {
      const seconds = Math.max(1, Math.ceil((wait || MINUTE_MS) / 1000));
      throw new UploadLimitError(429, limitMessages.rateTitle, limitMessages.rate(this.limits.perMinute, seconds), seconds);
    }
    this.rate.take(user, now);
  }

  /**
   * Refuses (413) before the body is read when `user` has no quota left at all: `stored` reads the
   * bytes of their recorded files.
   */
  async checkRoom(user: string, stored: () => Promise<number>) {
    const { quotaBytes } = this.limits;
    const used = this.usage.get(user)?.bytes ?? (await stored());
    if (used >= quotaBytes) throw new UploadLimitError(413, limitMessages.quotaTitle, limitMessages.quotaFull(quotaBytes));
  }

  /**
   * Reserves `bytes` of `user`'s quota (what the body's length promises of files; 0 when unknown), or
   * throws 413 when their recorded files (`stored`), the uploads of theirs under way and these would
   * exceed it (`sent`: the body's length, for the message). While the body arrives the reservation may
   * grow past the quota by `slack` bytes (the body's framing, which `bytes` left out): the files' exact
   * size is judged at `settle`, so a refusal names it.
   */
  async reserve(user: string, bytes: number, stored: () => Promise<number>, { sent = bytes, slack = 0 } = {}): Promise<Reservation> {
    return this.inTurn(user, async () => {
      const { quotaBytes } = this.limits;
      const usage = this.usage.get(user) ?? { bytes: await stored(), pending: 0 };
      if (usage.bytes + bytes > quotaBytes) throw this.refusal(quotaBytes - usage.bytes, sent, limitMessages.quotaBody);
      usage.bytes += bytes;
      usage.pending++;
      this.usage.set(user, usage);
      let held = bytes;
      let received = 0;
      let freed = false;
      return {
        receiving: (more) => {
          received += more;
          if (received <= held) return;
          if (usage.bytes + (received - held) > quotaBytes + slack)
            throw this.refusal(quotaBytes - (usage.bytes - held), received, limitMessages.quotaOver);
          usage.bytes += received - held;
          held = received;
        },
        settle: (exact) => {
          const others = usage.bytes - held;
          if (others + exact > quotaBytes) throw this.refusal(quotaBytes - others, exact, limitMessages.quotaShort);
          usage.bytes = others + exact;
          held = exact;
        },
        release: (kept) => {
          if (freed) return;
          freed = true;
          if (!kept) usage.bytes -= held;
          if (--usage.pending === 0 && this.usage.get(user) === usage) this.usage.delete(user);
        },
      };
    });
  }

  /** The 413 for `needed` bytes when `left` are left of the quota (none left: the quota is used up). */
  private refusal(left: number, needed: number, short: (needed: number, left: number, quota: number) => string) {
    const { quotaBytes } = this.limits;
    const room = Math.max(0, left);
    return new UploadLimitError(413, limitMessages.quotaTitle, room === 0 ? limitMessages.quotaFull(quotaBytes) : short(needed, room, quotaBytes));
  }

  /** Runs `step` after `user`'s earlier steps have finished (one at a time per user). */
  private inTurn<T>(user: string, step: () => Promise<T>): Promise<T> {
    const before = this.queues.get(user) ?? Promise.resolve();
    const run = before.then(step);
    const tail = run.catch(() => {});
    this.queues.set(user, tail);
    // The queue is forgotten once it is empty, so users who stopped uploading take no memory.
    void tail.then(() => {
      if (this.queues.get(user) === tail) this.queues.delete(user);
    });
    return run;
  }
}
