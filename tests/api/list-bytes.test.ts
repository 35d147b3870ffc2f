/**
 * A list page is sent as the bytes written from its records' JSON texts (answer-body.ts), on every
 * engine this machine has: over real HTTP, text outside ASCII (accents, CJK, an emoji: two to four
 * bytes a character) comes back whole, the Content-Length is the body's byte length, and the page
 * envelope (`paging: 'page'`) and an empty page are exact JSON, read from the database and from the
 * read cache alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '../../src/manifest/index.ts';
import { sendEmail, closeTransports } from '../../src/server/email/index.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { watchMainQueries } from '../support/main-queries.ts';

const NAMES = ['Café crème brûlée', '東京の器 👜', 'Zürich “quoted” \\ back\\slash'];

describe.each(engines)('list pages as bytes (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  const saved = process.env.SMTP_URL;
  beforeAll(async () => {
    delete process.env.SMTP_URL;
    server = await startTestServer({ engine });
    admin = await server.login('admin');
  });
  afterAll(async () => {
    if (saved !== undefined) process.env.SMTP_URL = saved;
    closeTransports();
    await server?.close();
  });

  /** The raw answer: status, headers, the body's bytes and its text. */
  async function raw(path: string, query: Record<string, unknown>) {
    const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    const res = await fetch(`${server.url}${API_BASE}${path}?${search}`, { headers: { cookie: admin } });
    const bytes = Buffer.from(await res.arrayBuffer());
    return { status: res.status, headers: res.headers, bytes, text: bytes.toString('utf8') };
  }

  it('a range page: multibyte names whole, Content-Length in bytes, from the database and from the cache', async () => {
    const tag = `${engine}${Date.now() % 100000}`;
    for (const [i, name] of NAMES.entries()) {
      const made = await server.api('POST', '/top-categories', {
        cookie: admin,
        body: { name: `${name} ${tag}`, image: '/logo.jpg', href: '/c/x', status: 'PUBLISHED', order: i },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
    const query = { filter: { q: tag }, sort: ['order', 'ASC'], range: [0, 9] };
    for (const round of ['read', 'kept']) {
      const page = await raw('/top-categories', query);
      expect(page.status, round).toBe(200);
      expect(page.headers.get('content-type'), round).toMatch(/^application\/json/);
      expect(Number(page.headers.get('content-length')), round).toBe(page.bytes.length);
      expect(page.bytes.length, round).toBeGreaterThan(page.text.length);
      const rows = JSON.parse(page.text) as { name: string }[];
      expect(rows.map((r) => r.name), round).toEqual(NAMES.map((n) => `${n} ${tag}`));
      expect(page.headers.get('content-range'), round).toBe('topCategories 0-2/3');
    }
    // An empty page is `[]`, not a stray bracket or comma.
    const none = await raw('/top-categories', { filter: { q: `${tag}-none` }, range: [0, 9] });
    expect(none.text).toBe('[]');
    expect(Number(none.headers.get('content-length'))).toBe(2);
  });

  it('a page envelope (paging: page): data, total, page and limit exact around multibyte records', async () => {
    for (const [n, name] of NAMES.entries())
      await sendEmail(server.db, { to: `buyer${n}@demo.test`, subject: `${name} ${n}`, text: `${name}: your order.`, kind: 'test' });
    const page = await raw('/email-history', { page: '1', limit: '2' });
    expect(page.status).toBe(200);
    expect(Number(page.headers.get('content-length'))).toBe(page.bytes.length);
    const body = JSON.parse(page.text);
    expect(Object.keys(body)).toEqual(['data', 'total', 'page', 'limit']);
    expect(body).toMatchObject({ total: 3, page: 1, limit: 2 });
    // Newest first: the last two sent.
    expect(body.data.map((e: { subject: string }) => e.subject)).toEqual([`${NAMES[2]} 2`, `${NAMES[1]} 1`]);
    const past = await raw('/email-history', { page: '3', limit: '2' });
    expect(JSON.parse(past.text)).toEqual({ data: [], total: 3, page: 3, limit: 2 });
  });

  it("empties the driver's rows once a page or a record is read from them (taken-rows.ts)", async () => {
    const seen: unknown[][] = [];
    const stop = watchMainQueries(server.db, (_sql, rows) => seen.push(rows));
    try {
      // A page never asked before (the read cache would answer a repeated one), and a record by its slug.
      const page = await raw('/top-categories', { filter: { q: `none-${Date.now()}` }, range: [0, 4] });
      expect(page.status).toBe(200);
      const list = await raw('/top-categories', { range: [0, 0], sort: ['updatedAt', 'DESC'] });
      const [first] = JSON.parse(list.text) as { slug: string }[];
      const one = await server.api('GET', `/top-categories/${first.slug}`, { cookie: admin });
      expect(one.status).toBe(200);
    } finally {
      stop();
    }
    // SQLite reads pages in a worker (its rows are its own); the record is read here on both engines.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.map((rows) => rows.length)).toEqual(seen.map(() => 0));
  });
});
