/** The manifest DSL: builders, the checks `defineResource` and the registry make, and derived schemas. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  bodySchema,
  createRegistry,
  defineResource,
  dialog,
  field,
  fillPath,
  formJsonSchema,
  issuesByField,
  parseCall,
  read,
  routerPath,
  rules,
} from '../../src/manifest/index.ts';

const base = {
  name: 'things',
  label: 'Thing',
  plural: 'Things',
  access: { read: 'signedIn', write: ['admin'] } as const,
  fields: [field.text('name', { rule: rules.text(1, 'Name is required!'), list: true }), field.number('rank')],
};

describe('manifest DSL', () => {
  it('fills defaults: title, sort, storage by kind', () => {
    const r = defineResource(base);
    expect(r.title).toBe('name');
    expect(r.sort).toEqual({ field: 'name', order: 'ASC' });
    expect(r.fields.map((f) => f.storage)).toEqual(['text', 'real']);
    expect(field.password('password')).toMatchObject({ kind: 'password', secret: true });
    expect(field.reference('parent', 'things')).toMatchObject({ filterable: true, reference: 'things' });
    expect(field.slug('slug', 'name')).toMatchObject({ unique: true, from: 'name' });
  });

  it('refuses manifests that contradict themselves', () => {
    expect(() => defineResource({ ...base, dialogs: { createThing: dialog.create({ pick: ['nope'], call: 'POST /things', success: 's', failure: 'f' }) } })).toThrow(/unknown field 'nope'/);
    expect(() => defineResource({ ...base, dialogs: { updateThing: dialog.update({ pick: ['name'], call: 'PATCH /things', success: 's', failure: 'f' }) } })).toThrow(/no \{id\}/);
    expect(() => defineResource({ ...base, reads: { x: read.list('POST /things' as never) } })).toThrow(/not a GET/);
    expect(() => defineResource({ ...base, fields: [...base.fields, field.text('id')] })).toThrow(/implicit/);
    expect(() => defineResource({ ...base, fields: [field.slug('slug', 'missing')] , title: 'slug'})).toThrow(/unknown field/);
    // A list's default order on a field the server does not sort by would answer every load 400.
    const listed = { ...base, reads: { list: read.list('GET /things') } };
    expect(() => defineResource({ ...listed, sort: { field: 'rank', order: 'ASC' } })).toThrow(/sort field 'rank' is not sortable/);
    expect(defineResource({ ...listed, fields: [base.fields[0], field.number('rank', { sortable: true })], sort: { field: 'rank', order: 'ASC' } }).sort.field).toBe('rank');
  });

  it('the registry refuses unknown references and a call or dialog type declared twice', () => {
    const a = defineResource({ ...base, reads: { list: read.list('GET /things') } });
    const b = defineResource({ ...base, name: 'others', reads: { list: read.list('GET /things') } });
    expect(() => createRegistry([a, b])).toThrow(/GET \/things is declared by both/);
    const orphan = defineResource({ ...base, name: 'orphans', fields: [...base.fields, field.reference('parent', 'ghosts')] });
    expect(() => createRegistry([orphan])).toThrow(/unknown 'ghosts'/);
    const d1 = defineResource({ ...base, dialogs: { deleteThing: dialog.remove({ call: 'DELETE /things/{id}', missing: 'm', success: 's' }) } });
    const d2 = defineResource({ ...base, name: 'twins', dialogs: { deleteThing: dialog.remove({ call: 'DELETE /twins/{id}', missing: 'm', success: 's' }) } });
    expect(() => createRegistry([d1, d2])).toThrow(/declared twice/);
  });

  it('remove dialogs default to the specification failure text', () => {
    expect(dialog.remove({ call: 'DELETE /x/{id}', missing: 'X is missing.', success: 'ok' }).failure).toBe('Someting went wrong.');
  });

  it('parses and fills calls', () => {
    expect(parseCall('GET /categories/create-product?slug')).toEqual({ method: 'GET', path: '/categories/create-product', params: [] });
    expect(parseCall('PATCH /categories/{id}')).toEqual({ method: 'PATCH', path: '/categories/{id}', params: ['id'] });
    expect(fillPath('/a/{id}/b', { id: 'x/y' })).toBe('/a/x%2Fy/b');
    expect(() => fillPath('/a/{id}', {})).toThrow(/Missing path parameter 'id'/);
    expect(routerPath('/categories/{slug}/slug')).toBe('/categories/:slug/slug');
    expect(() => parseCall('FETCH /x' as never)).toThrow(/Malformed/);
  });

  it('derives a strict body schema and a JSON Schema form from the same rules', () => {
    const r = defineResource({
      ...base,
      fields: [...base.fields, field.select('status', ['PUBLISHED', 'DRAFT'], { rule: z.enum(['PUBLISHED', 'DRAFT']), hint: 'h' })],
      dialogs: { createThing: dialog.create({ pick: ['name', 'status'], call: 'POST /things', success: 's', failure: 'f' }) },
    });
    const d = r.dialogs.createThing;
    const parsed = bodySchema(r, d).safeParse({ name: '', status: 'X', extra: true });
    expect(parsed.success).toBe(false);
    expect(issuesByField(parsed.error!)).toEqual({
      name: ['Name is required!'],
      status: [expect.stringContaining('PUBLISHED')],
      extra: ["Field 'extra' is not allowed."],
    });
    const json = formJsonSchema(r, d) as { properties: Record<string, Record<string, unknown>>; required: string[] };
    expect(json.properties.name).toMatchObject({ type: 'string', minLength: 1, title: 'Name' });
    expect(json.properties.status).toMatchObject({ enum: ['PUBLISHED', 'DRAFT'], description: 'h' });
    expect(json.required).toEqual(['name', 'status']);
  });
});

describe('call URLs', () => {
  it('puts admin paths under the admin base and keeps /api paths as declared', async () => {
    const { urlOf } = await import('../../src/manifest/index.ts');
    expect(urlOf('/categories/{id}')).toBe('/api/admin/v1/categories/{id}');
    expect(urlOf('/api/home-sections/reorder')).toBe('/api/home-sections/reorder');
  });
});
