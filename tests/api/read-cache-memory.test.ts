/**
 * The read cache stays within its byte bound whatever signed-in clients ask (issue 8 §2): a real server
 * with a 256 KiB bound (set as operators do, with READ_CACHE_MB), notices with 10 kB of text, hundreds of
 * list reads as the demo `user`, each carrying a new `nocache=N` parameter, over many distinct pages.
 * Parameters the server ignores make no new entries; distinct pages push old ones out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { newId } from '../../src/server/db/id.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

const BOUND = 256 * 1024;
const ROWS = 60;
const TEXT = 10_000;

/** The server's read cache (`app.readCache`). */
const cacheOf = (app: FastifyInstance) => app.readCache;

describe.each(engines)('read cache memory on %s', (engine) => {
  let server: TestServer;
  let cookie: string;
  let n = 0;
  /** A read as the signed-in user, with a parameter never sent before. */
  const read = (path: string, query: Record<string, unknown> = {}) =>
    server.api('GET', path, { cookie, query: { ...query, nocache: String(++n) } });
  const settingId = newId();
  const page = (i: number) => read('/notices/', { sort: ['title', 'ASC'], range: [i, i], filter: { type: 'memory' } });

  beforeAll(async () => {
    const before = process.env.READ_CACHE_MB;
    process.env.READ_CACHE_MB = String(BOUND / 1024 / 1024);
    try {
      server = await startTestServer({ engine });
    } finally {
      if (before === undefined) delete process.env.READ_CACHE_MB;
      else process.env.READ_CACHE_MB = before;
    }
    const now = new Date().toISOString();
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      id: newId(),
      type: 'memory',
      title: `Notice ${String(i).padStart(3, '0')}`,
      message: `${i} `.padEnd(TEXT, 'x'),
      createdAt: now,
      updatedAt: now,
    }));
    await server.db.insertInto('notices').values(rows).execute();
    await server.db
      .insertInto('siteSettings')
      .values({ id: settingId, name: `memory-${settingId}`, value: 'x'.repeat(TEXT), createdAt: now, updatedAt: now })
      .execute();
    cookie = await server.login('user');
  });
  afterAll(() => server?.close());

  it('answers a page the same with or without unknown parameters, and keeps one entry for it', async () => {
    const cache = cacheOf(server.app);
    const first = await page(0);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(1);
    expect(first.body[0].title).toBe('Notice 000');
    expect(first.headers.get('content-range')).toBe('notices 0-0/60');
    const entries = cache.size;
    for (let i = 0; i < 100; i++) {
      const again = await page(0);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('content-range')).toBe('notices 0-0/60');
    }
    // PostgreSQL's time to live may drop and refill an entry meanwhile: never more entries.
    expect(cache.size).toBeLessThanOrEqual(entries);
    expect(cache.size).toBeGreaterThan(0);
  });

  it('keeps its bytes under the bound over hundreds of reads of distinct pages, each with a new parameter', async () => {
    const cache = cacheOf(server.app);
    for (let round = 0; round < 5; round++)
      for (let i = 0; i < ROWS; i++) {
        const res = await page(i);
        expect(res.status).toBe(200);
        expect(res.body[0].title).toBe(`Notice ${String(i).padStart(3, '0')}`);
        expect(cache.bytes).toBeLessThanOrEqual(BOUND);
      }
    // 60 pages of 20 kB (counted at two bytes a character) cannot all stay under 256 KiB.
    expect(cache.size).toBeLessThan(ROWS);
    expect(cache.size).toBeGreaterThan(1);
  });

  it('keeps one entry for one record however it is asked', async () => {
    const cache = cacheOf(server.app);
    expect((await read(`/site-settings/${settingId}`)).body.value).toHaveLength(TEXT);
    const entries = cache.size;
    for (let i = 0; i < 50; i++) expect((await read(`/site-settings/${settingId}`)).body.id).toBe(settingId);
    expect(cache.size).toBeLessThanOrEqual(entries);
  });

  it('answers a malformed query 400 without keeping anything', async () => {
    const cache = cacheOf(server.app);
    const entries = cache.size;
    for (let i = 0; i < 20; i++) {
      const res = await read('/notices/', { range: `[${i}` });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/range/);
    }
    expect(cache.size).toBeLessThanOrEqual(entries);
  });
});
