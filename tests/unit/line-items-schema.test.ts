/**
 * The body rule and form schema of an `items` field (`field.items`): an array of strict objects of the
 * sub-fields' own rules, judged alike by the form and the server, its messages keyed by item
 * (`lines.1.quantity`); and the manifest checks of its declaration.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bodySchema, defineResource, field, formJsonSchema, issuesByField } from '../../src/manifest/index.ts';
import { LINE_MESSAGES, orderSheets } from '../support/line-items-fixture.ts';

const create = orderSheets.dialogs.createOrderSheet;
const update = orderSheets.dialogs.updateOrderSheet;
const errorsOf = (dialog: typeof create, body: unknown) => {
  const result = bodySchema(orderSheets, dialog).safeParse(body);
  return result.success ? undefined : issuesByField(result.error);
};

describe('items field rule', () => {
  it('takes a list of items holding their sub-fields', () => {
    const body = { name: 'Sheet', lines: [{ sku: 'A', quantity: 2, gift: true }, { sku: 'B', quantity: 1, note: 'n' }] };
    expect(bodySchema(orderSheets, create).parse(body)).toEqual(body);
  });

  it("answers a bad item's messages under its index and sub-field", () => {
    expect(errorsOf(create, { name: 'Sheet', lines: [{ sku: 'A', quantity: 1 }, { sku: '', quantity: 1.5 }, { quantity: 0, extra: 1 }] })).toEqual({
      'lines.1.sku': [LINE_MESSAGES.sku],
      'lines.1.quantity': ['Quantity must be a whole number.'],
      'lines.2.sku': [LINE_MESSAGES.sku],
      'lines.2.quantity': [LINE_MESSAGES.quantityMin],
      'lines.2.extra': ["Field 'extra' is not allowed."],
    });
    expect(errorsOf(create, { name: 'Sheet', lines: ['x'] })).toEqual({ 'lines.0': ['Each of the lines must be an object.'] });
  });

  it('holds the list to min and max with their messages; an update may leave it out', () => {
    expect(errorsOf(create, { name: 'Sheet', lines: [] })).toEqual({ lines: [LINE_MESSAGES.fewer] });
    expect(errorsOf(create, { name: 'Sheet' })).toEqual({ lines: [LINE_MESSAGES.fewer] });
    const six = Array.from({ length: 6 }, () => ({ sku: 'A', quantity: 1 }));
    expect(errorsOf(create, { name: 'Sheet', lines: six })).toEqual({ lines: [LINE_MESSAGES.more] });
    expect(errorsOf(update, { name: 'Sheet' })).toBeUndefined();
    expect(errorsOf(update, { name: 'Sheet', lines: [] })).toEqual({ lines: [LINE_MESSAGES.fewer] });
  });

  it('keys issues outside lists by their field, as before', () => {
    const rule = z.strictObject({ country: z.strictObject({ label: z.string(), value: z.string() }) });
    const result = rule.safeParse({ country: { label: 1, value: 'x' } });
    expect(issuesByField(result.error!)).toEqual({ country: ['Invalid input: expected string, received number'] });
  });

  it('gives the form an array of titled sub-fields, bounded as the rule is', () => {
    const schema = formJsonSchema(orderSheets, create) as { properties: Record<string, any>; required: string[] };
    const lines = schema.properties.lines;
    expect(lines).toMatchObject({ type: 'array', title: 'Lines', minItems: 1, maxItems: 5 });
    expect(lines.items).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['sku', 'quantity'],
      properties: { sku: { type: 'string', title: 'SKU' }, quantity: { type: 'integer', title: 'Quantity' }, gift: { type: 'boolean', title: 'Gift' } },
    });
    expect(schema.required).toContain('lines');
    expect((formJsonSchema(orderSheets, update) as { required?: string[] }).required ?? []).not.toContain('lines');
  });

  it('refuses a declaration it cannot keep', () => {
    const base = { name: 'bad', label: 'Bad', plural: 'Bads', access: { read: ['admin'], write: ['admin'] } } as const;
    expect(() => defineResource({ ...base, fields: [field.text('name'), field.items('lines', { fields: [] })] })).toThrow(/declares no fields/);
    expect(() =>
      defineResource({ ...base, fields: [field.text('name'), field.items('lines', { fields: [field.items('deeper', { fields: [field.text('x')] })] })] }),
    ).toThrow(/cannot be a items/);
    expect(() => defineResource({ ...base, fields: [field.text('name'), field.items('lines', { fields: [field.text('position')] })] })).toThrow(/is taken/);
  });
});
