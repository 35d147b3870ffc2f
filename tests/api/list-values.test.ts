/**
 * What lists and forms promise about values, through the real HTTP API on every engine this machine
 * has, generated from the registry so every future resource is held to it too:
 * - every filter the list screen offers (`filterInputKind`, `filterChoices`) is answered, never a 400,
 *   for every value its input can send;
 * - every list sorts by the records' timestamps and filters them by a date range (`createdAt_gte`,
 *   `createdAt_lte`), both ends included, a date alone meaning the whole day; a malformed date is a 400;
 * - a `sortAs: 'number'` text sorts by its value (1, 2, 10), on both engines;
 * - a number field is told '<Label> must be a number.' for text and, if whole, '<Label> must be a whole
 *   number.' for 1.5, by every create and update call that sends it (never 'Position is required!').
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../resources/index.ts';
import {
  dialogAccess,
  labelOf,
  listFields,
  listOptions,
  parseCall,
  pickedFields,
  type FieldDef,
  type ListRead,
  type ResourceDef,
} from '../../src/manifest/index.ts';
import { filterChoices, filterInputKind } from '../../src/client/generate/choices.ts';
import { newId } from '../../src/server/db/id.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

/** Resources with a list screen, and the call that feeds it (no path parameter: the screen's own). */
const listed = registry.resources.flatMap((r) => {
  const read = r.reads.list;
  return read?.kind === 'list' && !parseCall(read.call).params.length ? [{ r, read }] : [];
});

/** A list read's path and its query in its dialect (`range`, or `page` and `limit`). */
function listRequest(read: ListRead, query: Record<string, unknown>) {
  const paged = read.paging === 'page';
  return { path: parseCall(read.call).path, query: paged ? { ...query, page: '1', limit: '100' } : { ...query, range: [0, 99] } };
}
const rowsOf = (read: ListRead, body: any): Record<string, unknown>[] => (read.paging === 'page' ? body.data : body);
const totalOf = (headers: Headers) => Number(headers.get('content-range')?.split('/')[1]);

