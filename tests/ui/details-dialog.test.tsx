/**
 * No manifest declares a details dialog yet, so this one is declared here, on top of the real
 * registry, the way a manifest would.
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext } from 'react-admin';
import { registry } from '../../resources/index.ts';
import { createRegistry, defineResource, dialog, field, read } from '../../src/manifest/index.ts';
import { openDialog } from '../../src/client/dialogs/context.ts';
import { DialogHost } from '../../src/client/dialogs/DialogHost.tsx';
import { createDataProvider } from '../../src/client/providers/data.ts';
import { ToastProvider } from '../../src/client/shell/toast.tsx';
import { fakeServer, listAnswer } from './fake-server.ts';

const things = defineResource({
  name: 'things',
  label: 'Thing',
  plural: 'Things',
  access: { read: 'signedIn', write: ['admin'] },
  fields: [
    field.text('name'),
    field.image('image'),
    field.text('order', { emptyShownAs: 0 }),
    field.reference('category', 'categories', { label: 'Parent category' }),
    field.password('password'),
  ],
  reads: { list: read.list('GET /things') },
  dialogs: { thingDetails: dialog.details({ show: ['name', 'image', 'order', 'category', 'password'] }) },
});
const withThings = createRegistry([...registry.resources, things]);

it('shows the record read-only: parent by name, image as a thumbnail, absent values as declared, no secrets', async () => {
  fakeServer({
    'GET /api/admin/v1/categories': listAnswer('categories', [{ id: '64b7f0c2a1d4e5f600000001', name: 'Fashion' }]),
  });
  const user = userEvent.setup();
  render(
    <ToastProvider>
      <AdminContext dataProvider={createDataProvider(withThings)}>
        <DialogHost registry={withThings} />
      </AdminContext>
    </ToastProvider>,
  );
  act(() => openDialog('thingDetails', { id: 't1', name: 'Scarf', image: '/img/scarf.png', category: '64b7f0c2a1d4e5f600000001', password: 'x' }));
  const details = await screen.findByRole('dialog', { name: 'Thing details' });
  expect(within(details).getByText('Scarf')).toBeTruthy();
  expect(await within(details).findByText('Fashion')).toBeTruthy();
  expect(within(details).getByText('Parent category')).toBeTruthy();
  expect(within(details).getByText('0')).toBeTruthy();
  expect(within(details).getByAltText('Scarf').getAttribute('src')).toBe('/img/scarf.png');
  expect(within(details).queryByText('Password')).toBeNull();
  expect(within(details).queryByRole('textbox')).toBeNull();

  await user.click(within(details).getByRole('button', { name: 'Close' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});
