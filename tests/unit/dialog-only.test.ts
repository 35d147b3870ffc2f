/**
 * A form dialog's `only` (src/manifest/types.ts): the one declaration from which the form's select and
 * the route's rule both read which values of a select field the dialog takes. Checked when the manifest
 * loads; the body rule answers a value the field allows but the dialog does not with the dialog's message,
 * anything else with the field's own; the form's JSON Schema offers the values taken alone.
 */
import { z } from 'zod';
import { bodySchema, defineResource, dialog, field, formJsonSchema, issuesByField, type DialogDef } from '../../src/manifest/index.ts';

const KINDS = ['big', 'small', 'odd'] as const;
const things = (createThing: DialogDef) =>
  defineResource({
    name: 'things',
    label: 'Thing',
    plural: 'Things',
    access: { read: ['admin'], write: ['admin'] },
    fields: [
      field.text('name'),
      field.select('kind', KINDS, { rule: z.enum(KINDS, { error: 'Kind is required!' }), choices: KINDS.map((k) => ({ value: k, label: k.toUpperCase() })) }),
    ],
    dialogs: { createThing },
  });
const create = (only: Record<string, { values: readonly [string, ...string[]]; message: string }>, pick = ['name', 'kind']) =>
  dialog.create({ pick, only, call: 'POST /things', success: 'ok', failure: 'no' });

describe('only', () => {
  it('narrows the body rule, with its message for the values left out', () => {
    const r = things(create({ kind: { values: ['big', 'small'], message: 'Odd things are made elsewhere.' } }));
    const schema = bodySchema(r, r.dialogs.createThing!);
    expect(schema.safeParse({ name: 'a', kind: 'big' }).success).toBe(true);
    const judged = (kind: unknown) => issuesByField(schema.safeParse({ name: 'a', kind }).error!).kind;
    expect(judged('odd')).toEqual(['Odd things are made elsewhere.']);
    expect(judged('nothing')).toEqual(['Kind is required!']);
    expect(judged(undefined)).toEqual(['Kind is required!']);
  });

  it('offers the values taken alone, with their labels, in the form', () => {
    const r = things(create({ kind: { values: ['small', 'big'], message: 'no' } }));
    const kind = (formJsonSchema(r, r.dialogs.createThing!).properties as Record<string, { oneOf: unknown[] }>).kind;
    expect(kind.oneOf).toEqual([
      { const: 'big', title: 'BIG' },
      { const: 'small', title: 'SMALL' },
    ]);
  });

  it('is refused when it names a field not picked, not a select, or a value the field does not allow', () => {
    expect(() => things(create({ kind: { values: ['big'], message: 'no' } }, ['name']))).toThrow(/only 'kind' is not a picked select field/);
    expect(() => things(create({ name: { values: ['big'], message: 'no' } }))).toThrow(/only 'name' is not a picked select field/);
    expect(() => things(create({ kind: { values: ['huge'], message: 'no' } }))).toThrow(/offers 'huge'/);
  });
});
