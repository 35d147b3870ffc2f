/**
 * A resource declared only for the line-items tests, with the DSL as a manifest would: an order sheet
 * whose `lines` are typed sub-records (a SKU, a quantity, a note, a gift flag), kept in the child table
 * `orderSheets_lines`. Its `afterChange` hook refuses a sheet named REFUSED after the row and its items
 * were written, so the tests can see both rolled back. Used by tests/api, tests/unit and tests/ui.
 */
import { z } from 'zod';
import { createRegistry, defineResource, dialog, field, read, rules } from '../../src/manifest/index.ts';
import { HookRefusal } from '../../src/manifest/hooks.ts';
import { registry } from '../../resources/index.ts';

/** The sheet name the hook refuses (after the write), and what it answers. */
export const REFUSED = 'Refused sheet';
export const REFUSAL = 'This sheet is refused by its hook.';

/** The sub-fields' messages, as a specification would write them. */
export const LINE_MESSAGES = {
  sku: 'SKU is required!',
  quantity: 'Quantity is required!',
  quantityMin: 'Quantity must be at least 1.',
  fewer: 'An order sheet needs at least one line!',
  more: 'An order sheet may have at most 5 lines.',
};

export const orderSheets = defineResource({
  name: 'orderSheets',
  label: 'Order sheet',
  plural: 'Order sheets',
  access: { read: ['admin'], write: ['admin'] },
  fields: [
    field.text('name', { rule: rules.text(1, 'Sheet name is required!'), list: true, searchable: true }),
    field.items('lines', {
      label: 'Lines',
      min: 1,
      max: 5,
      minMessage: LINE_MESSAGES.fewer,
      maxMessage: LINE_MESSAGES.more,
      fields: [
        field.text('sku', { label: 'SKU', rule: rules.text(1, LINE_MESSAGES.sku) }),
        field.number('quantity', {
          storage: 'integer',
          rule: z.number({ error: LINE_MESSAGES.quantity }).int().min(1, LINE_MESSAGES.quantityMin),
        }),
        field.text('note', { rule: rules.optionalText() }),
        field.boolean('gift', { rule: z.boolean().optional() }),
      ],
    }),
  ],
  reads: {
    list: read.list('GET /order-sheets'),
    one: read.one('GET /order-sheets/{id}'),
  },
  dialogs: {
    createOrderSheet: dialog.create({ pick: ['name', 'lines'], call: 'POST /order-sheets', success: 'Sheet created.', failure: 'Unable to create sheet!' }),
    updateOrderSheet: dialog.update({ pick: ['name', 'lines'], optional: ['lines'], call: 'PATCH /order-sheets/{id}', success: 'Sheet updated.', failure: 'Unable to update sheet!' }),
    showOrderSheet: dialog.details({ show: ['name', 'lines'] }),
    deleteOrderSheet: dialog.remove({ call: 'DELETE /order-sheets/{id}', missing: 'Sheet is missing.', success: 'Sheet deleted.' }),
    recycleOrderSheet: dialog.remove({ call: 'DELETE /order-sheets/{id}/recycle', recycle: true, missing: 'Sheet is missing.', success: 'Sheet moved to the recycle bin.' }),
  },
  hooks: {
    afterChange: ({ record }) => {
      if (record.name === REFUSED) throw new HookRefusal(REFUSAL);
    },
  },
});

/** The real resources with the fixture's. */
export const lineItemsRegistry = createRegistry([...registry.resources, orderSheets]);
