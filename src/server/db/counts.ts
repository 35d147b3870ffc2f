/**
 * Whole-table counts for unfiltered lists' `Content-Range`, kept between writes. Counting a table reads
 * all of it (or all of an index); this server's own writes invalidate the count, and on PostgreSQL,
 * where other server nodes write too, a count is trusted only for `ttlMs`.
 */
export class TableCounts {
  private readonly cached = new Map<string, { total: number; at: number }>();
  private readonly generation = new Map<string, number>();

  constructor(private readonly ttlMs = Number.POSITIVE_INFINITY) {}

  async get(table: string, compute: () => Promise<number>): Promise<number> {
    const hit = this.cached.get(table);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.total;
    const started = this.generation.get(table) ?? 0;
    const total = await compute();
    // A write that landed while we counted makes this count stale: answer it, but do not keep it.
    if ((this.generation.get(table) ?? 0) === started) this.cached.set(table, { total, at: Date.now() });
    return total;
  }

  invalidate(table: string) {
    this.cached.delete(table);
    this.generation.set(table, (this.generation.get(table) ?? 0) + 1);
  }
}
