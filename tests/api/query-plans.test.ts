/**
 * Every sort × filter combination a generated list screen offers is answered from an index: the page
 * query never scans a table or sorts in a temporary structure, and a filtered count is read from an
 * index. Checked on the engines' own plans (SQLite `EXPLAIN QUERY PLAN`, PostgreSQL `EXPLAIN`) over
 * tables large enough that a planner would rather scan if no index fitted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { registry } from '../../resources/index.ts';
import { listOptions, type ResourceDef } from '../../src/manifest/index.ts';
import { connect, dropSchema, type Database, type Engine } from '../../src/server/db/connect.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { listQueries } from '../../src/server/db/repository.ts';
import { recordByRowidOf, recordJsonOf } from '../../src/server/db/json-records.ts';
import { parseListQuery } from '../../src/server/db/list-query.ts';
import { columnsOf, unservedFilters } from '../../src/server/db/tables.ts';
import { boundedCount } from '../../src/server/db/count.ts';
import { newId } from '../../src/server/db/id.ts';
import { keptHashIndexOf } from '../../src/server/db/postgres/pg-stored-records.ts';
import { storedRecordsOf } from '../../src/server/db/sql-names.ts';
import { engines } from '../support/server.ts';
import { settle } from '../../scripts/bench/seed.ts';

/**
 * Rows in each table: enough that a page, a filter or a count with no index to read would be planned as
 * a scan (the products list with its name indexes dropped fails on both engines at this size). 10,000
 * took 68 s of the suite's two cores, 4,000 takes 33 s, and every plan check passes at both sizes.
 */
const ROWS = 4_000;
/** Search needles: a word in a fifth of the rows' texts, and a number in none (each text ends in its row's number, below ROWS). */
const COMMON = 'echo';
const RARE = '12345';
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
const listed = registry.resources.filter((r) => r.reads.list?.kind === 'list');

/** Parents before children, so every reference can point at a real row. */
function inDependencyOrder(resources: readonly ResourceDef[]): ResourceDef[] {
  const out: ResourceDef[] = [];
  const visit = (r: ResourceDef) => {
    if (out.includes(r)) return;
    // A reference to its own table (a seller's dealer, `users.dealerId`) points back at rows made before it.
    for (const f of r.fields) if (f.kind === 'reference' && f.reference !== r.name) visit(registry.resource(f.reference!));
    out.push(r);
  };
  resources.forEach(visit);
  return out;
}

const START = Date.parse('2024-01-01T00:00:00.000Z');
/** The timestamps of the `i`th row of a table: a minute apart. */
const stampOf = (i: number) => new Date(START + i * 60_000).toISOString();

