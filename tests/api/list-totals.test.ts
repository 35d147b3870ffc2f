/**
 * A list's total is kept between writes even with the answers' cache off (READ_CACHE_MB=0, as the
 * bench's cold runs): whichever page is asked, the total is the count of the query as run, and any
 * write to a table the list reads makes it counted again. Searched, filtered, owned (a seller's own
 * rows) and a team's (a dealer's sellers', read through `users`): each total follows creates, edits,
 * deletes and an account moved to another team, and one user's total is never another's. On every
 * engine this machine has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch, productBody, type Branch } from './fixtures/catalogue.ts';

const totalOf = (headers: Headers) => Number(headers.get('content-range')?.split('/')[1]);

describe.each(engines)('list totals kept between writes, answers not kept (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let branch: Branch;
  /** A word no seeded product holds, so the totals below are the test's own. */
  const word = `quokka${randomBytes(3).toString('hex')}`;
  let page = 0;

  beforeAll(async () => {
    server = await startTestServer({ engine, app: { readCacheBytes: 0 } });
    admin = await server.login('admin');
    branch = await makeBranch(server, admin);
  });
  afterAll(() => server?.close());

  /** The total of `/products` as `cookie` sees it, a different page each time (no two URLs alike). */
  async function total(cookie: string, filter: Record<string, unknown>) {
    page++;
    const res = await server.api('GET', '/products', { cookie, query: { filter, sort: ['name', 'ASC'], range: [page % 3, (page % 3) + 4], _: page } });
    expect(res.status).toBe(200);
    return totalOf(res.headers);
  }

  const create = async (cookie: string, name: string) => {
    const res = await server.api('POST', '/products', { cookie, body: productBody(branch, { name }) });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  it('answers are not kept: the cache holds nothing while totals are kept', async () => {
    await total(admin, { q: word });
    await total(admin, { q: word });
    expect(server.app.readCache.size).toBe(0);
    expect(server.app.readCache.totalsKept.count).toBeGreaterThan(0);
  });

  it("a search's and a filter's totals follow creates, edits and deletes", async () => {
    const dealer = await account(server, 'dealer');
    const seller = await account(server, 'seller', dealer.id);
    expect(await total(admin, { q: word })).toBe(0);
    expect(await total(admin, { sellerId: seller.id })).toBe(0);
    const a = await create(seller.cookie, `Red ${word} lamp`);
    expect(await total(admin, { q: word })).toBe(1);
    expect(await total(admin, { q: word })).toBe(1);
    expect(await total(admin, { sellerId: seller.id })).toBe(1);
    await create(seller.cookie, `Blue ${word.toUpperCase()} chair`);
    expect(await total(admin, { q: word })).toBe(2);
    expect(await total(admin, { q: word, sellerId: seller.id })).toBe(2);
    // Renamed out of the search: still the seller's.
    const edit = await server.api('PATCH', `/products/${a}/edit`, { cookie: seller.cookie, body: productBody(branch, { name: 'Plain lamp' }) });
    expect(edit.status).toBe(200);
    expect(await total(admin, { q: word })).toBe(1);
    expect(await total(admin, { sellerId: seller.id })).toBe(2);
    expect((await server.api('DELETE', `/products/${a}`, { cookie: seller.cookie })).status).toBeLessThan(300);
    expect(await total(admin, { sellerId: seller.id })).toBe(1);
    expect(await total(admin, { q: word })).toBe(1);
  });

  it("one seller's total is never another's, and a dealer's follows its team", async () => {
    const dealer = await account(server, 'dealer');
    const dealer2 = await account(server, 'dealer');
    const mine = await account(server, 'seller', dealer.id);
    const theirs = await account(server, 'seller', dealer2.id);
    const q = `${word}team`;
    for (let i = 0; i < 3; i++) await create(mine.cookie, `${q} ${i}`);
    await create(theirs.cookie, `${q} x`);
    // The same query by three users: three totals.
    expect(await total(mine.cookie, { q })).toBe(3);
    expect(await total(theirs.cookie, { q })).toBe(1);
    expect(await total(admin, { q })).toBe(4);
    expect(await total(dealer.cookie, { q })).toBe(3);
    expect(await total(dealer2.cookie, { q })).toBe(1);
    // The admin moves a seller to the other team: a write to `users`, which the dealers' reach reads.
    const moved = await server.api('PATCH', `/users/${mine.id}`, { cookie: admin, body: { role: 'seller', dealerId: dealer2.id, status: 'ACTIVE' } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await total(dealer.cookie, { q })).toBe(0);
    expect(await total(dealer2.cookie, { q })).toBe(4);
    expect(await total(mine.cookie, { q })).toBe(3);
  });
});
