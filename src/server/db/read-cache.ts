/**
 * Answers of reads, kept until a write touches a table they were read from. Every table has a
 * generation that each write through the generated routes moves on; an entry remembers the generations
 * of the tables it read and is valid while they are unchanged. Where other server nodes write too (a
 * shared PostgreSQL), an entry is trusted only for `ttlMs` besides, or `ttlWithPeersMs` while this node
 * hears their writes (src/server/cluster).
 *
 * Memory is bounded whatever clients ask: the kept answers weigh at most `maxBytes` (see `weigh`; the
 * slabs their bytes are kept in count whole, see `Slabs`), the least recently used going first; an
 * answer heavier than `maxEntryBytes` is given but not kept; stale and expired entries are dropped as
 * they are met, by a lookup or by a sweep that looks at a few entries on every lookup. Callers key
 * entries by the query they really run, never by the raw URL, so parameters the server ignores cannot
 * make new entries.
 *
 * Only reads whose answer is the same for everyone allowed to make them may be cached: a read scoped to
 * its caller (ownership) must put the caller in its key.
 */

/** 64 MiB: the default bound (`READ_CACHE_MB`). */
export const DEFAULT_READ_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * What one entry costs besides its key's characters and what `weigh` counts of its value: the Map's slot
 * (its table doubles as it grows), the entry object, its tables' and generations' arrays, the key's
 * string header. Measured (issue 50 part 7: a cache of 30,000 answers built in one process, collected,
 * Node 20): an answer `{ body, headers }` held 730-760 B on V8's heap besides its key's characters and
 * body's bytes, and about 100 B more outside it (the body's backing store); `weigh` counts some 430 B of
 * that (the objects, the Buffer and the header), this the rest, rounded up.
 */
export const ENTRY_OVERHEAD_BYTES = 512;

/** What a Buffer costs besides its bytes: its Uint8Array and ArrayBuffer objects, and the backing store's bookkeeping outside the heap. */
export const BUFFER_OVERHEAD_BYTES = 256;

/**
 * 1 MiB: the slabs kept answers' bytes are copied into (see `Slabs`); a bound under 16 MiB has slabs of a
 * sixteenth of it, so the one being filled is never much of the bound.
 */
export const SLAB_BYTES = 1024 * 1024;

/**
 * Free slabs kept when the bound needs room, to be filled again rather than let go and made anew (see
 * `Slabs`); they count against the bound, at most an eighth of it (a slab is at most a sixteenth of a
 * bound of 64 KiB or more).
 */
export const SPARE_SLABS = 2;

/**
 * 1 MiB: the bound of the kept lists' totals, whatever `READ_CACHE_MB` says (a few thousand: a total is a
 * number under a key of a few hundred characters).
 */
export const TOTALS_MAX_BYTES = 1024 * 1024;

/** How many entries each lookup checks for staleness or expiry, so dead entries do not wait for eviction. */
const SWEEP_STEP = 2;

export interface ReadCacheOptions {
  /** How long an answer is trusted at all (other nodes may write a shared PostgreSQL); default forever. */
  ttlMs?: number;
  /**
   * How long while this node hears the other nodes' writes (`connectPeers`, and `listening()`): each of
   * their writes is told here and acknowledged before its answer (src/server/cluster), and the cache
   * forgets everything when it hears again after a gap, so the time to live is left to guard only
   * against writes made outside every node (by hand, in psql). Default `ttlMs`.
   */
  ttlWithPeersMs?: number;
  /** The most the kept answers may weigh together, in bytes as `weigh` counts them; 0 keeps nothing. */
  maxBytes?: number;
  /** The heaviest single answer kept; default an eighth of `maxBytes`, so one answer cannot flush the rest. */
  maxEntryBytes?: number;
  /** The clock (tests move it by hand). */
  now?: () => number;
  /**
   * Tables every write also writes, in the same transaction (the audit log: app.ts): a write to any other
   * table makes their answers stale too.
   */
  writtenByEveryWrite?: readonly string[];
  /** Told of every table this node writes, after the write (PostgreSQL's statistics: db/table-statistics.ts). */
  written?: (table: string) => void;
}

interface Entry {
  value: unknown;
  at: number;
  tables: readonly string[];
  generations: number[];
  bytes: number;
  /** The slab its bytes were copied into, and how many (see `Slabs`). */
  slab?: Slab;
  slabbed?: number;
}

