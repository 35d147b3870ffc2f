import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { openDialog } from '../../src/client/dialogs/context.ts';
import { fakeServer, listAnswer } from './fake-server.ts';
import { renderDialogHost } from './harness.tsx';

const fieldError = (id: string) => document.getElementById(`root_${id}__error`)?.textContent ?? '';

async function openCreateCategory() {
  renderDialogHost();
  act(() => openDialog('createCategory'));
  const dialog = await screen.findByRole('dialog', { name: 'Create category' });
  const name = await within(dialog).findByRole('textbox', { name: /name/i });
  return { dialog, name };
}

describe('createCategory through the dialog host', () => {
  it('shows the spec messages under the field and sends nothing while they stand', async () => {
    const server = fakeServer();
    const user = userEvent.setup();
    const { dialog, name } = await openCreateCategory();
    // The first field has the focus as the dialog opens.
    await waitFor(() => expect(document.activeElement).toBe(name));

    await user.type(name, 'general');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(fieldError('name')).toBe("Category cannot be 'general'"));
    expect(name.getAttribute('aria-invalid')).toBe('true');
    // A screen reader reads the message with the field: the input names the error as its description.
    expect(name.getAttribute('aria-describedby')?.split(' ')).toContain('root_name__error');

    await user.clear(name);
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(fieldError('name')).toBe('Category name is required!'));

    // Enter submits too, and is held back the same way.
    await user.type(name, 'GENERAL{Enter}');
    await waitFor(() => expect(fieldError('name')).toBe("Category cannot be 'general'"));
    expect(server.calls).toEqual([]);
    expect(screen.getByRole('dialog', { name: 'Create category' })).toBeTruthy();
  });

  it('posts a valid name, toasts Success! with the dialog message, and closes', async () => {
    const server = fakeServer({ 'POST /api/admin/v1/categories': () => ({ status: 201, body: { id: 'c1', name: 'Shoes' } }) });
    const user = userEvent.setup();
    const { dialog, name } = await openCreateCategory();

    await user.type(name, '  Shoes {Enter}');
    const toast = await screen.findByRole('status');
    expect(within(toast).getByText('Success!')).toBeTruthy();
    expect(within(toast).getByText('Category created successfully.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(dialog.isConnected).toBe(false);

    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]).toMatchObject({ method: 'POST', path: '/api/admin/v1/categories', body: { name: 'Shoes' }, credentials: 'same-origin' });
  });

  it('on a 400 shows the red failure toast with the server answer and keeps the dialog and its input', async () => {
    fakeServer({
      'POST /api/admin/v1/categories': () => ({
        status: 400,
        body: { message: 'Validation failed.', errors: { name: ['Category name is required!'] } },
      }),
    });
    const user = userEvent.setup();
    const { dialog, name } = await openCreateCategory();

    await user.type(name, 'Shoes');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    const toast = await screen.findByRole('alert');
    expect(within(toast).getByText('Unable to create category!')).toBeTruthy();
    expect(toast.textContent).toContain('Validation failed.');
    expect(toast.textContent).toContain('Name: Category name is required!');
    expect(toast.className).toMatch(/Error/);

    expect(screen.getByRole('dialog', { name: 'Create category' })).toBe(dialog);
    expect((name as HTMLInputElement).value).toBe('Shoes');
    // The server's field messages sit under the field until the user edits it.
    expect(fieldError('name')).toBe('Category name is required!');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Create' }).hasAttribute('disabled')).toBe(false));
    await user.type(name, 's');
    await waitFor(() => expect(fieldError('name')).toBe(''));
  });

  it('keeps the submit button disabled while the call runs', async () => {
    let answer!: (r: Response) => void;
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    const user = userEvent.setup();
    const { dialog, name } = await openCreateCategory();
    await user.type(name, 'Shoes');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: /Create/ }).hasAttribute('disabled')).toBe(true));
    expect(within(dialog).getByLabelText('Saving')).toBeTruthy();
    await act(async () => answer(new Response('{"id":"c1"}', { status: 201, headers: { 'Content-Type': 'application/json' } })));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closes on Escape without sending', async () => {
    const server = fakeServer();
    const user = userEvent.setup();
    await openCreateCategory();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.calls).toEqual([]);
  });
});

