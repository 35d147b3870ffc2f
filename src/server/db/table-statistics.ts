/**
 * PostgreSQL: a table written in bulk is analysed soon after, so the planner's estimates (a large list's
 * total: count.ts) describe what it holds now.
 *
 * Why: the planner estimates a filtered list's rows from the statistics of the table's last ANALYZE.
 * Autovacuum analyses a table once a tenth of it has changed, but only on its next round (a minute
 * apart by default), and after thousands of rows written in one go the estimate of a list filtered by
 * a value the last ANALYZE never saw was a handful of rows: an admin was told "about 1,001" of 10,050
 * (issue 50 part 10).
 *
 * How: told of every table this node writes, after the write's commit (ReadCache's `written`, app.ts),
 * never inside it. A table's writes are looked at together, DEBOUNCE_MS after the first: one catalogue
 * read compares the pages the table has now with those its last ANALYZE saw, and a table grown by more
 * than a tenth (and GROWN_PAGES pages) since is analysed then, on the pool, one table at a time. Pages,
 * not rows: they are known at once, where PostgreSQL's counts of changed rows reach its statistics views
 * up to a second or more after the write, and the check is the same whichever way the rows came (one
 * transaction of thousands, or thousands of requests).
 */
import { CompiledQuery } from 'kysely';
import type { Db } from './types.ts';
import { takeFirst } from './taken-rows.ts';

/** How long after a table's first write its writes are looked at, together. */
export const DEBOUNCE_MS = 200;
/** The least growth, in pages (8 kB), that makes a table analysed: a small table's estimates are not used (count.ts counts it). */
export const GROWN_PAGES = 64;

export class TableStatistics {
  private readonly waiting = new Map<string, NodeJS.Timeout>();
  /** The check or ANALYZE running, one at a time, so bulk writes to many tables never hold many connections. */
  private running: Promise<void> = Promise.resolve();
  private closed = false;
  /** Tables analysed, for tests and logs. */
  readonly analysed: string[] = [];

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** `table` was written (committed): looked at shortly. */
  written(table: string) {
    if (this.closed || this.waiting.has(table)) return;
    const timer = setTimeout(() => {
      this.waiting.delete(table);
      this.running = this.running.then(() => this.check(table)).catch(this.onError);
    }, DEBOUNCE_MS);
    timer.unref();
    this.waiting.set(table, timer);
  }

  /** Settles when every table written so far has been looked at (and analysed if it grew). */
  async settled(): Promise<void> {
    while (this.waiting.size) await new Promise((r) => setTimeout(r, DEBOUNCE_MS));
    await this.running;
  }

  /** Stops looking (the server closes); a check under way ends on its own. */
  async close() {
    this.closed = true;
    for (const timer of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
    await this.running;
  }

  private async check(table: string) {
    if (this.closed) return;
    // The pages now (from the file's size, exact) against those the last ANALYZE or VACUUM counted.
    const { rows } = await this.db.executeQuery<{ analysed: number; now: number }>(
      CompiledQuery.raw(
        `select relpages::int as "analysed", (pg_relation_size(oid) / current_setting('block_size')::int)::int as "now" from pg_class where oid = to_regclass($1)`,
        [quoteIdentifier(table)],
      ),
    );
    // Taken, as every read's rows are (taken-rows.ts).
    const pages = takeFirst(rows);
    if (!pages || this.closed) return;
    const grown = pages.now - Math.max(0, pages.analysed);
    if (grown < GROWN_PAGES || grown * 10 < pages.analysed) return;
    await this.db.executeQuery(CompiledQuery.raw(`analyze ${quoteIdentifier(table)}`));
    this.analysed.push(table);
  }
}

/** A table's name as PostgreSQL reads it quoted (the manifest's names are camelCase). */
const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;