/**
 * The bytes a kept value holds: two a character for strings (V8 stores a string in one or two bytes a
 * character: counting two is an upper bound and costs nothing, where `Buffer.byteLength` would scan
 * it), 8 for other primitives, BUFFER_OVERHEAD_BYTES plus its length for a Buffer (a list page's bytes), 16 plus keys and
 * members for objects and arrays. Values are plain data (the serialized answers and their headers),
 * never cyclic.
 */
export function weigh(value: unknown): number {
  if (typeof value === 'string') return 2 * value.length;
  if (value === null || typeof value !== 'object') return 8;
  if (Buffer.isBuffer(value)) return BUFFER_OVERHEAD_BYTES + value.length;
  let bytes = 16;
  if (Array.isArray(value)) for (const item of value) bytes += weigh(item);
  else for (const key in value) bytes += 2 * key.length + weigh((value as Record<string, unknown>)[key]);
  return bytes;
}

/** Whether two lists of tables' generations (a value's, taken when it was begun, and now) are the same. */
const sameGenerations = (a: readonly number[], b: readonly number[]) => a.every((g, i) => g === b[i]);

/**
 * The other server nodes, when there are any (src/server/cluster): told of every write here, and able
 * to say whether this node hears theirs. While it cannot, nothing is served from or kept in the cache.
 */
export interface ReadCachePeers {
  /** Tell the other nodes that `table` was written; settles once they have dropped its answers (or gave up waiting). */
  publish(table: string): Promise<void>;
  /** Whether this node is hearing the other nodes' writes now. */
  listening(): boolean;
}

interface Slab {
  bytes: Buffer;
  /** Where the next copy goes. */
  used: number;
  /** The bytes of kept entries in it; at 0 (and not the slab being filled) it is free, to be filled again. */
  live: number;
}

/**
 * Where kept Buffers' bytes live: copied, when kept, into slabs of one size, filled in turn. A slab whose
 * last entry is dropped is not let go but filled again; it is let go only when the bound needs its room
 * for something else (`Kept.keep`), or when the cache is emptied. Every slab counts against the bound,
 * whole: what it holds besides kept bytes (the unfilled rest, the bytes of entries dropped) and the free
 * ones too.
 *
 * Why copies: a small Buffer made from text (PostgreSQL's page, `Buffer.from`) is a slice of Node's shared
 * 8 KiB pool, and kept it held the whole slab alive: a 300-byte answer cost 1,024 bytes of memory, a
 * 2,000-byte one 2,731 (measured, 30,000 answers). Kept as they came, the answers' bytes were blocks of
 * every size among the requests' short-lived ones, freed in another order than made.
 *
 * Why slabs are filled again rather than let go (issue 50 part 7): glibc's malloc serves a block of
 * 128 KiB or more with a mapping of its own, returned to the system when freed, until such a block is
 * freed: then it raises that threshold to the freed block's size, and the next slabs came from the
 * process's heap, between the requests' small blocks. Slabs freed there left holes the small blocks
 * split, so the next slab went on the heap's end, and its pages stayed resident: under an 8 MiB bound,
 * 20-record pages (42 kB) grew a SQLite server's heap by 15 MiB for 6 MiB of slabs, 16-20 MiB more than
 * the same reads uncached. Slabs never freed never raise the threshold, nor leave holes.
 * (tests/unit/read-cache.test.ts counts the slabs; docs/performance.md, "Read cache: what an entry costs".) A Buffer
 * over a quarter of a slab gets an allocation of its own (copied only when it is a view of a larger one).
 */
class Slabs {
  private current: Slab | undefined;
  /** Slabs no kept entry is in, to be filled again before any new one is made. */
  private readonly free: Slab[] = [];
  /** Bytes of every slab not let go (the free ones too), and of the kept entries in them. */
  allocated = 0;
  live = 0;

  constructor(readonly size: number) {}

  /** Whether `length` bytes go to a slab (not to an allocation of their own). */
  takes(length: number) {
    return length <= this.size / 4;
  }

  /** Whether `length` bytes fit in the slab being filled (else `place` takes a free slab, or makes one). */
  fits(length: number) {
    return this.current !== undefined && this.current.used + length <= this.size;
  }

  /** How many slabs are free. */
  get spare() {
    return this.free.length;
  }

  /** Whether `slab` is the one being filled (a kept entry elsewhere is moved here when used). */
  isCurrent(slab: Slab) {
    return slab === this.current;
  }

