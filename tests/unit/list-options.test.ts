/**
 * `timestamps: 'shown'` (src/manifest/list.ts): a resource whose own date gives the order and range keeps
 * its timestamps as columns, and neither the list, the server nor the indexes sort or range by them. The audit log says so: every write appends an entry, and each index is kept up by every write.
 */
import { describe, expect, it } from 'vitest';
import { registry } from '../../resources/index.ts';
import { defineResource, field, listFields, listOptions } from '../../src/manifest/index.ts';
import { indexesOf } from '../../src/server/db/tables.ts';

const things = (timestamps?: 'sortable' | 'shown') =>
  defineResource({
    name: 'things',
    label: 'Thing',
    plural: 'Things',
    title: 'at',
    sort: { field: 'at', order: 'DESC' },
    access: { read: ['admin'], write: ['admin'] },
    ...(timestamps ? { timestamps } : {}),
    fields: [field.text('at', { list: true, display: 'datetime', filterable: true }), field.text('kind', { list: true, filterable: true, sortable: false })],
  });

describe('timestamps', () => {
  it('by default every list sorts and ranges by createdAt and updatedAt, each with its index', () => {
    expect(listOptions(things())).toMatchObject({ sorts: ['id', 'at', 'createdAt', 'updatedAt'], ranges: ['at', 'createdAt', 'updatedAt'] });
    // A filter is indexed under the list's first sort only (issue 54: the shapes lists run, not every pairing).
    expect(indexesOf(things()).map((i) => i.name)).toEqual(['things_at_id_idx', 'things_createdAt_id_idx', 'things_updatedAt_id_idx', 'things_kind_at_id_idx']);
  });

  it("'shown': still columns, no sort, range or index by them; the declared date sorts and ranges", () => {
    const r = things('shown');
    const options = listOptions(r);
    expect(options.sorts).toEqual(['id', 'at']);
    expect(options.ranges).toEqual(['at']);
    expect(listFields(r).map((f) => f.name)).toEqual(['at', 'kind', 'createdAt', 'updatedAt']);
    expect(indexesOf(r).map((i) => i.name)).toEqual(['things_at_id_idx', 'things_kind_at_id_idx']);
  });

  it('the audit log sorts and ranges by when only: one index of when, and one of each filter under it', () => {
    const audit = registry.resource('auditLog');
    expect(listOptions(audit)).toMatchObject({ sorts: ['id', 'at'], ranges: ['at'] });
    expect(indexesOf(audit)).toHaveLength(1 + listOptions(audit).filters.length);
  });
});

describe('indexes from the shapes lists run (issue 54)', () => {
  const products = registry.resource('products');
  const names = indexesOf(products).map((i) => i.name);
  const { sorts, filters } = listOptions(products);

  it("every sort has its index; a filter has two, under the list's first sort (the id) and its title, not one per sort", () => {
    for (const sort of sorts.filter((s) => s !== 'id' && s !== 'slug')) expect(names.some((n) => n.startsWith(`products_${sort}_id`) || n.startsWith(`products_${sort}AsNumber_id`))).toBe(true);
    expect(products.sort.field).toBe('id');
    for (const filter of filters.filter((f) => f !== 'sellerId'))
      expect(names.filter((n) => n.startsWith(`products_${filter}_`)).sort()).toEqual([`products_${filter}_id_idx`, `products_${filter}_${products.title}_id_idx`]);
  });

  it("the seller's reach (its own products) is indexed under every sort: a seller's list is filtered so on every request", () => {
    for (const sort of sorts.filter((s) => s !== 'id' && s !== 'slug'))
      expect(names.some((n) => n.startsWith(`products_sellerId_${sort}_id`) || n.startsWith(`products_sellerId_${sort}AsNumber_id`))).toBe(true);
  });

  it('half or fewer of the indexes every filter × every sort made (55 on products)', () => {
    expect(names.length).toBeLessThanOrEqual(27);
  });
});
