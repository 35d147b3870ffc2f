/**
 * A list page's bounds as the server writes them (`pagedAs`, repository.ts). A plain list (nothing bound
 * but a keyset's row): its size in the SQL text and no offset on a first page or a keyset page, so
 * PostgreSQL keeps one plan for it (tests/api/pg-statements shows the plans kept); a page further on keeps
 * its offset a parameter, so every such page is one text. A filtered, searched or narrowed list binds
 * both on PostgreSQL, so it plans each page for its values (a search walked in sort order, whose walk is
 * costed alike for every needle, has its size in the text); on SQLite its size is in the text too (a bound
 * LIMIT makes SQLite prepare the statement again on every run). Compiled only, for both engines' dialects.
 */
import { describe, expect, it } from 'vitest';
import { DummyDriver, Kysely, type SelectQueryBuilder, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { registry } from '../../resources/index.ts';
import { listQueries, pagedAs } from '../../src/server/db/repository.ts';
import { parseListQuery } from '../../src/server/db/list-query.ts';

const dialects = {
  postgres: { createAdapter: () => new PostgresAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (db: Kysely<any>) => new PostgresIntrospector(db), createQueryCompiler: () => new PostgresQueryCompiler() },
  sqlite: { createAdapter: () => new SqliteAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (db: Kysely<any>) => new SqliteIntrospector(db), createQueryCompiler: () => new SqliteQueryCompiler() },
};

describe.each(Object.keys(dialects) as (keyof typeof dialects)[])('page bounds (%s)', (engine) => {
  const db = new Kysely<any>({ dialect: dialects[engine] });
  const r = registry.resource('topCategories');
  const page = (query: Record<string, unknown>) => listQueries(db, r, parseListQuery(r, { sort: '["name","ASC"]', ...query }, { paging: 'range' })).page.compile();

  it('a plain list: a first page has its size in the text and no offset; a page further on binds its offset', () => {
    const first = page({ range: '[0,24]' });
    expect(first.sql).toMatch(/ limit 25$/);
    expect(first.parameters).toEqual([]);
    const later = page({ range: '[50,74]' });
    expect(later.sql).toMatch(/ limit 25 offset (\$1|\?)$/);
    expect(later.parameters).toEqual([50]);
    expect(page({ range: '[75,99]' }).sql).toBe(later.sql);
  });

  it('a plain list: a keyset page (after a row) has no offset, whatever its range says', () => {
    const keyset = page({ range: '[900,924]', after: JSON.stringify(['Glass', 'x'.repeat(24)]) });
    expect(keyset.sql).toMatch(/ limit 25$/);
    expect(keyset.parameters).toEqual(['Glass', 'x'.repeat(24)]);
  });

  it('a filtered, searched or narrowed list binds its bounds on PostgreSQL (a walked search only its offset), and on SQLite only its offset', () => {
    const sqlite = engine === 'sqlite';
    const bounds = (size: number, offset: number) => (sqlite ? (offset ? [offset] : []) : [size, offset]);
    const bound = sqlite ? / limit (10|25)( offset \?)?(\)|$)/ : / limit \$\d offset \$\d/;
    const searched = (by: 'index' | 'scan', range = '[0,9]') =>
      listQueries(db, r, parseListQuery(r, { sort: '["name","ASC"]', range, filter: '{"q":"glass"}' }, { paging: 'range' }), undefined, undefined, by).page.compile();
    // A search read from its index (PostgreSQL's trigram index, by its pattern; SQLite's FTS5 phrase).
    const indexed = searched('index');
    expect(indexed.sql).toMatch(bound);
    expect(indexed.parameters).toEqual(sqlite ? ['"glass"'] : ['%glass%', ...bounds(10, 0)]);
    // A walked search: on PostgreSQL its needle alone is bound, its walk costed alike for every needle
    // (`strpos`), so its size is in the text as a plain list's is; a page further on binds its offset.
    const walked = searched('scan');
    expect(walked.sql).toMatch(/ limit 10\)/);
    expect(walked.parameters).toEqual([sqlite ? '%glass%' : 'glass']);
    expect(searched('scan', '[50,59]').parameters).toEqual([sqlite ? '%glass%' : 'glass', 50]);
    const filtered = page({ range: '[0,24]', filter: '{"status":"DRAFT"}' });
    expect(filtered.sql).toMatch(bound);
    expect(filtered.parameters).toEqual(['DRAFT', ...bounds(25, 0)]);
    const further = page({ range: '[50,74]', filter: '{"status":"DRAFT"}' });
    expect(further.parameters).toEqual(['DRAFT', ...bounds(25, 50)]);
    const keyset = page({ range: '[900,924]', filter: '{"status":"DRAFT"}', after: JSON.stringify(['Glass', 'x'.repeat(24)]) });
    expect(keyset.parameters).toEqual(['DRAFT', 'Glass', 'x'.repeat(24), ...bounds(25, 0)]);
    const narrow = <QB extends SelectQueryBuilder<any, any, any>>(q: QB) => q.where('status', '=', 'PUBLISHED') as QB;
    const narrowed = listQueries(db, r, parseListQuery(r, { sort: '["name","ASC"]', range: '[0,24]' }, { paging: 'range' }), undefined, narrow).page.compile();
    expect(narrowed.parameters).toEqual(['PUBLISHED', ...bounds(25, 0)]);
    const scoped = listQueries(db, r, parseListQuery(r, { sort: '["name","ASC"]', range: '[0,24]' }, { paging: 'range' }), { status: 'DRAFT' }).page.compile();
    expect(scoped.parameters).toEqual(['DRAFT', ...bounds(25, 0)]);
  });

  it('refuses bounds that are not whole numbers from zero', () => {
    const q = db.selectFrom('topCategories').selectAll();
    for (const [limit, offset] of [[-1, 0], [25, -1], [2.5, 0], [25, Number.NaN], [Number.POSITIVE_INFINITY, 0]])
      for (const sizeInText of [true, false]) expect(() => pagedAs(q, limit, offset, sizeInText)).toThrow(/whole numbers/);
    expect(pagedAs(q, 0, 0, true).compile().sql).toMatch(/ limit 0$/);
  });
});
