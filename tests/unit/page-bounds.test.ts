/**
 * A list page's bounds as the server writes them (`pagedAs`, repository.ts): its size in the SQL text and
 * no offset on a first page or a keyset page, so PostgreSQL keeps one plan for it (tests/api/pg-statements
 * shows the plans kept); a page further on keeps its offset a parameter, so every such page is one text.
 * Compiled only, for both engines' dialects.
 */
import { describe, expect, it } from 'vitest';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { registry } from '../../resources/index.ts';
import { listQueries, pagedAs } from '../../src/server/db/repository.ts';
import { parseListQuery } from '../../src/server/db/list-query.ts';
import { boundedCount, EXACT_COUNT_UP_TO } from '../../src/server/db/count.ts';

const dialects = {
  postgres: { createAdapter: () => new PostgresAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (db: Kysely<any>) => new PostgresIntrospector(db), createQueryCompiler: () => new PostgresQueryCompiler() },
  sqlite: { createAdapter: () => new SqliteAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (db: Kysely<any>) => new SqliteIntrospector(db), createQueryCompiler: () => new SqliteQueryCompiler() },
};

describe.each(Object.keys(dialects) as (keyof typeof dialects)[])('page bounds (%s)', (engine) => {
  const db = new Kysely<any>({ dialect: dialects[engine] });
  const r = registry.resource('topCategories');
  const page = (query: Record<string, unknown>) => listQueries(db, r, parseListQuery(r, { sort: '["name","ASC"]', ...query }, { paging: 'range' })).page.compile();

  it('a first page has its size in the text and no offset; a page further on binds its offset', () => {
    const first = page({ range: '[0,24]' });
    expect(first.sql).toMatch(/ limit 25$/);
    expect(first.parameters).toEqual([]);
    const later = page({ range: '[50,74]' });
    expect(later.sql).toMatch(/ limit 25 offset (\$1|\?)$/);
    expect(later.parameters).toEqual([50]);
    expect(page({ range: '[75,99]' }).sql).toBe(later.sql);
  });

  it('a keyset page (after a row) has no offset, whatever its range says', () => {
    const keyset = page({ range: '[900,924]', after: JSON.stringify(['Glass', 'x'.repeat(24)]) });
    expect(keyset.sql).toMatch(/ limit 25$/);
    expect(keyset.parameters).toEqual(['Glass', 'x'.repeat(24)]);
  });

  it('a search page is bounded the same way (SQLite: the walk in sort order, when it is walked)', () => {
    const search = listQueries(db, r, parseListQuery(r, { sort: '["name","ASC"]', range: '[0,9]', filter: '{"q":"glass"}' }, { paging: 'range' }), undefined, undefined, 'scan').page.compile();
    expect(search.sql).toMatch(engine === 'sqlite' ? / limit 10\)\) order by / : / limit 10$/);
    expect(search.parameters).toEqual(['%glass%']);
  });

  it("the bounded count's bound is in the text", () => {
    const counted = boundedCount(db, db.selectFrom('topCategories').select('id')).compile();
    expect(counted.sql).toContain(`limit ${EXACT_COUNT_UP_TO + 1}`);
    expect(counted.parameters).toEqual([]);
  });

  it('refuses bounds that are not whole numbers from zero', () => {
    const q = db.selectFrom('topCategories').selectAll();
    for (const [limit, offset] of [[-1, 0], [25, -1], [2.5, 0], [25, Number.NaN], [Number.POSITIVE_INFINITY, 0]])
      expect(() => pagedAs(q, limit, offset)).toThrow(/whole numbers/);
    expect(pagedAs(q, 0, 0).compile().sql).toMatch(/ limit 0$/);
  });
});
