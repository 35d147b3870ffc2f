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
  it('by default every list sorts and ranges by createdAt and updatedAt, each with its indexes', () => {
    expect(listOptions(things())).toMatchObject({ sorts: ['id', 'at', 'createdAt', 'updatedAt'], ranges: ['at', 'createdAt', 'updatedAt'] });
    expect(indexesOf(things()).map((i) => i.name)).toContain('things_kind_createdAt_id_idx');
  });

  it("'shown': still columns, no sort, range or index by them; the declared date sorts and ranges", () => {
    const r = things('shown');
    const options = listOptions(r);
    expect(options.sorts).toEqual(['id', 'at']);
    expect(options.ranges).toEqual(['at']);
    expect(listFields(r).map((f) => f.name)).toEqual(['at', 'kind', 'createdAt', 'updatedAt']);
    expect(indexesOf(r).map((i) => i.name)).toEqual(['things_at_id_idx', 'things_kind_id_idx', 'things_kind_at_id_idx']);
  });

  it('the audit log sorts and ranges by when only: each of its filters has two indexes, not four', () => {
    const audit = registry.resource('auditLog');
    expect(listOptions(audit)).toMatchObject({ sorts: ['id', 'at'], ranges: ['at'] });
    expect(indexesOf(audit)).toHaveLength(1 + 2 * listOptions(audit).filters.length);
  });
});
