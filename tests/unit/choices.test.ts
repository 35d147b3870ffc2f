/**
 * Declared words for values (`choices`) and a default record's requirement (`defaultRecord.requires`)
 * agree with the rules they describe, for every manifest; and the form's JSON Schema makes a select of
 * every enumeration zod can write (a union of literals, an enum, nullable or optional), titled by the
 * choices.
 */
import { z } from 'zod';
import { registry } from '../../resources/index.ts';
import { choiceOf, formJsonSchema } from '../../src/manifest/schema.ts';
import { defineResource, dialog, field, ruleOf, type FieldDef } from '../../src/manifest/index.ts';

const withChoices = registry.resources.flatMap((r) => r.fields.filter((f) => f.choices).map((f) => [`${r.name}.${f.name}`, f] as const));

describe('declared choices', () => {
  it('some field declares them (the checks below are not empty)', () => expect(withChoices.length).toBeGreaterThan(0));

  it.each(withChoices)('%s: every value is one its rule takes, once, with a label', (_name, f) => {
    const values = f.choices!.map((c) => c.value);
    expect(new Set(values).size).toBe(values.length);
    for (const c of f.choices!) {
      expect(c.label.trim()).not.toBe('');
      if (f.rule) expect(ruleOf(f).safeParse(c.value).success, `${String(c.value)}`).toBe(true);
    }
  });

  it('choiceOf finds a value as stored or as text', () => {
    const f = registry.resource('currencies').fields.find((x) => x.name === 'status')!;
    expect(choiceOf(f, 1)?.label).toBe('Active');
    expect(choiceOf(f, '0')?.label).toBe('Inactive');
    expect(choiceOf(f, 7)).toBeUndefined();
  });
});

describe('a default record requirement', () => {
  const cases = registry.resources.filter((r) => r.defaultRecord?.requires).map((r) => [r.name, r] as const);
  it.each(cases)('%s: names a field its rule lets hold the value, that an update dialog changes', (_name, r) => {
    const { field: name, value, refused, kept } = r.defaultRecord!.requires!;
    const f = r.fields.find((x) => x.name === name);
    expect(f).toBeDefined();
    expect(ruleOf(f!).safeParse(value).success).toBe(true);
    expect(Object.values(r.dialogs).some((d) => d.kind === 'update' && d.pick.includes(name))).toBe(true);
    expect(refused && kept).toBeTruthy();
  });
});

describe('enumerations in the form schema', () => {
  const make = (f: FieldDef) =>
    defineResource({
      name: 'things',
      label: 'Thing',
      plural: 'Things',
      access: { read: ['admin'], write: ['admin'] },
      fields: [field.text('name', { rule: z.string() }), f],
      dialogs: { createThing: dialog.create({ pick: ['name', f.name], call: 'POST /things', success: 's', failure: 'f' }) },
    });
  const propOf = (f: FieldDef) => {
    const r = make(f);
    return (formJsonSchema(r, r.dialogs.createThing) as { properties: Record<string, any> }).properties[f.name];
  };
  const choices = [
    { value: 1, label: 'Active' },
    { value: 0, label: 'Inactive' },
  ];

  it('a union of number literals is an integer select titled by the choices, in their order', () => {
    const p = propOf(field.number('status', { rule: z.union([z.literal(0), z.literal(1)]), choices, storage: 'integer' }));
    expect(p).toMatchObject({ type: 'integer', oneOf: [{ const: 1, title: 'Active' }, { const: 0, title: 'Inactive' }], title: 'Status' });
    expect(p.anyOf).toBeUndefined();
  });

  it('without choices the values are their own titles', () => {
    const p = propOf(field.number('level', { rule: z.union([z.literal(1), z.literal(2), z.literal(3)]), storage: 'integer' }));
    expect(p.oneOf).toEqual([1, 2, 3].map((v) => ({ const: v, title: String(v) })));
  });

  it('nullable and optional enumerations stay selects', () => {
    const nullable = propOf(field.number('n', { rule: z.union([z.literal(0), z.literal(1)]).nullable(), storage: 'integer' }));
    expect(nullable).toMatchObject({ type: ['integer', 'null'], oneOf: [{ const: 0 }, { const: 1 }] });
    const optional = propOf(field.text('o', { rule: z.enum(['A', 'B']).optional() }));
    expect(optional).toMatchObject({ type: 'string', enum: ['A', 'B'] });
  });

  it('a string enum with choices gets their titles; without, it stays an enum', () => {
    const titled = propOf(field.select('s', ['A', 'B'], { rule: z.enum(['A', 'B']), choices: [{ value: 'B', label: 'Bee' }] }));
    expect(titled).toMatchObject({ type: 'string', oneOf: [{ const: 'B', title: 'Bee' }, { const: 'A', title: 'A' }] });
    expect(titled.enum).toBeUndefined();
  });

  it('an enumeration inside an object or an array is mended too', () => {
    const p = propOf(field.text('o', { rule: z.object({ kind: z.union([z.literal('x'), z.literal('y')]), list: z.array(z.union([z.literal(1), z.literal(2)])) }) }));
    expect(p.properties.kind).toMatchObject({ type: 'string', oneOf: [{ const: 'x' }, { const: 'y' }] });
    expect(p.properties.list.items).toMatchObject({ type: 'integer', oneOf: [{ const: 1 }, { const: 2 }] });
  });
});