describe.each(engines)('list values (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
  });
  afterAll(() => server?.close());

  const list = (read: ListRead, query: Record<string, unknown>) => {
    const { path, query: q } = listRequest(read, query);
    return server.api('GET', path, { cookie: admin, query: q });
  };

  it('answers every value every offered filter input can send, on every list', async () => {
    const refused: string[] = [];
    for (const { r, read } of listed) {
      for (const name of listOptions(r, registry).filters) {
        const f = r.fields.find((x) => x.name === name)!;
        const kind = filterInputKind(registry, f);
        // A text box is only offered for text: typed words are compared, never refused.
        if (kind === 'text') expect(f.storage, `${r.name}.${name}`).toBe('text');
        const values: unknown[] =
          kind === 'select' ? filterChoices(registry, f)!.map((c) => c.id) : kind === 'number' ? [1, -2, 0] : kind === 'reference' ? ['a'.repeat(24)] : ['active', 'x y'];
        for (const value of values) {
          const res = await list(read, { filter: { [name]: value } });
          if (res.status !== 200) refused.push(`${r.name} ${name}=${JSON.stringify(value)}: ${res.status} ${res.body?.message}`);
        }
      }
    }
    expect(refused).toEqual([]);
  });

  it("sorts every list by its timestamps, both ways; one that only shows them (timestamps: 'shown') refuses", async () => {
    const refused: string[] = [];
    const shown = listed.filter(({ r }) => r.timestamps === 'shown');
    expect(shown.map(({ r }) => r.name)).toContain('auditLog');
    for (const { r, read } of listed)
      for (const field of ['createdAt', 'updatedAt'])
        for (const order of ['ASC', 'DESC']) {
          const sortable = r.timestamps !== 'shown';
          expect(listOptions(r).sorts.includes(field), `${r.name} ${field}`).toBe(sortable);
          const res = await list(read, { sort: [field, order] });
          if (res.status !== (sortable ? 200 : 400)) refused.push(`${r.name} ${field} ${order}: ${res.status} ${res.body?.message}`);
        }
    expect(refused).toEqual([]);
  });

  /** Rows written straight to a table, with only an id and timestamps (and the fields a test sets). */
  async function insert(r: ResourceDef, rows: Record<string, unknown>[]): Promise<string[]> {
    const made = rows.map((row) => ({ id: newId(), ...row }));
    await server.db.insertInto(r.name).values(made).execute();
    return made.map((row) => row.id);
  }

  // One test a list: all lists in one test took 24-30 s on CI's loaded cores, and failed once at its 30 s.
  const stamps = ['2023-01-01T08:00:00.000Z', '2023-06-15T12:00:00.000Z', '2023-06-30T23:59:59.999Z', '2024-01-01T00:00:00.000Z'];
  for (const { r, read } of listed.filter(({ r }) => listOptions(r).ranges.length > 0))
    it(`filters ${r.name} by a date range of its timestamps, ends included, a date alone meaning its whole day`, async () => {
      for (const field of listOptions(r).ranges) {
        const ids = await insert(r, stamps.map((s) => ({ createdAt: s, updatedAt: s, [field]: s })));
        const within = async (range: Record<string, string>) => {
          const res = await list(read, { filter: { id: ids, ...range }, sort: [field, 'ASC'] });
          expect(res.status, `${r.name} ${JSON.stringify(range)}: ${res.body?.message}`).toBe(200);
          if (read.paging !== 'page') expect(totalOf(res.headers), `${r.name} total`).toBe(rowsOf(read, res.body).length);
          return rowsOf(read, res.body).map((row) => row[field]);
        };
        expect(await within({ [`${field}_gte`]: '2023-06-01', [`${field}_lte`]: '2023-06-30' }), `${r.name}.${field}`).toEqual([stamps[1], stamps[2]]);
        expect(await within({ [`${field}_gte`]: stamps[1] }), `${r.name}.${field}`).toEqual(stamps.slice(1));
        expect(await within({ [`${field}_lte`]: '2023-06-15T12:00:00Z' }), `${r.name}.${field}`).toEqual(stamps.slice(0, 2));
        // An instant with a zone is the same instant in UTC.
        expect(await within({ [`${field}_gte`]: '2024-01-01T01:00:00+01:00' }), `${r.name}.${field}`).toEqual([stamps[3]]);
        for (const bad of ['yesterday', '2023-13-45', '2023-02-30', '', ['2023-01-01'], 20230101, '2023-01-01T25:00:00Z']) {
          const res = await list(read, { filter: { [`${field}_gte`]: bad } });
          if (bad === '') expect(res.status).toBe(200); // an empty filter is no filter, as everywhere
          else {
            expect(res.status, `${r.name} ${JSON.stringify(bad)}`).toBe(400);
            expect(res.body.message).toBe(`'${field}_gte' must be a date, such as 2024-05-01 or 2024-05-01T12:00:00Z.`);
          }
        }
      }
    });

  it('has lists filtered by a date range above', () => expect(listed.filter(({ r }) => listOptions(r).ranges.length > 0).length).toBeGreaterThan(10));

  it('refuses a range on a field that is not a date', async () => {
    const res = await server.api('GET', '/countries', { cookie: admin, query: { filter: { name_gte: 'A' } } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`Cannot filter by 'name_gte'.`);
  });

  const numericTexts = listed.flatMap(({ r, read }) =>
    listFields(r)
      .filter((f) => f.sortAs === 'number')
      .map((f) => ({ r, read, f })),
  );

  it('has a field that sorts as a number (a category’s order)', () => {
    expect(numericTexts.map(({ r, f }) => `${r.name}.${f.name}`)).toContain('categories.order');
  });

  it.each(numericTexts.map((x) => [`${x.r.name}.${x.f.name}`, x] as const))('sorts %s by its value, not its text', async (_name, { r, read, f }) => {
    const values = ['10', '2', '1', '-3', '21', '3'];
    const ids = await insert(r, values.map((v) => ({ [f.name]: v })));
    const sorted = async (order: string) => {
      const res = await list(read, { filter: { id: ids }, sort: [f.name, order] });
      expect(res.status).toBe(200);
      return rowsOf(read, res.body).map((row) => row[f.name]);
    };
    expect(await sorted('ASC')).toEqual(['-3', '1', '2', '3', '10', '21']);
    expect(await sorted('DESC')).toEqual(['21', '10', '3', '2', '1', '-3']);
  });

  /** Every create and update call's number fields (and number-like text), with the body key that sends them. */
  const numberFields = registry.resources.flatMap((r) =>
    Object.entries(r.dialogs).flatMap(([type, d]) =>
      d.kind === 'create' || d.kind === 'update'
        ? pickedFields(r, d)
            .filter((f: FieldDef) => (f.kind === 'number' && !f.choices) || f.sortAs === 'number')
            .map((f) => ({ r, type, call: d.call, f }))
        : [],
    ),
  );

  it('has number fields in dialogs (banners’ position, home sections’ order, a category’s order)', () => {
    const names = numberFields.map(({ type, f }) => `${type}.${f.name}`);
    expect(names).toEqual(expect.arrayContaining(['add-banner.position', 'update-banner.position', 'updateHomeSection.order', 'updateCategory.order']));
  });

  it.each(numberFields.map((x) => [`${x.type}.${x.f.name}`, x] as const))('%s says what is wrong with text and fractions', async (_name, { r, type, call, f }) => {
    const { method, path } = parseCall(call);
    const label = labelOf(f);
    // As a role that may open the dialog (the admin where it may); an owned record is the signer's own,
    // since another's (or none) answers 404 before its body is judged.
    const access = dialogAccess(r, r.dialogs[type]);
    const role = access === 'signedIn' || access.includes('admin') ? 'admin' : access[0];
    const cookie = await server.login(role);
    let id = 'a'.repeat(24);
    if (r.access.owner && !r.access.owner.via && path.includes('{id}')) {
      const me = (await server.api('GET', '/getcurrentuser', { cookie })).body.id;
      const now = new Date().toISOString();
      id = newId();
      await server.db.insertInto(r.name).values({ id, [r.access.owner.field]: me, createdAt: now, updatedAt: now }).execute();
    }
    const send = async (value: unknown) => {
      const res = await server.api(method, path.replace('{id}', id), { cookie, body: { [f.name]: value } });
      expect(res.status).toBe(400);
      return res.body.errors?.[f.name] as string[];
    };
    const asText = f.storage === 'text';
    expect(await send(asText ? 'abc' : 'abc')).toEqual([`${label} must be a number.`]);
    if (asText || f.storage === 'integer') expect(await send(asText ? '1.5' : 1.5)).toEqual([`${label} must be a whole number.`]);
    if (!asText) expect(await send(true)).toEqual([`${label} must be a number.`]);
  });
});
