/**
 * The generated admin as a whole, in happy-dom: real providers, real react-admin, only `fetch` answered
 * by a fake server.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { render } from './harness.tsx';
import userEvent from '@testing-library/user-event';
import { registry } from '../../resources/index.ts';
import { App } from '../../src/client/App.tsx';
import { createAuthProvider } from '../../src/client/providers/auth.ts';
import { createDataProvider } from '../../src/client/providers/data.ts';
import { fakeServer, listAnswer } from './fake-server.ts';

const admin = { id: 'u1', name: 'Ada Admin', email: 'ada@example.com', role: 'admin', image: null };
const buyer = { ...admin, id: 'u2', name: 'Bo Buyer', role: 'user' };
const CURRENT = 'GET /api/admin/v1/getcurrentuser';
const CATEGORIES = 'GET /api/admin/v1/categories';
/** The sidebar reads the admin-menu entries once an admin is signed in. */
const ADMIN_MENUS = { 'GET /api/admin/v1/admin-menus/': listAnswer('adminMenus', []) };

const renderApp = () => render(<App dataProvider={createDataProvider(registry)} authProvider={createAuthProvider()} />);

// Signing in lands on the dashboard (issue 9); these tests start on the categories list, where sign-in returns.
beforeEach(() => window.history.replaceState({}, '', '/#/categories'));

describe('sign-in', () => {
  it('asks for an Email and a password and sends them as the API names them', async () => {
    let signedIn = false;
    const server = fakeServer({
      [CURRENT]: () => (signedIn ? { body: admin } : { status: 401, body: { message: 'Not signed in.' } }),
      'POST /api/auth/login': ({ body }) => {
        const ok = (body as { password: string }).password === 'secret1';
        signedIn = ok;
        return ok ? { body: admin } : { status: 401, body: { message: 'Wrong email or password.' } };
      },
      [CATEGORIES]: listAnswer('categories', []),
      ...ADMIN_MENUS,
    });
    const user = userEvent.setup();
    renderApp();

    const email = await screen.findByLabelText(/^Email/);
    expect(email.getAttribute('type')).toBe('email');
    const password = () => screen.getByLabelText(/^Password/);
    await user.type(email, 'ada@example.com');
    await user.type(password(), 'wrong');
    await user.click(screen.getByRole('button', { name: /sign in/i }));
    expect((await screen.findByRole('alert')).textContent).toContain('Wrong email or password.');

    await user.clear(password());
    await user.type(password(), 'secret1');
    await user.click(screen.getByRole('button', { name: /sign in/i }));
    expect(await screen.findByText('No categories yet')).toBeTruthy();
    expect(server.calls.filter((c) => c.path === '/api/auth/login').map((c) => c.body)).toEqual([
      { email: 'ada@example.com', password: 'wrong' },
      { email: 'ada@example.com', password: 'secret1' },
    ]);
  });
});

describe('generated list screen', () => {
  const rows = [
    { id: '64b7f0c2a1d4e5f600000001', name: 'Bags', order: '2' },
    { id: '64b7f0c2a1d4e5f600000002', name: 'Shoes' },
  ];

  it('lists categories with their columns, the menu by group, and the create/edit/delete actions', async () => {
    const server = fakeServer({ [CURRENT]: () => ({ body: admin }), [CATEGORIES]: listAnswer('categories', rows), ...ADMIN_MENUS });
    const user = userEvent.setup();
    renderApp();

    const shoes = (await screen.findByText('Shoes')).closest('tr')!;
    const list = server.calls.find((c) => c.path === '/api/admin/v1/categories')!;
    expect(list.query.get('sort')).toBe('["name","ASC"]');
    expect(list.query.get('range')).toBe('[0,24]');
    expect(list.credentials).toBe('same-origin');
    // An absent order is shown as 0 (spec), a present one as it is.
    expect(within(shoes).getByText('0')).toBeTruthy();
    expect(within(screen.getByText('Bags').closest('tr')!).getByText('2')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: /Name/ })).toBeTruthy();

    expect(screen.getByText('Catalogue')).toBeTruthy();
    for (const label of ['Categories', 'Child categories', 'Sub categories', 'Sub-child categories'])
      expect(screen.getByRole('menuitem', { name: label })).toBeTruthy();
    // The admin's Users screen (issue 10) is in the menu too.
    expect(screen.getByRole('menuitem', { name: 'Users' })).toBeTruthy();

    await user.click(within(shoes).getByRole('button', { name: 'Edit' }));
    const update = await screen.findByRole('dialog', { name: 'Update category' });
    expect(((await within(update).findByRole('textbox', { name: /order/i })) as HTMLInputElement).value).toBe('0');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(shoes).getByRole('button', { name: 'Delete' }));
    const remove = await screen.findByRole('dialog', { name: 'Delete category' });
    expect(within(remove).getByText('Delete Shoes?')).toBeTruthy();
    await user.click(within(remove).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('refreshes the list after a dialog succeeds', async () => {
    const all = [...rows];
    const server = fakeServer({
      [CURRENT]: () => ({ body: admin }),
      [CATEGORIES]: (call) => listAnswer('categories', all)(call),
      ...ADMIN_MENUS,
      'POST /api/admin/v1/categories': ({ body }) => {
        all.push({ id: '64b7f0c2a1d4e5f600000003', name: (body as { name: string }).name });
        return { status: 201, body: all.at(-1) };
      },
    });
    const user = userEvent.setup();
    renderApp();
    await screen.findByText('Shoes');
    const listCalls = () => server.calls.filter((c) => c.method === 'GET' && c.path === '/api/admin/v1/categories').length;
    const before = listCalls();

    await user.click(screen.getByRole('button', { name: 'Create' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create category' });
    await user.type(await within(dialog).findByRole('textbox', { name: /name/i }), 'Hats{Enter}');
    expect(await screen.findByText('Hats')).toBeTruthy();
    expect(listCalls()).toBeGreaterThan(before);
  });

  it('offers no create, edit or delete to a role outside the dialogs’ access', async () => {
    fakeServer({ [CURRENT]: () => ({ body: buyer }), [CATEGORIES]: listAnswer('categories', rows) });
    renderApp();
    await screen.findByText('Shoes');
    expect(screen.queryByRole('button', { name: 'Create' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('shows an empty state whose Create opens the create dialog', async () => {
    fakeServer({ [CURRENT]: () => ({ body: admin }), [CATEGORIES]: listAnswer('categories', []), ...ADMIN_MENUS });
    const user = userEvent.setup();
    renderApp();
    await screen.findByText('No categories yet');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('dialog', { name: 'Create category' })).toBeTruthy();
  });
});