  /** A copy of `bytes` (which `takes`) in the slab being filled, or, when it is full, in a free slab or a new one. */
  place(bytes: Buffer): { copy: Buffer; slab: Slab } {
    const length = bytes.length;
    let slab = this.current;
    if (!slab || slab.used + length > this.size) {
      if (slab && !slab.live) this.free.push(slab);
      slab = this.free.pop();
      if (slab) slab.used = 0;
      else {
        slab = { bytes: Buffer.allocUnsafeSlow(this.size), used: 0, live: 0 };
        this.allocated += this.size;
      }
      this.current = slab;
    }
    const copy = slab.bytes.subarray(slab.used, slab.used + length);
    bytes.copy(copy);
    // Eight-byte aligned, as allocators keep them.
    slab.used += (length + 7) & ~7;
    slab.live += length;
    this.live += length;
    return { copy, slab };
  }

  release(slab: Slab, length: number) {
    slab.live -= length;
    this.live -= length;
    if (!slab.live && slab !== this.current) this.free.push(slab);
  }

  /** Lets one free slab go (the bound needs its room). */
  letGo() {
    if (this.free.pop()) this.allocated -= this.size;
  }

  clear() {
    this.current = undefined;
    this.free.length = 0;
    this.allocated = this.live = 0;
  }
}

/** The kept value's Buffer: the value itself, or one of its properties (an answer's body). */
function bufferOf(value: unknown): { buffer: Buffer; property?: string } | undefined {
  if (Buffer.isBuffer(value)) return { buffer: value };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  for (const property in value) {
    const member = (value as Record<string, unknown>)[property];
    if (Buffer.isBuffer(member)) return { buffer: member, property };
  }
  return undefined;
}

/** `value` with its Buffer (`bufferOf`) replaced by `buffer`: a new object, the caller's left as it is. */
const withBuffer = (value: unknown, buffer: Buffer, property: string | undefined) =>
  property === undefined ? buffer : { ...(value as Record<string, unknown>), [property]: buffer };

/**
 * Entries kept in order of use under a byte bound: the first is the least recently used, and goes
 * first when the bound is passed. Whether an entry may still be used is the caller's to say (`valid`).
 */
class Kept {
  readonly entries = new Map<string, Entry>();
  /**
   * What is being worked out now, under its key, with the generations of its tables when it began: a
   * lookup that misses while the same value is being worked out from the same state shares it rather
   * than asking the database again. Why: on PostgreSQL every kept value expires after a second, and a
   * search's total then expired under 50 requests at once, each counting (a bounded count and an
   * `EXPLAIN`): 259 counts in 6 s of 8,300 pages, where one a second is enough.
   */
  readonly computing = new Map<string, { value: Promise<unknown>; generations: number[] }>();
  /** What the kept entries weigh (`keep`), their bytes in slabs included. */
  private weighed = 0;
  private readonly slabs: Slabs;
  /** Where the sweep goes on from; a Map's iterator sees entries added and moved after it started. */
  private cursor: Iterator<[string, Entry]> | undefined;

  constructor(
    readonly maxBytes: number,
    private readonly maxEntryBytes: number,
  ) {
    this.slabs = new Slabs(Math.max(4096, Math.min(SLAB_BYTES, Math.floor(maxBytes / 16))));
  }

  /** What the kept entries cost: what they weigh besides their bytes in slabs, and every slab, whole. */
  get held() {
    return this.weighed - this.slabs.live + this.slabs.allocated;
  }

