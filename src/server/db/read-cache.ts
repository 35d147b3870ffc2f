/**
 * Answers of reads, kept until a write touches a table they were read from. Every table has a
 * generation that each write through the generated routes moves on; an entry remembers the generations
 * of the tables it read and is valid while they are unchanged. Where other server nodes write too (a
 * shared PostgreSQL), an entry is trusted only for `ttlMs` besides.
 *
 * Only reads whose answer is the same for everyone allowed to make them may be cached: a read scoped to
 * its caller (ownership) must put the caller in its key.
 */
export class ReadCache {
  private readonly entries = new Map<string, { value: unknown; at: number; generations: number[] }>();
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly ttlMs = Number.POSITIVE_INFINITY,
    private readonly maxEntries = 5_000,
  ) {}

  private generationsOf(tables: readonly string[]) {
    return tables.map((t) => this.generations.get(t) ?? 0);
  }

  async get<T>(key: string, tables: readonly string[], compute: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    const now = Date.now();
    if (hit && now - hit.at < this.ttlMs && this.generationsOf(tables).every((g, i) => g === hit.generations[i]))
      return hit.value as T;
    const before = this.generationsOf(tables);
    const value = await compute();
    // A write that landed while we read makes this answer stale: give it, but do not keep it.
    if (this.generationsOf(tables).every((g, i) => g === before[i])) {
      this.entries.delete(key);
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { value, at: now, generations: before });
    }
    return value;
  }

  /** A write changed `table`: every answer read from it is stale. */
  invalidate(table: string) {
    this.generations.set(table, (this.generations.get(table) ?? 0) + 1);
  }
}
