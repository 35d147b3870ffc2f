/**
 * Line items (`field.items`) through the real HTTP API, on every engine this machine has: a fixture
 * resource whose `lines` are typed sub-records kept in the child table `orderSheets_lines`, written with
 * their parent in one transaction, answered embedded in position order, recycled and restored with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { newId } from '../../src/server/db/id.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { LINE_MESSAGES, lineItemsRegistry, REFUSAL, REFUSED } from '../support/line-items-fixture.ts';

const CHILD = 'orderSheets_lines';
const unique = (prefix: string) => `${prefix} ${newId().slice(-10)}`;
const lines = [
  { sku: 'B-2', quantity: 2, note: 'second in name, first in order', gift: true },
  { sku: 'A-1', quantity: 1 },
  { sku: 'C-3', quantity: 7, note: 'third', gift: false },
];

describe.each(engines)('line items (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer({ engine, registry: lineItemsRegistry });
    admin = await server.login('admin');
  });
  afterAll(() => server?.close());

  const call = (method: string, path: string, body?: unknown) => server.api(method, path, { cookie: admin, body });
  const stored = async (parentId: string) =>
    server.db.selectFrom(CHILD).selectAll().where('parentId', '=', parentId).orderBy('position').execute();
  const create = async (name: string, items: unknown[] = lines) => {
    const res = await call('POST', '/order-sheets', { name, lines: items });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; lines: unknown[] };
  };

  it('creates a sheet with its lines, and answers them embedded in their order', async () => {
    const name = unique('Sheet');
    const made = await create(name);
    expect(made.lines).toEqual(lines);
    const one = await call('GET', `/order-sheets/${made.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: made.id, name, lines });
    // Kept in the child table, one row per line, keyed by the parent, in position order.
    expect((await stored(made.id)).map((row) => [row.sku, Number(row.position)])).toEqual([
      ['B-2', 0],
      ['A-1', 1],
      ['C-3', 2],
    ]);
    // A list answers each record's lines too.
    const listed = await server.api('GET', '/order-sheets', { cookie: admin, query: { filter: { q: name } } });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([expect.objectContaining({ id: made.id, lines })]);
  });

  it('keeps the lines in a child table indexed on (parentId, position), made once however often migrations run', async () => {
    await migrate({ db: server.db, engine, close: async () => {} }, lineItemsRegistry);
    const { rows } =
      engine === 'postgres'
        ? await sql<{ name: string; definition: string }>`select indexname as name, indexdef as definition from pg_indexes where schemaname = current_schema() and tablename = ${CHILD}`.execute(server.db)
        : await sql<{ name: string; definition: string }>`select name, sql as definition from sqlite_master where type = 'index' and tbl_name = ${CHILD}`.execute(server.db);
    const index = rows.find((row) => row.name === `${CHILD}_parentId_position_idx`);
    expect(index?.definition.replace(/"/g, '')).toMatch(/\(parentId, position\)/);
  });

  it('describes the lines as an array of their sub-fields in the OpenAPI document', async () => {
    const doc = (await call('GET', '/api/openapi.json')).body;
    expect(doc.components.schemas.orderSheets.properties.lines).toMatchObject({
      type: 'array',
      items: { type: 'object', properties: { sku: { type: ['string', 'null'] }, quantity: { type: ['integer', 'null'] }, gift: { type: ['boolean', 'null'] } } },
    });
    const body = doc.paths['/api/admin/v1/order-sheets'].post.requestBody.content['application/json'].schema;
    expect(JSON.stringify(body)).toContain('"minItems":1');
    expect(JSON.stringify(body)).toContain('"maxItems":5');
  });

  it("refuses a bad line with 400 and the line's own field message, writing nothing", async () => {
    const name = unique('Bad');
    const res = await call('POST', '/order-sheets', { name, lines: [{ sku: 'A', quantity: 1 }, { sku: '', quantity: 0 }, { sku: 'X', price: 3 }] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toMatchObject({
      'lines.1.sku': [LINE_MESSAGES.sku],
      'lines.1.quantity': [LINE_MESSAGES.quantityMin],
      'lines.2.quantity': [LINE_MESSAGES.quantity],
      'lines.2.price': ["Field 'price' is not allowed."],
    });
    expect((await call('POST', '/order-sheets', { name, lines: [] })).body.errors).toEqual({ lines: [LINE_MESSAGES.fewer] });
    expect((await call('POST', '/order-sheets', { name })).body.errors).toEqual({ lines: [LINE_MESSAGES.fewer] });
    const six = Array.from({ length: 6 }, (_, i) => ({ sku: `S${i}`, quantity: 1 }));
    expect((await call('POST', '/order-sheets', { name, lines: six })).body.errors).toEqual({ lines: [LINE_MESSAGES.more] });
    expect((await call('POST', '/order-sheets', { name, lines: 'many' })).status).toBe(400);
    expect(await server.db.selectFrom('orderSheets').select('id').where('name', '=', name).execute()).toEqual([]);
  });

  it('replaces the lines on an update that sends them, keeps them on one that does not', async () => {
    const made = await create(unique('Edit'));
    // Read once: the answer is cached, and the update must drop it.
    expect((await call('GET', `/order-sheets/${made.id}`)).body.lines).toEqual(lines);
    const replaced = [{ sku: 'Z-9', quantity: 9 }];
    const updated = await call('PATCH', `/order-sheets/${made.id}`, { name: 'Edited', lines: [{ sku: 'Z-9', quantity: 9 }] });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.lines).toEqual(replaced);
    expect((await call('GET', `/order-sheets/${made.id}`)).body).toMatchObject({ name: 'Edited', lines: replaced });
    expect(await stored(made.id)).toHaveLength(1);

    const renamed = await call('PATCH', `/order-sheets/${made.id}`, { name: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.lines).toEqual(replaced);
    expect((await call('GET', `/order-sheets/${made.id}`)).body).toMatchObject({ name: 'Renamed', lines: replaced });

    // The audit log keeps the lines before and after.
    const entries = await server.db.selectFrom('auditLog').selectAll().where('recordId', '=', made.id).where('action', '=', 'update').execute();
    const changes = entries.map((e) => JSON.parse(String(e.changes)));
    expect(changes).toContainEqual({ name: expect.anything(), lines: { before: lines, after: replaced } });
  });

  it('deletes the lines with their sheet', async () => {
    const made = await create(unique('Gone'));
    expect(await stored(made.id)).toHaveLength(3);
    expect((await call('DELETE', `/order-sheets/${made.id}`)).status).toBe(200);
    expect((await call('GET', `/order-sheets/${made.id}`)).status).toBe(404);
    expect(await stored(made.id)).toEqual([]);
  });

  it('recycles the lines with their sheet, and a restore writes them back', async () => {
    const name = unique('Binned');
    const made = await create(name);
    expect((await call('DELETE', `/order-sheets/${made.id}/recycle`)).status).toBe(200);
    expect(await stored(made.id)).toEqual([]);
    const entry = await server.db.selectFrom('recycleBin').selectAll().where('recordId', '=', made.id).executeTakeFirstOrThrow();
    expect(JSON.parse(String(entry.data))).toMatchObject({ name, lines });
    const restored = await call('POST', `/recycle-bin/${entry.id}/restore`);
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body).toMatchObject({ id: made.id, lines });
    expect((await call('GET', `/order-sheets/${made.id}`)).body).toMatchObject({ id: made.id, name, lines });
    expect(await stored(made.id)).toHaveLength(3);
  });

  it('rolls the sheet and its lines back when a hook fails after they were written', async () => {
    const refused = await call('POST', '/order-sheets', { name: REFUSED, lines });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(REFUSAL);
    expect(await server.db.selectFrom('orderSheets').select('id').where('name', '=', REFUSED).execute()).toEqual([]);
    const orphans = await server.db
      .selectFrom(CHILD)
      .select('id')
      .where('parentId', 'not in', server.db.selectFrom('orderSheets').select('id'))
      .execute();
    expect(orphans).toEqual([]);

    // An update refused after its lines were replaced keeps the old lines.
    const made = await create(unique('Kept'));
    const update = await call('PATCH', `/order-sheets/${made.id}`, { name: REFUSED, lines: [{ sku: 'N', quantity: 1 }] });
    expect(update.status).toBe(400);
    expect((await call('GET', `/order-sheets/${made.id}`)).body.lines).toEqual(lines);
    expect(await stored(made.id)).toHaveLength(3);
  });
});