  /** The entry under `key` if `valid` says it may be used (most recently used now), else undefined (and dropped). */
  use(key: string, valid: (entry: Entry) => boolean): Entry | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (!valid(hit)) {
      this.drop(key, hit);
      return undefined;
    }
    // Most recently used now: to the end of the order, its bytes to the slab being filled, so the
    // oldest slabs hold only the least recently used entries, which go first.
    this.entries.delete(key);
    this.entries.set(key, hit);
    if (hit.slab && !this.slabs.isCurrent(hit.slab)) this.place(hit);
    return hit;
  }

  drop(key: string, entry: Entry) {
    this.entries.delete(key);
    this.weighed -= entry.bytes;
    if (entry.slab) this.slabs.release(entry.slab, entry.slabbed!);
  }

  /** Copies the entry's Buffer into the slab being filled (or, too large, into memory of its own when it is a view of more). */
  private place(entry: Entry) {
    const found = bufferOf(entry.value);
    if (!found) return;
    const { buffer, property } = found;
    if (this.slabs.takes(buffer.length)) {
      if (!this.slabs.fits(buffer.length)) this.roomForSlab(entry);
      const placed = this.slabs.place(buffer);
      if (entry.slab) this.slabs.release(entry.slab, entry.slabbed!);
      entry.slab = placed.slab;
      entry.slabbed = buffer.length;
      entry.value = withBuffer(entry.value, placed.copy, property);
      return;
    }
    if (entry.slab) this.slabs.release(entry.slab, entry.slabbed!);
    entry.slab = entry.slabbed = undefined;
    if (buffer.byteLength < buffer.buffer.byteLength) {
      const own = Buffer.allocUnsafeSlow(buffer.length);
      buffer.copy(own);
      entry.value = withBuffer(entry.value, own, property);
    }
  }

  /**
   * Before a new slab is made: drops the least recently used entries until one is free to fill again,
   * or a new one fits under the bound. Stops at `placing`, the entry that needs the room.
   */
  private roomForSlab(placing: Entry) {
    for (const [oldest, e] of this.entries) {
      if (this.slabs.spare || this.held + this.slabs.size <= this.maxBytes || e === placing) break;
      this.drop(oldest, e);
    }
  }

  /** Looks at the next few entries and drops those no lookup could use any more. */
  sweep(valid: (entry: Entry) => boolean) {
    for (let i = 0; i < SWEEP_STEP && this.entries.size; i++) {
      this.cursor ??= this.entries.entries();
      const next = this.cursor.next();
      if (next.done) {
        this.cursor = undefined;
        continue;
      }
      const [key, entry] = next.value;
      if (!valid(entry)) this.drop(key, entry);
    }
  }

  keep(key: string, entry: Entry) {
    entry.bytes = ENTRY_OVERHEAD_BYTES + 2 * key.length + weigh(entry.value);
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    if (entry.bytes > this.maxEntryBytes) return;
    this.place(entry);
    this.entries.set(key, entry);
    this.weighed += entry.bytes;
    // Over the bound: free slabs beyond SPARE_SLABS go first (entries' own weight grew: many small
    // answers after large ones), then the least recently used entries. The spare ones stay, to be filled
    // again: dropping the oldest entries frees a slab now and then, and were it let go at once, the next
    // would be made anew (a churn of 1,500 small answers a slab, measured), which is what slabs avoid.
    for (const [oldest, e] of this.entries) {
      while (this.held > this.maxBytes && this.slabs.spare > SPARE_SLABS) this.slabs.letGo();
      if (this.held <= this.maxBytes) break;
      this.drop(oldest, e);
    }
    while (this.held > this.maxBytes && this.slabs.spare) this.slabs.letGo();
  }

  clear() {
    this.entries.clear();
    this.computing.clear();
    this.slabs.clear();
    this.weighed = 0;
  }
}

export class ReadCache {
  /** The answers, under the bound the server is given (`READ_CACHE_MB`). */
  private readonly answers: Kept;
  /** Lists' totals (see `total`): a number each, under a bound of their own. */
  private readonly totals = new Kept(TOTALS_MAX_BYTES, TOTALS_MAX_BYTES / 8);
  private readonly generations = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly ttlWithPeersMs: number;
  private readonly now: () => number;
  private readonly writtenByEveryWrite: readonly string[];
  private readonly written: ((table: string) => void) | undefined;
  private peers: ReadCachePeers | undefined;
  /** Tellings of this node's writes to the other nodes not yet settled (see `published`). */
  private readonly publishing = new Set<Promise<void>>();

  constructor({ ttlMs = Number.POSITIVE_INFINITY, ttlWithPeersMs = ttlMs, maxBytes = DEFAULT_READ_CACHE_BYTES, maxEntryBytes, now = Date.now, writtenByEveryWrite = [], written }: ReadCacheOptions = {}) {
    this.ttlMs = ttlMs;
    this.ttlWithPeersMs = ttlWithPeersMs;
    this.written = written;
    this.writtenByEveryWrite = writtenByEveryWrite;
    const bound = Math.max(0, maxBytes);
    this.answers = new Kept(bound, Math.min(bound, maxEntryBytes ?? Math.floor(bound / 8)));
    this.now = now;
  }

  /** How many answers are kept. */
  get size() {
    return this.answers.entries.size;
  }

  /** What the kept answers weigh, keys and overhead included (see `weigh`); never above `maxBytes`. */
  get bytes() {
    return this.answers.held;
  }

  /** How many lists' totals are kept, and what they weigh (never above TOTALS_MAX_BYTES). */
  get totalsKept() {
    return { count: this.totals.entries.size, bytes: this.totals.held };
  }