async function fill(database: Database) {
  const ids = new Map<string, string[]>();
  for (const r of inDependencyOrder(listed)) {
    const made: string[] = [];
    for (let start = 0; start < ROWS; start += 1000) {
      const batch = [];
      for (let i = start; i < start + 1000; i++) {
        // A row a minute, as records made over two weeks: a date range selects a slice of them.
        const stamp = stampOf(i);
        const row: Record<string, unknown> = { id: newId(), createdAt: stamp, updatedAt: stamp };
        for (const c of columnsOf(r)) {
          const f = c.field;
          if (!f) continue;
          if (f.kind === 'reference' && f.reference === r.name) {
            row[c.name] = i ? made[i % Math.min(i, 200)] : null;
          } else if (f.kind === 'reference') {
            const parents = ids.get(f.reference!)!;
            // A unique reference (one profile per account) takes each parent once; so does the reference a
            // `single` holding always pairs with the owner (one application per job and person).
            const pairedOnce = !!r.single && !Object.keys(r.single.while).length && r.single.field === f.name;
            row[c.name] = f.unique || pairedOnce ? parents[i] : parents[i % Math.min(parents.length, 200)];
          } else if (f.kind === 'select') row[c.name] = f.options![i % f.options!.length];
          else if (c.storage !== 'text' || f.sortAs === 'number') row[c.name] = c.storage === 'text' ? String(i) : i;
          else row[c.name] = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${i}`;
        }
        made.push(row.id as string);
        batch.push(row);
      }
      await database.db.insertInto(r.name).values(batch).execute();
    }
    ids.set(r.name, made);
  }
  // The statistics the bench measures with (seed.ts `settle`): PostgreSQL vacuumed as autovacuum would
  // leave it (index-only scans need the visibility map); SQLite analysed without STAT4 samples.
  await settle(database);
  return ids;
}

async function plan(database: Database, query: { compile(): CompiledQuery }): Promise<string[]> {
  const { sql, parameters } = query.compile();
  const prefix = database.engine === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN ';
  const result = await database.db.executeQuery<Record<string, string>>(CompiledQuery.raw(prefix + sql, [...parameters]));
  return result.rows.map((row) => String(database.engine === 'sqlite' ? row.detail : row['QUERY PLAN']));
}

/** A PostgreSQL sort of more rows than a page's worth of matches is a sort of the table, not of a few matches. */
const PG_SMALL_SORT = 1000;

/**
 * Plan lines that read a whole table or sort outside an index. SQLite: `SCAN t` without an index, or
 * any temporary B-tree. PostgreSQL: a `Seq Scan`, or a `Sort` the planner expects to be fed more than
 * PG_SMALL_SORT rows (a top-N sort of a parent's hundred children, found by index, is cheaper than any
 * ordered index walk, and the planner rightly prefers it).
 *
 * A date range sorted by another field is the one case no index can serve whole: SQLite then seeks the
 * range in its `(range, id)` or `(filter, range, id)` index and sorts only the rows found, as PostgreSQL
 * does under PG_SMALL_SORT; that sort is allowed when the plan searched the index by both ends of the
 * range (`createdAt>? AND createdAt<?`). Sorted by the range's own field, the index gives the order too.
 */
function badPageLines(engine: Engine, lines: string[], range?: { field: string; sort: string }, searched = false, sought: string[] = []): string[] {
  const seeksRange = (!!range && range.sort !== range.field && lines.some((l) => l.includes(`${range.field}>?`) && l.includes(`${range.field}<?`)))
    // A filter no index holds in the sort's order (tables.ts `unservedFilters`), sought in its own index: only its rows are sorted.
    || sought.some((f) => lines.some((l) => /^SEARCH \w+ USING (COVERING )?INDEX/.test(l.trim()) && l.includes(`(${f}=?`)));
  // A search's matches come from the search index in its own order; sorting only them is allowed, as for a range.
  if (searched && engine === 'sqlite' && lines.some((l) => /VIRTUAL TABLE INDEX/.test(l)))
    return lines.filter((l) => /^SCAN \w+$/.test(l.trim()));
  if (engine === 'sqlite') return lines.filter((l) => /^SCAN \w+$/.test(l.trim()) || (/TEMP B-TREE/.test(l) && !seeksRange));
  return lines.filter((l) => {
    if (/Seq Scan on/.test(l)) return true;
    const sort = /\bSort\s+\(cost=[\d.]+\.\.[\d.]+ rows=(\d+)/.exec(l);
    return !!sort && Number(sort[1]) > PG_SMALL_SORT;
  });
}

/**
 * Whether a plan reads the table's search index: SQLite's FTS5 table (`<table>_search`, searched with
 * MATCH), PostgreSQL's trigram GIN index (`<table>_<field>_trgm`), by a bitmap or a plain index scan.
 */
function readsSearchIndex(engine: Engine, table: string, lines: string[]): boolean {
  if (engine === 'sqlite') return lines.some((l) => l.includes(`${table}_search VIRTUAL TABLE INDEX`));
  return lines.some((l) => /Index Scan on \S+_trgm\b/.test(l) && l.includes(`${table}_`));
}

/** Whether a PostgreSQL plan sorts only within runs of equal values of `sort` (an Incremental Sort presorted by it). */
function presortedBy(lines: string[], sort: string): boolean {
  return lines.some((l) => /Presorted Key: \S+\.\S+$/.test(l.trim()) && [`.${sort}`, `."${sort}"`].some((end) => l.trim().endsWith(end)));
}

function countReadsTable(engine: Engine, lines: string[]): boolean {
  return engine === 'sqlite' ? lines.some((l) => /^SCAN \w+$/.test(l.trim())) : lines.some((l) => /Seq Scan on/.test(l));
}

describe.each(engines)('list query plans (%s)', (engine) => {
  let database: Database;
  let ids: Map<string, string[]>;
  const schema = `plans_${process.pid}_${Date.now()}`;
  beforeAll(async () => {
    database = engine === 'postgres' ? await connect({ url: process.env.DATABASE_URL, schema }) : await connect({ file: ':memory:' });
    await migrate(database, registry);
    ids = await fill(database);
  }, 600_000);
  afterAll(async () => {
    await database?.close();
    if (engine === 'postgres') await dropSchema(process.env.DATABASE_URL!, schema);
  });

  for (const r of listed) {
    const options = listOptions(r, registry);
    it(`${r.name}: every sort, filter and search the list screen offers reads an index`, async () => {
      const filterValue = (field: string) => {
        const f = r.fields.find((x) => x.name === field)!;
        if (f.kind === 'boolean') return true;
        if (f.storage !== 'text') return 1;
        return f.kind === 'reference' ? ids.get(f.reference!)![0] : f.options?.[0] ?? 'alpha';
      };
      const filterSets: Record<string, unknown>[] = [
        {},
        ...options.filters.map((f) => ({ [f]: filterValue(f) })),
        // A search of a common word (a fifth of the rows) and of a rare one (one row), alone and beside each filter.
        ...(options.search.length
          ? [COMMON, RARE].flatMap((q) => [{ q }, ...options.filters.map((f) => ({ [f]: filterValue(f), q }))])
          : []),
        // A date range: a slice of a hundred rows, alone and beside each exact filter.
        ...options.ranges.flatMap((range) => {
          const slice = { [`${range}_gte`]: stampOf(ROWS / 2), [`${range}_lte`]: stampOf(ROWS / 2 + 99) };
          return [slice, ...options.filters.map((f) => ({ ...slice, [f]: filterValue(f) }))];
        }),
      ];
      const failures: string[] = [];
      let checked = 0;
      // The page as the list route runs it: each record written as JSON by the database (json-records.ts).
      const asJson = await recordJsonOf(database.db, r);
      expect(asJson).toBeDefined();
      for (const sort of options.sorts)
        for (const order of ['ASC', 'DESC'])
          for (const filter of filterSets) {
            const query = parseListQuery(r, {
              sort: JSON.stringify([sort, order]),
              range: JSON.stringify([50, 74]),
              filter: JSON.stringify(filter),
            });
            const { page, count, matched } = listQueries(database.db, r, query, undefined, undefined, 'index', asJson);
            const ranged = options.ranges.find((f) => `${f}_gte` in filter);
            const pageLines = await plan(database, page);
            // (A page that names only the sort's, the filters' and the id's columns, the kept record read by id
            // (json-records.ts `ownRowRecord`), may be read from a covering index that has the sort's field first
            // but not the id next, each run of equal sort values ordered by id: an Incremental Sort presorted by
            // the sort's field, as a walk may below.)
            const sought = unservedFilters(r, sort, query.equals);
            const pageBad = badPageLines(engine, pageLines, ranged ? { field: ranged, sort } : undefined, 'q' in filter, sought)
              .filter((l) => !(presortedBy(pageLines, sort) && /Incremental Sort/.test(l)));
            if (pageBad.length) failures.push(`page sort=${sort} ${order} filter=${JSON.stringify(filter)}: ${pageBad.join(' | ')}`);
            // PostgreSQL, records kept: a plain sorted page reads its ids from the sort's index alone, no row
            // fetched (a unique field's index holds that field alone, without the id; a field sorted by its
            // numeric value is read from an index of that value, which PostgreSQL cannot answer the column from).
            if (engine === 'postgres' && recordByRowidOf(asJson!) && !Object.keys(filter).length && !r.fields.some((f) => f.name === sort && (f.unique || f.sortAs === 'number'))
                && !pageLines.some((l) => /Index Only Scan (Backward )?using \S+ on/.test(l)))
              failures.push(`page sort=${sort} ${order} fetches rows: ${pageLines.join(' | ')}`);
            // and finds each kept record by its id's hash index (pg-stored-records.ts).
            if (engine === 'postgres' && recordByRowidOf(asJson!) && !pageLines.some((l) => l.includes(keptHashIndexOf(r.name))))
              failures.push(`page sort=${sort} ${order} filter=${JSON.stringify(filter)} reads its kept records otherwise: ${pageLines.join(' | ')}`);
            // SQLite, such a filter beside a sort whose index does not hold it, when the count says walking is
            // sooner (repository.ts): the sort's index walked, each row tested, nothing sorted after.
            if (engine === 'sqlite' && sought.length && !('q' in filter) && !ranged) {
              const walkLines = await plan(database, listQueries(database.db, r, query, undefined, undefined, 'scan', asJson).page);
              const bad = walkLines.filter((l) => (/^SCAN \w+$/.test(l.trim()) && l.trim() !== 'SCAN walked') || /TEMP B-TREE/.test(l));
              if (bad.length) failures.push(`walked page sort=${sort} ${order} filter=${JSON.stringify(filter)}: ${walkLines.join(' | ')}`);
            }
            // The count the server runs: PostgreSQL's stops after EXACT_COUNT_UP_TO + 1 rows (count.ts).
            const countLines = Object.keys(filter).length ? await plan(database, engine === 'postgres' ? boundedCount(database.db, matched) : count) : [];
            // PostgreSQL may count a common word's first EXACT_COUNT_UP_TO + 1 matches by reading rows until it has
            // them (a `Limit` over the scan: a fifth of the rows match, so it stops after about five thousand); a
            // rare word it must count from the trigram index (checked below).
            const boundedScan = engine === 'postgres' && filter.q === COMMON && countLines.some((l) => /^\s*->\s+Limit\b/.test(l));
            if (countLines.length && !boundedScan && countReadsTable(engine, countLines))
              failures.push(`count filter=${JSON.stringify(filter)} reads the whole table: ${countLines.join(' | ')}`);
            // A search finds its rows and its count through the search index (search.ts), not by testing every row.
            // PostgreSQL's planner rightly walks the sort's index for a common word (a page's worth of matches
            // comes soon) and a filter's index beside a filter; a rare word alone it must find by trigrams.
            if ('q' in filter && (engine === 'sqlite' || (filter.q === RARE && Object.keys(filter).length === 1))) {
              if (!readsSearchIndex(engine, r.name, pageLines)) failures.push(`page sort=${sort} ${order} filter=${JSON.stringify(filter)} does not read the search index: ${pageLines.join(' | ')}`);
              if (!readsSearchIndex(engine, r.name, countLines)) failures.push(`count filter=${JSON.stringify(filter)} does not read the search index: ${countLines.join(' | ')}`);
            }
            // SQLite reads a common word's page by walking the sort's index when that comes sooner (search.ts
            // `pageSearchBy`): the walk must be an index's (the one bare scan, of `walked`, reads the walk's own
            // page), each walked row read by its rowid (its kept record, and the row only where none is kept),
            // and nothing sorted after it: the walk's order is the page's.
            if (engine === 'sqlite' && filter.q === COMMON) {
              const walkLines = await plan(database, listQueries(database.db, r, query, undefined, undefined, 'scan', asJson).page);
              const bare = walkLines.filter((l) => /^SCAN \w+$/.test(l.trim()) && l.trim() !== 'SCAN walked');
              const sorts = walkLines.filter((l) => /TEMP B-TREE/.test(l));
              const byRowid = (table: string) => walkLines.some((l) => new RegExp(`^SEARCH ${table} USING INTEGER PRIMARY KEY \\(rowid=\\?\\)$`).test(l.trim()));
              const line = (table: string) => walkLines.findIndex((l) => l.trim() === `SEARCH ${table} USING INTEGER PRIMARY KEY (rowid=?)`);
              // Where its records are kept, the kept record is looked up first (the row only where none is).
              const keptFirst = !recordByRowidOf(asJson!) || (line(`${r.name}_records`) >= 0 && line(`${r.name}_records`) < line(r.name));
              if (bare.length || sorts.length || !byRowid(r.name) || !keptFirst)
                failures.push(`walked page sort=${sort} ${order} filter=${JSON.stringify(filter)}: ${walkLines.join(' | ')}`);
            }
            // PostgreSQL walks too, when the count says so (search.ts): the sort's index, not the trigram one,
            // each walked row read by its id, nothing sorted but the page; and where the sort's index holds
            // every searched field (no filter beside), the walk reads the index alone (no row fetched to be
            // tested), the lowered text included.
            if (engine === 'postgres' && filter.q === COMMON) {
              const walkLines = await plan(database, listQueries(database.db, r, query, undefined, undefined, 'scan', asJson).page);
              const quoted = (name: string) => (/^[a-z_]+$/.test(name) ? name : `"${name}"`);
              // (PostgreSQL may walk a covering index that has the sort's field first but not the id next, and
              // order each run of equal sort values by id: an Incremental Sort presorted by the sort's field.)
              const bad = badPageLines(engine, walkLines).filter((l) => !(presortedBy(walkLines, sort) && /Incremental Sort/.test(l)));
              const byIdLine = (table: string) => walkLines.findLastIndex((l) => l.includes(`Index Scan using ${quoted(`${table}_pkey`)} on ${quoted(table)}`));
              const byId = byIdLine(r.name) >= 0;
              // Where its records are kept (pg-stored-records.ts), the kept record is looked up by the id first, the
              // row (the last read by its id: a walk sorted by id walks that index too) only where none is.
              // (The kept records are found by their id's hash index: pg-stored-records.ts.)
              const keptLine = walkLines.findLastIndex((l) => l.includes(`Index Scan using ${quoted(keptHashIndexOf(r.name))} on ${quoted(storedRecordsOf(r.name))}`));
              const keptFirst = !recordByRowidOf(asJson!) || (keptLine >= 0 && keptLine < byIdLine(r.name));
              // (A unique field's index holds that field alone: the walk reads each row's id from the row.)
              const uniqueSort = r.fields.some((f) => f.name === sort && f.unique);
              const indexOnly = Object.keys(filter).length > 1 || uniqueSort || options.search.some((f) => f !== sort) || (walkLines.some((l) => /Index Only Scan (Backward )?using \S+ on/.test(l)) &&
                  // and the lowered text the test reads is the index's own (`IndexDef.lowered`), not lowered row by row
                  walkLines.some((l) => /Filter: .*strpos\(\(lower\(/.test(l)));
              if (bad.length || readsSearchIndex(engine, r.name, walkLines) || !byId || !keptFirst || !indexOnly)
                failures.push(`walked page sort=${sort} ${order} filter=${JSON.stringify(filter)}: ${walkLines.join(' | ')}`);
            }
            checked++;
          }
      expect(failures).toEqual([]);
      expect(checked).toBe(options.sorts.length * 2 * filterSets.length);
    });
  }
});
