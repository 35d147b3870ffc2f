/**
 * Lists as CSV (issue 9 §6): `GET <list call>?format=csv` answers every row the list's filter, search,
 * sort and scope select, across all pages, streamed a page of rows at a time, with the list's own
 * access; cells are escaped and guarded against spreadsheet formulas, and no secret is written. Every
 * list read of the registry is exported once, so a new resource is covered without editing this file.
 * On every engine this machine has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { registry } from '../../resources/index.ts';
import { categories } from '../../resources/catalog.ts';
import { parseCall, urlOf, type ResourceDef } from '../../src/manifest/index.ts';
import { newId } from '../../src/server/db/id.ts';
import { parseListQuery } from '../../src/server/db/list-query.ts';
import { csvChunks, csvColumns, EXPORT_PAGE } from '../../src/server/routes/export.ts';
import { labelledReferences } from '../../src/server/db/labels.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { parseCsv } from '../support/csv.ts';

/** The shelves: enough rows for several export pages, and names a spreadsheet would misread. */
const SHELVES = 1234;
const TRICKY = ['=HYPERLINK("https://evil.example","Shelf click")', '+Shelf plus', '-Shelf minus', '@Shelf at', 'Shelf, "quoted"\r\nacross lines'];

/** The answer's text, its byte order mark kept (fetch's own `text()` drops it). */
const textOf = async (res: Response) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());

const listUrl = (r: ResourceDef) => urlOf(parseCall(r.reads.list!.call).path);
const withQuery = (url: string, query: Record<string, unknown>) =>
  `${url}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))}`;