describe('updateCategory', () => {
  it('is prefilled from the record (absent order shown as 0) and patches the record by id', async () => {
    const server = fakeServer({ 'PATCH /api/admin/v1/categories/c1': () => ({ body: { id: 'c1' } }) });
    const user = userEvent.setup();
    renderDialogHost();
    act(() => openDialog('updateCategory', { id: 'c1', name: 'Shoes', slug: 'shoes-x' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update category' });
    const name = await within(dialog).findByRole('textbox', { name: /name/i });
    const order = within(dialog).getByRole('textbox', { name: /order/i });
    expect((name as HTMLInputElement).value).toBe('Shoes');
    expect((order as HTMLInputElement).value).toBe('0');

    await user.clear(order);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fieldError('order')).toBe('Order must be 1 letter.'));
    await user.type(order, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await screen.findByText('Category updated successfully.');
    expect(server.calls).toEqual([
      expect.objectContaining({ method: 'PATCH', path: '/api/admin/v1/categories/c1', body: { name: 'Shoes', order: '3' } }),
    ]);
  });
});

describe('createChildCategory', () => {
  const parents = [
    { id: '64b7f0c2a1d4e5f600000001', name: 'Fashion' },
    { id: '64b7f0c2a1d4e5f600000002', name: 'Garden' },
  ];

  it('prefills the parent passed to openDialog, shown by name, and picks another from the server list', async () => {
    const server = fakeServer({
      'GET /api/admin/v1/categories': listAnswer('categories', parents),
      'POST /api/admin/v1/categories/child': () => ({ status: 201, body: { id: 'k1' } }),
    });
    const user = userEvent.setup();
    renderDialogHost();
    act(() => openDialog('createChildCategory', { category: parents[0].id }));
    const dialog = await screen.findByRole('dialog', { name: 'Create child category' });
    const parent = await within(dialog).findByRole('combobox', { name: /parent category/i });
    await waitFor(() => expect((parent as HTMLInputElement).value).toBe('Fashion'));
    expect(within(dialog).getByText('Image size 250x150')).toBeTruthy();

    const lists = server.calls.filter((c) => c.path === '/api/admin/v1/categories');
    expect(lists.some((c) => c.query.get('sort') === '["name","ASC"]' && c.query.get('range') === '[0,49]')).toBe(true);

    await user.type(within(dialog).getByRole('textbox', { name: /name/i }), 'Shirts');
    // The image is an upload widget (as every image field is); a URL can still be typed into it.
    await user.click(within(dialog).getByRole('button', { name: 'Enter a URL instead' }));
    await user.type(within(dialog).getByRole('textbox', { name: /image/i }), '/images/shirts.png');
    expect(within(dialog).getByAltText('Image preview').getAttribute('src')).toBe('/images/shirts.png');
    await user.clear(parent);
    await user.type(parent, 'gar');
    await user.click(await screen.findByRole('option', { name: 'Garden' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    await screen.findByText('Child category created successfully.');
    expect(server.calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/api/admin/v1/categories/child',
      body: { name: 'Shirts', image: '/images/shirts.png', category: parents[1].id },
    });
  });
});

describe('remove dialogs', () => {
  it('without a target say the entity is missing and open nothing', async () => {
    const server = fakeServer();
    renderDialogHost();
    act(() => openDialog('deleteCategory'));
    const toast = await screen.findByRole('alert');
    expect(within(toast).getByText('Category is missing.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => openDialog('deleteChildCategory', { name: 'no id' }));
    await screen.findByText('Child category is missing.');
    expect(server.calls).toEqual([]);
  });

  it('confirm, delete the record, and toast the dialog success', async () => {
    const server = fakeServer({ 'DELETE /api/admin/v1/categories/c1': () => ({ body: { id: 'c1' } }) });
    const user = userEvent.setup();
    renderDialogHost();
    act(() => openDialog('deleteCategory', { id: 'c1', name: 'Shoes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete category' });
    expect(within(dialog).getByText('Delete Shoes?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Category deleted successfully.');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.calls).toEqual([expect.objectContaining({ method: 'DELETE', path: '/api/admin/v1/categories/c1' })]);
  });

  it("show the server's refusal under the spec's failure title", async () => {
    fakeServer({
      'DELETE /api/admin/v1/categories/c1': () => ({ status: 409, body: { message: 'Shoes still has 3 child categories.' } }),
    });
    const user = userEvent.setup();
    renderDialogHost();
    act(() => openDialog('deleteCategory', { id: 'c1', name: 'Shoes' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const toast = await screen.findByRole('alert');
    expect(within(toast).getByText('Someting went wrong.')).toBeTruthy();
    expect(toast.textContent).toContain('Shoes still has 3 child categories.');
  });

  it('cancel sends nothing', async () => {
    const server = fakeServer();
    const user = userEvent.setup();
    renderDialogHost();
    act(() => openDialog('deleteSubCategory', { id: 's1', name: 'Tees' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete sub category' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.calls).toEqual([]);
  });
});

describe('the host', () => {
  it('refuses an unknown type with a warning', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderDialogHost();
    act(() => openDialog('noSuchDialog'));
    expect((await screen.findByRole('alert')).textContent).toContain("Unknown dialog 'noSuchDialog'");
  });

  it('shows one toast at a time: a new one replaces the old', async () => {
    renderDialogHost();
    act(() => openDialog('deleteCategory'));
    await screen.findByText('Category is missing.');
    act(() => openDialog('deleteSubCategory'));
    await screen.findByText('Sub category is missing.');
    await waitFor(() => expect(screen.queryByText('Category is missing.')).toBeNull());
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });
});
