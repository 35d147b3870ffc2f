/**
 * An `items` field in the generated dialogs: the form draws it as an array (add, remove, reorder rows),
 * judges each item by its sub-fields' own rules and shows the message under that item's field (the
 * server's too, keyed `lines.0.quantity`); a details dialog shows the items as a small table.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { RegistryProvider } from '../../src/client/registry/context.tsx';
import { render } from './harness.tsx';
import userEvent from '@testing-library/user-event';
import { AdminContext } from 'react-admin';
import { openDialog } from '../../src/client/dialogs/context.ts';
import { DialogHost } from '../../src/client/dialogs/DialogHost.tsx';
import { createDataProvider } from '../../src/client/providers/data.ts';
import { ToastProvider } from '../../src/client/shell/toast.tsx';
import { LINE_MESSAGES, lineItemsRegistry } from '../support/line-items-fixture.ts';
import { fakeServer } from './fake-server.ts';

const fieldError = (id: string) => document.getElementById(`root_${id}__error`)?.textContent ?? '';
const input = (id: string) => document.getElementById(`root_${id}`) as HTMLInputElement | null;

async function open(type: string, name: string, data?: Record<string, unknown>) {
  render(
    <ToastProvider>
      <AdminContext dataProvider={createDataProvider(lineItemsRegistry)}>
        <RegistryProvider registry={lineItemsRegistry}>
          <DialogHost />
        </RegistryProvider>
      </AdminContext>
    </ToastProvider>,
  );
  act(() => openDialog(type, data));
  return screen.findByRole('dialog', { name });
}

describe('an items field in the form dialogs', () => {
  it("draws the lines as an array and judges each line by its own fields' messages", async () => {
    const server = fakeServer({ 'POST /api/admin/v1/order-sheets': (call) => ({ status: 201, body: { id: 's1', ...(call.body as object) } }) });
    const user = userEvent.setup();
    const dialog = await open('createOrderSheet', 'Create order sheet');
    await user.type(await within(dialog).findByRole('textbox', { name: /sheet|name/i }), 'March');

    // The list starts with the one line it needs; removed, the list's own message is shown.
    await waitFor(() => expect(input('lines_0_sku')).toBeTruthy());
    await user.click(document.getElementById('root_lines_0__remove')!);
    await waitFor(() => expect(input('lines_0_sku')).toBeNull());
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(fieldError('lines')).toBe(LINE_MESSAGES.fewer));

    await user.click(within(dialog).getByRole('button', { name: /add/i }));
    await waitFor(() => expect(input('lines_0_sku')).toBeTruthy());
    await user.type(input('lines_0_quantity')!, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(fieldError('lines_0_quantity')).toBe(LINE_MESSAGES.quantityMin));
    expect(fieldError('lines_0_sku')).toBe(LINE_MESSAGES.sku);
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([]);

    await user.type(input('lines_0_sku')!, 'A-1');
    await user.clear(input('lines_0_quantity')!);
    await user.type(input('lines_0_quantity')!, '3');
    await user.click(within(dialog).getByRole('button', { name: /add/i }));
    await waitFor(() => expect(input('lines_1_sku')).toBeTruthy());
    await user.type(input('lines_1_sku')!, 'B-2');
    await user.type(input('lines_1_quantity')!, '1');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(server.calls.find((c) => c.method === 'POST')!.body).toEqual({
      name: 'March',
      lines: [
        { sku: 'A-1', quantity: 3 },
        { sku: 'B-2', quantity: 1 },
      ],
    });
  });

  it('closes an untouched create at once: the blank line it starts with is no change', async () => {
    fakeServer();
    const user = userEvent.setup();
    const dialog = await open('createOrderSheet', 'Create order sheet');
    await waitFor(() => expect(input('lines_0_sku')).toBeTruthy());
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it("opens an update with the record's lines, reorders them, and shows the server's message under a line's field", async () => {
    const server = fakeServer({
      'PATCH /api/admin/v1/order-sheets/s1': () => ({
        status: 400,
        body: { message: 'Validation failed.', errors: { 'lines.0.sku': ['SKU is taken!'] } },
      }),
    });
    const user = userEvent.setup();
    const lines = [
      { sku: 'A-1', quantity: 3, gift: true },
      { sku: 'B-2', quantity: 1, note: null },
    ];
    const dialog = await open('updateOrderSheet', 'Update order sheet', { id: 's1', name: 'March', version: 1, lines });
    await waitFor(() => expect(input('lines_1_sku')?.value).toBe('B-2'));
    expect(input('lines_0_sku')!.value).toBe('A-1');
    // Move the second line up: the order sent is the order shown.
    const moveUp = within(dialog).getAllByRole('button', { name: /move up/i });
    await user.click(moveUp[moveUp.length - 1]);
    await waitFor(() => expect(input('lines_0_sku')!.value).toBe('B-2'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fieldError('lines_0_sku')).toBe('SKU is taken!'));
    expect(server.calls.find((c) => c.method === 'PATCH')!.body).toEqual({
      name: 'March',
      lines: [
        { sku: 'B-2', quantity: 1 },
        { sku: 'A-1', quantity: 3, gift: true },
      ],
    });
  });

  it('shows the lines as a table in the details dialog', async () => {
    fakeServer();
    const dialog = await open('showOrderSheet', 'Order sheet details', {
      id: 's1',
      name: 'March',
      lines: [
        { sku: 'A-1', quantity: 3, gift: true },
        { sku: 'B-2', quantity: 1 },
      ],
    });
    const table = await within(dialog).findByRole('table', { name: 'Lines' });
    const rows = within(table).getAllByRole('row').map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['SKU', 'Quantity', 'Note', 'Gift'],
      ['A-1', '3', '', 'Yes'],
      ['B-2', '1', '', ''],
    ]);
  });
});
