/**
 * A default record's requirement (`defaultRecord.requires`: only an active currency can be the
 * default): "Make default" of a record without it is refused, and the default record cannot be
 * updated off it; both 400 `{ message, errors }` with the message under the field, nothing changed.
 * Generated from the registry, on every engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../resources/index.ts';
import { createSampler } from '../../src/domain/sample.ts';
import {
  parseCall,
  pickedFields,
  ruleOf,
  type CreateDialog,
  type FieldDef,
  type ResourceDef,
  type UpdateDialog,
} from '../../src/manifest/index.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

type Row = Record<string, unknown>;

const cases = registry.resources.filter((r) => r.defaultRecord?.requires);

/** A value the field's rule takes other than the required one (from its declared choices). */
function otherValue(r: ResourceDef): unknown {
  const { field, value } = r.defaultRecord!.requires!;
  const f = r.fields.find((x) => x.name === field)!;
  const other = f.choices?.map((c) => c.value).find((v) => v !== value && ruleOf(f).safeParse(v).success);
  if (other === undefined) throw new Error(`${r.name}: declare choices for '${field}' so the test knows another value`);
  return other;
}

describe.each(engines)('what a default record requires (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
  });
  afterAll(() => server?.close());

  it('currencies declare it (the checks below are not empty)', () => {
    expect(cases.map((r) => r.name)).toContain('currencies');
  });

  it.each(cases.map((r) => [r.name, r] as const))('%s', async (_name, r) => {
    const def = r.defaultRecord!;
    const { field, value, refused, kept } = def.requires!;
    const other = otherValue(r);
    const read = parseCall(def.read);
    const write = parseCall(def.write);
    const [updateType, update] = Object.entries(r.dialogs).find(([, d]) => d.kind === 'update' && d.pick.includes(field)) as [
      string,
      UpdateDialog,
    ];
    expect(updateType).toBeTruthy();
    const patch = parseCall(update.call);
    const row = async (id: string) => (await server.db.selectFrom(r.name).selectAll().where('id', '=', id).executeTakeFirst()) as Row;
    /** The update dialog's body for a stored row, as its form would send it, with `changes`. */
    const bodyOf = (stored: Row, changes: Row) =>
      Object.fromEntries(pickedFields(r, update).map((f) => [f.name, f.name in changes ? changes[f.name] : stored[f.name]]));
    const setDefault = (id: string) => server.api(write.method, write.path, { cookie: admin, body: { id } });
    const parents = new Map<string, Row | undefined>();
    for (const f of r.fields.filter((x) => x.kind === 'reference'))
      parents.set(f.name, await server.db.selectFrom(f.reference!).selectAll().limit(1).executeTakeFirst());
    const parentOf = (f: FieldDef) => String(parents.get(f.name)?.[f.referenceBy ?? 'id'] ?? '');
    const sampler = createSampler({ seed: 5, uniqueNames: true });
    const defaultId = async () => (await server.api(read.method, read.path, { cookie: admin })).body.id as string | null;

    // Two records made through the create dialog: one holding what the default requires, one set not to.
    const [, create] = Object.entries(r.dialogs).find(([, d]) => d.kind === 'create') as [string, CreateDialog];
    const made: Row[] = [];
    for (let i = 0; made.length < 2 && i < 20; i++) {
      const answer = await server.api(parseCall(create.call).method, parseCall(create.call).path, {
        cookie: admin,
        body: sampler.body(r, create, { reference: parentOf }),
      });
      if (answer.status === 201) made.push(answer.body);
    }
    const [holding, notHolding] = made as [Row, Row];
    await server.db.updateTable(r.name).set({ [field]: value }).where('id', '=', holding.id as string).execute();
    await server.db.updateTable(r.name).set({ [field]: other }).where('id', '=', notHolding.id as string).execute();

    // Making one without it the default: 400 under `id`, and the default stays.
    expect((await setDefault(holding.id as string)).status).toBe(200);
    const refusedAnswer = await setDefault(notHolding.id as string);
    expect(refusedAnswer).toMatchObject({ status: 400, body: { message: refused, errors: { id: [refused] } } });
    expect(await defaultId()).toBe(holding.id);

    // Taking it from the default record: 400 under the field, and the record is as it was.
    const before = await row(holding.id as string);
    const path = patch.path.replace('{id}', String(holding.id));
    const keptAnswer = await server.api(patch.method, path, { cookie: admin, body: bodyOf(before, { [field]: other }) });
    expect(keptAnswer).toMatchObject({ status: 400, body: { message: kept, errors: { [field]: [kept] } } });
    expect(await row(holding.id as string)).toEqual(before);

    // Other updates of the default record, and the same change on another record, go through.
    expect((await server.api(patch.method, path, { cookie: admin, body: bodyOf(before, {}) })).status).toBe(200);
    const elsewhere = await server.api(patch.method, patch.path.replace('{id}', String(notHolding.id)), {
      cookie: admin,
      body: bodyOf(await row(notHolding.id as string), {}),
    });
    expect(elsewhere.status).toBe(200);
    expect(String((await row(notHolding.id as string))[field])).toBe(String(other));
  });
});
