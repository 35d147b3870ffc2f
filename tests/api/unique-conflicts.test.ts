/**
 * A value another record already holds is refused 409 in the 400s' shape, naming the field:
 * `{ message, errors: { field: [message] } }`, so the dialog shows it under that field. Generated
 * from the registry: every unique field any create dialog picks, on every engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../resources/index.ts';
import { createSampler } from '../../src/domain/sample.ts';
import { allows, dialogAccess, labelOf, parseCall, pickedFields, type CreateDialog, type FieldDef } from '../../src/manifest/index.ts';
import { newId } from '../../src/server/db/id.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

type Row = Record<string, unknown>;

/**
 * Each create dialog the admin may send with each unique field it picks that the writer chooses (not a
 * generated slug). A dialog of another role only (a seller's payout request, for its own paid order)
 * needs records of that role's: its test proves its conflict (tests/api/payouts.test.ts).
 */
const cases = registry.resources.flatMap((r) =>
  Object.entries(r.dialogs).flatMap(([type, d]) =>
    d.kind === 'create' && allows(dialogAccess(r, d), 'admin')
      ? pickedFields(r, d)
          .filter((f) => f.unique && f.kind !== 'slug')
          .map((f) => ({ label: `${type}.${f.name}`, r, d, f }))
      : [],
  ),
);

describe.each(engines)('a duplicate unique value names its field (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer({ engine, catalogue: true });
    admin = await server.login('admin');
  });
  afterAll(() => server?.close());

  it('some create dialog picks a unique field (the checks below are not empty)', () => {
    expect(cases.map((c) => c.label)).toContain('createCountry.code');
  });

  it.each(cases.map((c) => [c.label, c] as const))('%s', async (_label, { r, d, f }) => {
    const parents = new Map<string, Row>();
    for (const ref of r.fields.filter((x) => x.kind === 'reference')) {
      const row = await server.db.selectFrom(ref.reference!).selectAll().limit(1).executeTakeFirst();
      if (row) parents.set(ref.name, row);
    }
    const reference = (ref: FieldDef) => String(parents.get(ref.name)?.[ref.referenceBy ?? 'id'] ?? newId());
    const sampler = createSampler({ seed: 41, uniqueNames: true });
    const { method, path } = parseCall((d as CreateDialog).call);
    const post = (body: Row) => server.api(method, path, { cookie: admin, body });

    // The first record: drawn values may meet a seeded one (a 2-letter country code), so draw again then.
    let first: Row | undefined;
    for (let i = 0; i < 20 && !first; i++) {
      const body = sampler.body(r, d, { reference });
      if ((await post(body)).status === 201) first = body;
    }
    expect(first, `${r.name}: no create succeeded`).toBeDefined();

    // Another record with that one value of the first: refused, and the refusal names the field.
    let answer: { status: number; body: any } | undefined;
    for (let i = 0; i < 20; i++) {
      answer = await post({ ...sampler.body(r, d, { reference }), [f.name]: first![f.name] });
      if (answer.status !== 409 || answer.body?.errors?.[f.name]) break; // another field clashed: draw again
    }
    const message = `A ${r.label.toLowerCase()} with this ${labelOf(f).toLowerCase()} already exists.`;
    expect(answer).toMatchObject({ status: 409, body: { message, errors: { [f.name]: [message] } } });
  });
});
