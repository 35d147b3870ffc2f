/**
 * Dependent references (`dependsOn`) through the real HTTP API on every engine: the server refuses a
 * choice that is not under the value of the field it depends on, from the declaration alone. A fixture
 * resource declared here with the DSL (a venue's city depends on its country, both as cities and
 * countries hold them: the country by its code) carries no hook, so only the declaration can refuse;
 * the products' category levels are declared the same way in resources/products.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistry, defineResource, dialog, field, read, rules } from '../../src/manifest/index.ts';
import { registry as resources } from '../../resources/index.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch, productBody, type Branch } from './fixtures/catalogue.ts';

const venues = defineResource({
  name: 'depVenues',
  label: 'Venue',
  plural: 'Venues',
  access: { read: ['admin'], write: ['admin'] },
  fields: [
    field.text('name', { rule: rules.text(1, 'Name is required!') }),
    field.reference('country', 'countries', { by: 'code', rule: rules.optionalText() }),
    field.reference('city', 'cities', {
      rule: rules.optionalText(),
      dependsOn: { field: 'country', via: 'country', mismatch: 'City is not in the country chosen.' },
    }),
  ],
  reads: { list: read.list('GET /dep-venues'), one: read.one('GET /dep-venues/{id}') },
  dialogs: {
    createDepVenue: dialog.create({ pick: ['name', 'country', 'city'], call: 'POST /dep-venues', success: 'Created.', failure: 'Unable to create venue!' }),
    updateDepVenue: dialog.update({ pick: ['name', 'country', 'city'], call: 'PATCH /dep-venues/{id}', success: 'Saved.', failure: 'Unable to update venue!' }),
  },
});
const registry = createRegistry([...resources.resources, venues]);

describe.each(engines)('dependent choices (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let paris: string;
  let lyon: string;
  let berlin: string;
  let branch: Branch;
  let elsewhere: Branch;
  let seller: { cookie: string };

  beforeAll(async () => {
    server = await startTestServer({ engine, registry });
    admin = await server.login('admin');
    const city = async (name: string, country: string) => {
      const res = await server.api('POST', '/cities', { cookie: admin, body: { name, country } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    };
    [paris, lyon, berlin] = [await city('Paris', 'FR'), await city('Lyon', 'FR'), await city('Berlin', 'DE')];
    branch = await makeBranch(server, admin);
    elsewhere = await makeBranch(server, admin);
    seller = await account(server, 'seller');
  });
  afterAll(() => server?.close());

  const venue = (body: Record<string, unknown>) => server.api('POST', '/dep-venues', { cookie: admin, body: { name: 'Hall', ...body } });

  it('takes a city of the country chosen, and no city at all', async () => {
    const res = await venue({ country: 'FR', city: paris });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ country: 'FR', city: paris });
    expect((await venue({ country: 'DE', city: '' })).status).toBe(201);
  });

  it('refuses a city of another country with 400 and the declared message, under the field', async () => {
    const res = await venue({ country: 'DE', city: paris });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ city: ['City is not in the country chosen.'] });
  });

  it('refuses a city without its country, and tells an unknown city it does not exist', async () => {
    const first = await venue({ country: '', city: berlin });
    expect(first.status).toBe(400);
    expect(first.body.errors).toEqual({ city: ['Choose the country first.'] });
    const unknown = await venue({ country: 'FR', city: 'ffffffffffffffffffffffff' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual({ city: ['City does not exist.'] });
  });

  it('judges an update that sends one of the pair with the other as stored', async () => {
    const id = (await venue({ country: 'FR', city: lyon })).body.id as string;
    // An update sends the name (its rule asks for it) and some of the pair.
    const patch = (body: Record<string, unknown>) => server.api('PATCH', `/dep-venues/${id}`, { cookie: admin, body: { name: 'Hall', ...body } });
    const moved = await patch({ country: 'DE' });
    expect(moved.status).toBe(400);
    expect(moved.body.errors).toEqual({ city: ['City is not in the country chosen.'] });
    expect((await patch({ city: berlin })).status).toBe(400);
    expect((await patch({ name: 'Renamed' })).status).toBe(200);
    expect((await patch({ name: 'Renamed', country: 'FR' })).status).toBe(200);
    const both = await patch({ name: 'Renamed', country: 'DE', city: berlin });
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect(both.body).toMatchObject({ country: 'DE', city: berlin, name: 'Renamed' });
  });

  it("refuses a product's child category under another category, by the levels' declaration", async () => {
    const res = await server.api('POST', '/products', { cookie: seller.cookie, body: productBody({ ...branch, childCategory: elsewhere.childCategory }) });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Validation failed.');
    expect(res.body.errors.childCategory).toEqual(['Child category is not under the category chosen.']);
    // The whole branch of the other category is taken; the first branch's lower levels are not under it.
    const mixed = await server.api('POST', '/products', { cookie: seller.cookie, body: productBody({ ...branch, category: elsewhere.category }) });
    expect(mixed.status).toBe(400);
    expect(mixed.body.errors.childCategory).toEqual(['Child category is not under the category chosen.']);
    expect((await server.api('POST', '/products', { cookie: seller.cookie, body: productBody(elsewhere) })).status).toBe(201);
  });
});