describe.each(engines)('CSV export of lists (%s)', (engine) => {
  let server: TestServer;
  let admin: string;

  /** `cookie`: whose session (none for `null`); the admin's by default. */
  const csv = (r: ResourceDef, query: Record<string, unknown>, cookie: string | null = admin) =>
    fetch(`${server.url}${withQuery(listUrl(r), { format: 'csv', ...query })}`, { headers: cookie ? { cookie } : {} });

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    // Inserted in a shuffled order, so the export's order can only come from its sort.
    const names = [...Array.from({ length: SHELVES }, (_, i) => `Shelf ${String(i).padStart(4, '0')}`), ...TRICKY];
    names.sort(() => Math.random() - 0.5);
    const now = new Date().toISOString();
    const rows = [...names, ...Array.from({ length: 60 }, (_, i) => `Lamp ${i}`)].map((name, i) => ({
      id: newId(),
      name,
      order: String((i % 10) + 1),
      slug: `export-${i}`,
      createdAt: now,
      updatedAt: now,
      version: 1,
    }));
    for (let i = 0; i < rows.length; i += 500) await server.db.insertInto('categories').values(rows.slice(i, i + 500)).execute();
    const money = [['Taka', 'BDT', 1], ['Euro', 'EUR', 1], ['Pound', 'GBP', 0]].map(([name, code, status]) => ({
      id: newId(),
      name,
      symbal: String(code).slice(0, 1),
      code,
      rate: 1,
      status,
      createdAt: now,
      updatedAt: now,
      version: 1,
    }));
    await server.db.insertInto('currencies').values(money).execute();
  }, 60_000);
  afterAll(() => server?.close());

  it('answers every row of the search, in the sort asked, across all pages', async () => {
    const query = { filter: { q: 'shelf' }, sort: ['name', 'DESC'], range: [0, 9] };
    const res = await csv(categories, query);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="categories-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = await textOf(res);
    expect(text.startsWith('\ufeff')).toBe(true);
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header).toEqual(['id', 'name', 'order', 'slug', 'createdAt', 'updatedAt']);
    expect(rows).toHaveLength(SHELVES + TRICKY.length);

    // The same rows, in the same order, as the list answers them page by page (the engine's own collation).
    const listed: string[] = [];
    for (let start = 0; listed.length < rows.length + 1; start += 100) {
      const page = await server.api('GET', '/categories', { cookie: admin, query: { ...query, range: [start, start + 99] } });
      expect(page.status).toBe(200);
      if (!page.body.length) break;
      listed.push(...page.body.map((r: { id: string }) => r.id));
    }
    expect(rows.map((r) => r[0])).toEqual(listed);
    const names = rows.map((r) => r[1]);
    expect(names.filter((n) => /^Shelf \d{4}$/.test(n))).toEqual(
      Array.from({ length: SHELVES }, (_, i) => `Shelf ${String(SHELVES - 1 - i).padStart(4, '0')}`),
    );
    expect(names.some((n) => n.startsWith('Lamp'))).toBe(false);
  });

  it('guards cells a spreadsheet would run as formulas, and escapes commas, quotes and line breaks', async () => {
    const res = await csv(categories, { filter: { q: 'shelf' }, sort: ['name', 'ASC'] });
    const text = await textOf(res);
    const names = parseCsv(text.slice(1)).map((r) => r[1]);
    for (const tricky of TRICKY) {
      const written = /^[=+\-@]/.test(tricky) ? `'${tricky}` : tricky;
      expect(names).toContain(written);
    }
    expect(text).toContain(`"'=HYPERLINK(""https://evil.example"",""Shelf click"")"`);
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
    // A number is a number, never guarded: `order` is text here, ids and dates are not formulas.
    expect(text).toContain('"Shelf, ""quoted""\r\nacross lines"');
  });

  it('streams the answer: chunked, with no length known in advance', async () => {
    const res = await csv(categories, {});
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('no-store');
    await res.arrayBuffer();
  });

  it('reads a page of rows at a time, and the next only when the last was taken', async () => {
    let queries = 0;
    let most = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        queries++;
        most = Math.max(most, args.result.rows.length);
        return args.result;
      },
    };
    const db = server.db.withPlugin(counting);
    const query = parseListQuery(categories, { sort: JSON.stringify(['name', 'ASC']) });
    const total = SHELVES + TRICKY.length + 60;
    const chunks = csvChunks(db, categories, query);
    expect((await chunks.next()).value).toBe('\ufeffid,name,order,slug,createdAt,updatedAt\r\n');
    expect(queries).toBe(0); // nothing is read before the first rows are asked for
    const first = (await chunks.next()).value as string;
    expect(queries).toBe(1);
    expect(parseCsv(first)).toHaveLength(EXPORT_PAGE);
    let rest = '';
    for await (const chunk of chunks) rest += chunk;
    expect(parseCsv(first + rest)).toHaveLength(total);
    expect(most).toBe(EXPORT_PAGE);
    expect(queries).toBe(Math.floor(total / EXPORT_PAGE) + 1);
  });

  it('keeps the list’s scope, and refuses what the list refuses', async () => {
    const currencies = registry.resource('currencies');
    const all = parseCsv((await textOf(await csv(currencies, {}))).slice(1));
    const status = all[0].indexOf('status');
    const active = parseCsv((await textOf(await csv(currencies, { status: '1' }))).slice(1));
    expect(all.slice(1).map((r) => r[status]).sort()).toEqual(['0', '1', '1']);
    expect(active.slice(1).map((r) => r[status])).toEqual(['1', '1']);

    expect((await csv(categories, { sort: ['nope', 'ASC'] })).status).toBe(400);
    expect((await csv(categories, { filter: '{' })).status).toBe(400);
    const format = await fetch(`${server.url}${listUrl(categories)}?format=xml`, { headers: { cookie: admin } });
    expect(format.status).toBe(400);
    expect(await format.json()).toEqual({ message: "'format' must be json or csv." });
  });

  it('answers non-readers 401 or 403, as the list does', async () => {
    expect((await csv(categories, {}, null)).status).toBe(401);
    const user = await server.login('user');
    const auditLog = registry.resource('auditLog');
    expect((await csv(auditLog, {}, user)).status).toBe(403);
    expect((await csv(categories, {}, user)).status).toBe(200);
  });

  it('exports every list of the registry, with its columns and no secret', async () => {
    for (const r of registry.resources) {
      if (r.reads.list?.kind !== 'list' || parseCall(r.reads.list.call).params.length) continue;
      const res = await csv(r, {});
      expect(res.status, r.name).toBe(200);
      const text = await textOf(res);
      const [header] = parseCsv(text.slice(1));
      // Each reference the admin may read also by its label, beside its id (issue 51 §5).
      expect(header, r.name).toEqual(csvColumns(r, labelledReferences(registry, r, { id: 'admin', role: 'admin' })));
      for (const f of r.fields.filter((x) => x.secret)) expect(header, r.name).not.toContain(f.name);
      expect(text, r.name).not.toMatch(/scrypt|passwordHash/i);
    }
  });

  it('is described in the API document for every list read', async () => {
    const doc = (await server.api('GET', '/api/openapi.json', { cookie: admin })).body;
    for (const r of registry.resources)
      for (const read of Object.values(r.reads)) {
        if (read.kind !== 'list') continue;
        const op = doc.paths[urlOf(parseCall(read.call).path)].get;
        expect(op.parameters.find((p: { name: string }) => p.name === 'format')?.schema, read.call).toEqual({ enum: ['json', 'csv'], default: 'json' });
        expect(op.responses['200'].content['text/csv'], read.call).toBeDefined();
      }
  });
});
