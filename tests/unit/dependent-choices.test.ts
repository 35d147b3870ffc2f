/**
 * Dependent references (`dependsOn`, src/manifest/dependent.ts): the checks a declaration must pass,
 * the messages made from the labels, the form's rule that a changed parent empties the branch below it,
 * and what the products' category levels declare.
 */
import { describe, expect, it } from 'vitest';
import {
  chooseFirstMessage,
  clearDependents,
  createRegistry,
  defineResource,
  field,
  mismatchMessage,
  rules,
  type FieldDef,
} from '../../src/manifest/index.ts';
import { registry } from '../../resources/index.ts';
import { buildUiSchema } from '../../src/client/dialogs/ui-schema.ts';
import { formJsonSchema } from '../../src/manifest/index.ts';

const access = { read: 'signedIn', write: ['admin'] } as const;
const name = field.text('name', { rule: rules.text(1, 'Name is required!') });
const levels = (dependsOn: FieldDef['dependsOn'] = { field: 'top', via: 'top' }) => [
  defineResource({ name: 'tops', label: 'Top', plural: 'Tops', access, fields: [name] }),
  defineResource({ name: 'middles', label: 'Middle', plural: 'Middles', access, fields: [name, field.reference('top', 'tops')] }),
  defineResource({
    name: 'picks',
    label: 'Pick',
    plural: 'Picks',
    access,
    fields: [name, field.reference('top', 'tops'), field.reference('middle', 'middles', { dependsOn })],
  }),
];

describe('dependent references', () => {
  it('refuses declarations that cannot hold', () => {
    expect(() => createRegistry(levels())).not.toThrow();
    const picks = (f: FieldDef[]) => defineResource({ name: 'picks', label: 'Pick', plural: 'Picks', access, fields: [name, ...f] });
    expect(() => picks([field.text('middle', { dependsOn: { field: 'name', via: 'top' } })])).toThrow(/only a reference depends/);
    expect(() => picks([field.reference('middle', 'middles', { dependsOn: { field: 'name', via: 'top' } })])).toThrow(/not another reference/);
    expect(() => picks([field.reference('middle', 'middles', { dependsOn: { field: 'middle', via: 'top' } })])).toThrow(/not another reference/);
    // The target's `via` must be a filterable reference to what the parent field holds.
    expect(() => createRegistry(levels({ field: 'top', via: 'name' }))).toThrow(/'name' of middles is not a filterable reference/);
  });

  it('makes its messages from the labels, or takes the declared ones', () => {
    const products = registry.resource('products');
    const f = (n: string) => products.fields.find((x) => x.name === n)!;
    expect(mismatchMessage(f('childCategory'), f('category'))).toBe('Child category is not under the category chosen.');
    expect(chooseFirstMessage(f('subCategory'), f('childCategory'))).toBe('Choose the child category first.');
    const city = field.reference('city', 'cities', { dependsOn: { field: 'country', via: 'country', mismatch: 'Not there.', first: 'Country first.' } });
    expect([mismatchMessage(city, f('category')), chooseFirstMessage(city, f('category'))]).toEqual(['Not there.', 'Country first.']);
  });

  it("declares each of a product's category levels under the one above", () => {
    const products = registry.resource('products');
    const declared = products.fields.filter((f) => f.dependsOn).map((f) => [f.name, f.dependsOn!.field, f.dependsOn!.via]);
    expect(declared).toEqual([
      ['childCategory', 'category', 'category'],
      ['subCategory', 'childCategory', 'category'],
      ['subChildCategory', 'subCategory', 'category'],
    ]);
  });

  it('empties the whole branch below a changed parent, and nothing else', () => {
    const fields = registry.resource('products').fields;
    const full = { name: 'Mug', category: 'c1', childCategory: 'k1', subCategory: 's1', subChildCategory: 'l1' };
    expect(clearDependents(fields, full, { ...full, category: 'c2' })).toEqual({ ...full, category: 'c2', childCategory: '', subCategory: '', subChildCategory: '' });
    expect(clearDependents(fields, full, { ...full, subCategory: 's2' })).toEqual({ ...full, subCategory: 's2', subChildCategory: '' });
    expect(clearDependents(fields, full, { ...full, name: 'Cup' })).toEqual({ ...full, name: 'Cup' });
    // Choosing a level for the first time, or a child under an unchanged parent, empties nothing.
    const start = { category: '', childCategory: '' };
    expect(clearDependents(fields, start, { ...start, category: 'c1' })).toEqual({ category: 'c1', childCategory: '' });
    expect(clearDependents(fields, full, { ...full, childCategory: 'k2' })).toEqual({ ...full, childCategory: 'k2', subCategory: '', subChildCategory: '' });
    // An option (`{ label, value }`) is emptied to nothing.
    const cityFields = [field.reference('country', 'countries'), field.reference('city', 'cities', { dependsOn: { field: 'country', via: 'country' } })];
    const opt = { country: { label: 'France', value: 'FR' }, city: { label: 'Paris', value: 'p' } };
    expect(clearDependents(cityFields, opt, { ...opt, country: { label: 'Germany', value: 'DE' } })).toEqual({ country: { label: 'Germany', value: 'DE' }, city: undefined });
  });

  it("tells the form's picker what it depends on, where the dialog picks the parent", () => {
    const products = registry.resource('products');
    const create = products.dialogs.createProduct;
    const ui = buildUiSchema(products, create, formJsonSchema(products, create) as Record<string, unknown>);
    expect(ui.childCategory['ui:options']).toMatchObject({
      reference: 'childCategories',
      dependsOn: { field: 'category', via: 'category', first: 'Choose the category first.' },
    });
    expect(ui.category['ui:options']).not.toHaveProperty('dependsOn');
  });
});