  private generationsOf(tables: readonly string[]) {
    return tables.map((t) => this.generations.get(t) ?? 0);
  }

  private valid(entry: Entry, now: number) {
    // (`lookup` serves nothing while peers are connected but not heard: here they are heard, or there are none.)
    if (now - entry.at >= (this.peers ? this.ttlWithPeersMs : this.ttlMs)) return false;
    const { tables, generations } = entry;
    for (let i = 0; i < tables.length; i++) if ((this.generations.get(tables[i]) ?? 0) !== generations[i]) return false;
    return true;
  }

  /**
   * The answer kept under `key` while none of `tables` was written (and within the time to live), else
   * what `compute` answers, kept for next time. `tables` must be the same for a key every time.
   */
  get<T>(key: string, tables: readonly string[], compute: () => Promise<T>): Promise<T> {
    return this.lookup(this.answers, key, tables, compute);
  }

  /**
   * A list's total (its rows on every page, whichever page is asked), kept under `key` (the query that
   * counts, as run) while none of `tables` is written, like an answer, but even when answers are not kept
   * (`READ_CACHE_MB=0`): a total is one number, and counting is often the dearer half of a page. On
   * PostgreSQL a total above count.ts's bound is a bounded count and the planner's estimate, two round
   * trips; a search's count on SQLite reads every match from the trigram index (1,394 of 50,000 rows: 0.3 ms
   * alone, about 0.8 ms under the bench's load), where the page after it stops at its 25th row.
   */
  total<T>(key: string, tables: readonly string[], compute: () => Promise<T>): Promise<T> {
    return this.lookup(this.totals, key, tables, compute);
  }

  /**
   * Whether an entry may be used at `now`: made here, not as a named arrow in `lookup`, which runs on every
   * list read (README, Performance: under tsx each named closure costs a naming call, about 0.3 µs).
   */
  private validAt(now: number): (entry: Entry) => boolean {
    return (entry) => this.valid(entry, now);
  }

  private async lookup<T>(kept: Kept, key: string, tables: readonly string[], compute: () => Promise<T>): Promise<T> {
    // Deaf to the other nodes' writes (Redis away): any kept value may be stale, so none is used.
    if (this.peers && !this.peers.listening()) return compute();
    if (!kept.maxBytes) return compute();
    const now = this.now();
    const valid = this.validAt(now);
    kept.sweep(valid);
    const hit = kept.use(key, valid);
    if (hit) return hit.value as T;
    const before = this.generationsOf(tables);
    // Being worked out from this very state (no write to its tables since it began): shared.
    const working = kept.computing.get(key);
    if (working && sameGenerations(working.generations, before)) return working.value as Promise<T>;
    const computing = { value: compute() as Promise<unknown>, generations: before };
    kept.computing.set(key, computing);
    try {
      const value = (await computing.value) as T;
      // A write that landed while we read makes this value stale: give it, but do not keep it.
      if (sameGenerations(this.generationsOf(tables), before)) kept.keep(key, { value, at: now, tables, generations: before, bytes: 0 });
      return value;
    } finally {
      if (kept.computing.get(key) === computing) kept.computing.delete(key);
    }
  }

  /** A write changed `table`: every answer read from it is stale, here and (with peers) on the other nodes. */
  invalidate(table: string) {
    this.invalidateHere(table);
    this.written?.(table);
    if (!this.peers) return;
    const telling = this.peers.publish(table).catch(() => undefined);
    this.publishing.add(telling);
    void telling.finally(() => this.publishing.delete(telling));
  }

  /** Another node wrote `table`: drops this node's answers read from it, telling nobody. */
  invalidateHere(table: string) {
    this.bump(table);
    for (const also of this.writtenByEveryWrite) if (also !== table) this.bump(also);
  }

  private bump(table: string) {
    this.generations.set(table, (this.generations.get(table) ?? 0) + 1);
  }

  /** Every table written anywhere (this node missed the others' writes for a while). */
  invalidateAll() {
    for (const table of this.generations.keys()) this.invalidateHere(table);
    this.answers.clear();
    this.totals.clear();
  }

  /** Connects the other nodes (src/server/cluster). */
  connectPeers(peers: ReadCachePeers | undefined) {
    this.peers = peers;
  }

  /**
   * Settles when every telling of a write begun before now has: a write's answer waits for it
   * (src/server/cluster), so whoever got the answer finds the write on any node next.
   */
  async published(): Promise<void> {
    if (this.publishing.size) await Promise.all(this.publishing);
  }
}
