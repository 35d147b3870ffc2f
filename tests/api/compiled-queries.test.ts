/**
 * Queries compiled once and run again (compiled-queries.ts): a repeated list page runs the SQL it ran
 * before without building it, and still answers what the database holds now (only SQL is kept, never
 * rows); lists that differ in any one value (range, sort, order, search, filter, keyset) never run each
 * other's SQL; a list narrowed to its user's reach is built every time; a record by id answers the
 * record asked for, each time, and out of reach stays a 404; an insert is the one Kysely would compile,
 * bound in its column order, in a transaction too. With the answers' cache off, as the bench's
 * cold runs. On every engine this machine has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { compiledListStats, insertQuery, insertRowsQuery, lookupsQuery, recordQuery } from '../../src/server/db/compiled-queries.ts';
import { newId } from '../../src/server/db/id.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch, productBody, type Branch } from './fixtures/catalogue.ts';

describe.each(engines)('compiled queries kept (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let branch: Branch;
  let sellers: { id: string; cookie: string }[];
  /** Words no seeded product holds: the pages below are the test's own. */
  const word = `wombat${randomBytes(3).toString('hex')}`;
  const other = `numbat${randomBytes(3).toString('hex')}`;
  let bust = 0;

  beforeAll(async () => {
    server = await startTestServer({ engine, app: { readCacheBytes: 0 } });
    admin = await server.login('admin');
    branch = await makeBranch(server, admin);
    const dealer = await account(server, 'dealer');
    sellers = [await account(server, 'seller', dealer.id), await account(server, 'seller', dealer.id)];
    // Six products with `word` (three a seller), two with `other`.
    for (let i = 0; i < 6; i++) await create(sellers[i % 2].cookie, `${word} item ${i}`);
    for (let i = 0; i < 2; i++) await create(sellers[0].cookie, `${other} item ${i}`);
  });
  afterAll(() => server?.close());

  async function create(cookie: string, name: string) {
    const res = await server.api('POST', '/products', { cookie, body: productBody(branch, { name }) });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  /** A page of `/products` as `cookie` sees it: names, sellers and the total; each URL new (`_`). */
  async function page(query: Record<string, unknown>, cookie = admin) {
    const res = await server.api('GET', '/products', { cookie, query: { sort: ['name', 'ASC'], range: [0, 24], ...query, _: ++bust } });
    expect(res.status).toBe(200);
    return {
      names: (res.body as { name: string }[]).map((p) => p.name),
      sellers: (res.body as { sellerId: string }[]).map((p) => p.sellerId),
      last: res.body.at(-1) as { name: string; id: string } | undefined,
      total: Number(res.headers.get('content-range')?.split('/')[1]),
    };
  }

  it('a repeated page runs the SQL kept for it, and sees writes made since', async () => {
    const query = { filter: { q: word }, range: [0, 2] };
    const first = await page(query);
    expect(first.names).toEqual([`${word} item 0`, `${word} item 1`, `${word} item 2`]);
    const hits = compiledListStats.hits;
    expect(await page(query)).toEqual(first);
    expect(compiledListStats.hits).toBeGreaterThan(hits);
    // Only SQL is kept: a product written now is on the very same page.
    const id = await create(sellers[1].cookie, `${word} item 00`);
    const after = await page(query);
    expect(after.names).toEqual([`${word} item 0`, `${word} item 00`, `${word} item 1`]);
    expect(after.total).toBe(first.total + 1);
    expect((await server.api('DELETE', `/products/${id}`, { cookie: sellers[1].cookie })).status).toBeLessThan(300);
    expect(await page(query)).toEqual(first);
  });

  it('lists that differ in one value never run each other’s SQL', async () => {
    const base = { filter: { q: word }, range: [0, 1] };
    const variants: [string, Record<string, unknown>, (p: Awaited<ReturnType<typeof page>>) => void][] = [
      ['base', base, (p) => expect(p.names).toEqual([`${word} item 0`, `${word} item 1`])],
      ['range', { ...base, range: [2, 3] }, (p) => expect(p.names).toEqual([`${word} item 2`, `${word} item 3`])],
      ['size', { ...base, range: [0, 2] }, (p) => expect(p.names).toEqual([`${word} item 0`, `${word} item 1`, `${word} item 2`])],
      ['order', { ...base, sort: ['name', 'DESC'] }, (p) => expect(p.names).toEqual([`${word} item 5`, `${word} item 4`])],
      ['search', { ...base, filter: { q: other } }, (p) => expect(p.names).toEqual([`${other} item 0`, `${other} item 1`])],
      ['filter', { ...base, filter: { q: word, sellerId: sellers[1].id } }, (p) => expect(p.names).toEqual([`${word} item 1`, `${word} item 3`])],
      ['filter value', { ...base, filter: { q: word, sellerId: sellers[0].id } }, (p) => expect(p.names).toEqual([`${word} item 0`, `${word} item 2`])],
      ['keyset', { ...base, after: 'AFTER' }, (p) => expect(p.names).toEqual([`${word} item 2`, `${word} item 3`])],
    ];
    const { last } = await page(base);
    // Each asked twice, interleaved: an answer from another's kept SQL would fail its own check.
    for (let round = 0; round < 2; round++)
      for (const [name, query, check] of variants) {
        const asked = query.after ? { ...query, after: [last!.name, last!.id] } : query;
        const answer = await page(asked);
        try {
          check(answer);
        } catch (error) {
          throw new Error(`${name}, round ${round + 1}: ${(error as Error).message}`);
        }
      }
  });

  it("a list narrowed to its user's reach is built each time, and shows that user's rows only", async () => {
    const hits = compiledListStats.hits;
    for (const [i, seller] of sellers.entries()) {
      const mine = await page({ filter: { q: word } }, seller.cookie);
      expect(mine.sellers.every((s) => s === seller.id)).toBe(true);
      expect(mine.names).toEqual([0, 2, 4].map((n) => `${word} item ${n + i}`));
      expect(await page({ filter: { q: word } }, seller.cookie)).toEqual(mine);
    }
    expect(compiledListStats.hits).toBe(hits);
  });

  it('a record by id is the one asked for, every time; out of reach it is a 404', async () => {
    const ids = [await create(sellers[0].cookie, `${word} one A`), await create(sellers[1].cookie, `${word} one B`)];
    for (let round = 0; round < 2; round++)
      for (const [i, id] of ids.entries()) {
        const res = await server.api('GET', `/products/${id}`, { cookie: admin });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ id, name: `${word} one ${'AB'[i]}` });
      }
    expect((await server.api('GET', `/products/${ids[0]}`, { cookie: sellers[1].cookie })).status).toBe(404);
    expect((await server.api('GET', `/products/${ids[1]}`, { cookie: sellers[1].cookie })).status).toBe(200);
    expect((await server.api('GET', '/products/000000000000000000000000', { cookie: admin })).status).toBe(404);
  });

  it('a record query is compiled once and bound to each value asked', () => {
    const [a, b] = ['a', 'b'].map((v) => recordQuery(server.db, 'products', 'slug', v));
    expect([a.parameters, b.parameters]).toEqual([['a'], ['b']]);
    expect(a.sql).toBe(b.sql);
    expect(a.sql).toBe(server.db.selectFrom('products').selectAll('products').where('products.slug', '=', 'a').compile().sql);
  });

  it('an insert is compiled once per table and columns, its values bound in column order, as Kysely would', async () => {
    const at = new Date().toISOString();
    const row = (name: string, more: Record<string, unknown> = {}) => ({ id: newId(), name, image: null, status: 'DRAFT', order: 7, slug: `${word}-${name}`, createdAt: at, updatedAt: at, ...more });
    const kysely = (r: Record<string, unknown>) => server.db.insertInto('topCategories').values(r).compile();
    const rows = [row('a'), row('b'), row('c', { order: undefined, status: 'PUBLISHED' }), row('d', { order: sql`6 + 1` })];
    const made = rows.map((r) => insertQuery(server.db, 'topCategories', r));
    for (const [i, q] of made.entries()) expect({ sql: q.sql, parameters: q.parameters }, `row ${i}`).toEqual({ sql: kysely(rows[i]).sql, parameters: kysely(rows[i]).parameters });
    expect(made[0].sql).toBe(made[1].sql);
    // A column left undefined is left out, and an expression written into the text, as Kysely does.
    expect(made[2].sql).not.toContain('"order"');
    expect(made[3].sql).toContain('6 + 1');
    // Run in transactions (each a Kysely object of its own): the rows are there, as sent.
    for (const [i, r] of rows.entries()) await server.db.transaction().execute((trx) => trx.executeQuery(insertQuery(trx, 'topCategories', r)));
    const stored = await server.db.selectFrom('topCategories').select(['name', 'status', 'order']).where('slug', 'like', `${word}-%`).orderBy('name').execute();
    expect(stored.map((x) => [x.name, x.status, x.order === null ? null : Number(x.order)])).toEqual([['a', 'DRAFT', 7], ['b', 'DRAFT', 7], ['c', 'PUBLISHED', null], ['d', 'DRAFT', 7]]);
  });

  it('a write\'s lookups of its parents are compiled once per shape, their keys bound in order', async () => {
    const [a, b] = await server.db.selectFrom('products').select(['id', 'slug', 'sellerId']).where('name', 'like', `${word}%`).orderBy('name').limit(2).execute();
    const lookups = (x: Record<string, unknown>, y: Record<string, unknown>) => [
      { table: 'products', by: 'id', column: 'id', alias: 'p0', key: x.id },
      { table: 'products', by: 'id', column: 'slug', alias: 'p1', key: x.id },
      { table: 'users', by: 'id', column: 'id', alias: 'p2', key: y.sellerId },
      { table: 'products', by: 'slug', column: 'sellerId', alias: 'p3', key: y.slug },
    ];
    const [qa, qb] = [lookupsQuery(server.db, lookups(a, b)), lookupsQuery(server.db, lookups(b, a))];
    expect(qa.sql).toBe(qb.sql);
    expect([qa.parameters, qb.parameters]).toEqual([[a.id, a.id, b.sellerId, b.slug], [b.id, b.id, a.sellerId, a.slug]]);
    const { rows } = await server.db.executeQuery(qa);
    expect(rows).toEqual([{ p0: a.id, p1: a.slug, p2: b.sellerId, p3: b.sellerId }]);
    // A key no row has answers null there.
    const { rows: none } = await server.db.executeQuery(lookupsQuery(server.db, [{ table: 'users', by: 'id', column: 'id', alias: 'p0', key: 'no such id' }]));
    expect(none).toEqual([{ p0: null }]);
  });

  it('rows inserted together are compiled once per table, count and columns, as Kysely would, and else built by it', async () => {
    const at = new Date().toISOString();
    const row = (name: string, more: Record<string, unknown> = {}) => ({ id: newId(), name, image: null, status: 'DRAFT', order: 3, slug: `${word}-rows-${name}`, createdAt: at, updatedAt: at, ...more });
    const kysely = (rs: Record<string, unknown>[]) => server.db.insertInto('topCategories').values(rs).compile();
    const alike = [
      [row('e'), row('f')],
      [row('g'), row('h')],
    ];
    const made = alike.map((rs) => insertRowsQuery(server.db, 'topCategories', rs));
    for (const [i, q] of made.entries()) expect({ sql: q.sql, parameters: q.parameters }, `pair ${i}`).toEqual({ sql: kysely(alike[i]).sql, parameters: kysely(alike[i]).parameters });
    expect(made[0].sql).toBe(made[1].sql);
    // Three rows are another statement; rows that set other columns (one leaves `order` out, one sets it
    // by an expression, one names its columns in another order) are Kysely's own, the values as it binds them.
    const three = [row('i'), row('j'), row('k')];
    expect(insertRowsQuery(server.db, 'topCategories', three).sql).toBe(kysely(three).sql);
    const { order: _order, ...withoutOrder } = row('m');
    const { id, ...rest } = row('o');
    const unlike = [
      [row('l'), { ...withoutOrder, order: undefined }],
      [row('n', { order: sql`2 + 1` }), row('p')],
      [row('q'), { ...rest, id }],
    ];
    for (const [i, rs] of unlike.entries()) {
      const q = insertRowsQuery(server.db, 'topCategories', rs);
      expect({ sql: q.sql, parameters: q.parameters }, `unlike ${i}`).toEqual({ sql: kysely(rs).sql, parameters: kysely(rs).parameters });
    }
    for (const rs of [...alike, three, ...unlike]) await server.db.transaction().execute((trx) => trx.executeQuery(insertRowsQuery(trx, 'topCategories', rs)));
    const stored = await server.db.selectFrom('topCategories').select(['name', 'order']).where('slug', 'like', `${word}-rows-%`).orderBy('name').execute();
    expect(stored.map((x) => [x.name, x.order === null ? null : Number(x.order)])).toEqual(
      [['e', 3], ['f', 3], ['g', 3], ['h', 3], ['i', 3], ['j', 3], ['k', 3], ['l', 3], ['m', null], ['n', 3], ['o', 3], ['p', 3], ['q', 3]],
    );
  });
});
