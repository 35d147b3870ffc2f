/**
 * The sidebar: resources under their manifest groups, and the admin-menu entries (name, group, href)
 * read from the API, under their own group; internal links navigate in the app.
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
const ADMIN_MENUS = 'GET /api/admin/v1/admin-menus/';
const CATEGORIES = 'GET /api/admin/v1/categories';

const renderApp = () => render(<App dataProvider={createDataProvider(registry)} authProvider={createAuthProvider()} />);

/** The sidebar as `{ group: [item names] }`: each `role="group"` of the menu, named by its label. */
function sidebarGroups(): Record<string, string[]> {
  const menu = screen.getAllByRole('menu').find((m) => m.classList.contains('RaMenu-open') || m.classList.contains('RaMenu-closed'))!;
  const out: Record<string, string[]> = {};
  for (const group of within(menu).getAllByRole('group'))
    out[group.getAttribute('aria-label') ?? ''] = within(group)
      .getAllByRole('menuitem')
      .map((el) => el.textContent ?? '');
  return out;
}

const entries = [
  { id: 'm1', name: 'Home banners', group: 'Content', href: '/banners' },
  { id: 'm2', name: 'Docs', group: 'Help', href: 'https://example.com/docs' },
  { id: 'm3', name: 'Sneaky', group: 'Content', href: 'javascript:alert(1)' },
];

// The app's router is react-admin's default, a HashRouter.
beforeEach(() => window.history.replaceState({}, '', '/#/categories'));

it('shows admin-menu entries under their group: merged into a generated group, or a new group after them', async () => {
  const server = fakeServer({
    [CURRENT]: () => ({ body: admin }),
    [CATEGORIES]: listAnswer('categories', [{ id: 'c1', name: 'Shoes' }]),
    [ADMIN_MENUS]: listAnswer('adminMenus', entries),
    'GET /api/admin/v1/banners': listAnswer('banners', [{ id: 'b1', name: 'Summer sale', url: '/img/b.png', position: 1 }]),
  });
  const user = userEvent.setup();
  renderApp();
  const entry = await screen.findByRole('menuitem', { name: 'Home banners' });

  const read = server.calls.find((c) => c.path === '/api/admin/v1/admin-menus/')!;
  expect(read.query.get('sort')).toBe('["group","ASC"]');
  expect(read.query.get('range')).toBe('[0,99]');

  const groups = sidebarGroups();
  expect(groups.Content).toContain('Home banners');
  expect(groups.Content).toContain('Banners');
  expect(groups.Help).toEqual(['Docs']);
  expect(Object.keys(groups).at(-1)).toBe('Help');
  // A href that is neither a path of the app nor a web address is not offered.
  expect(screen.queryByRole('menuitem', { name: 'Sneaky' })).toBeNull();

  const docs = screen.getByRole('menuitem', { name: 'Docs' });
  expect(docs.getAttribute('href')).toBe('https://example.com/docs');
  expect(docs.getAttribute('target')).toBe('_blank');
  expect(docs.getAttribute('rel')).toContain('noopener');

  expect(entry.getAttribute('href')).toBe('#/banners');
  expect(entry.getAttribute('target')).toBeNull();
  await user.click(entry);
  expect(await screen.findByText('Summer sale')).toBeTruthy();
  expect(window.location.hash).toBe('#/banners');
  // The test DOM loads no page for a link: the list shows because the app's router navigated.
  expect(server.calls.some((c) => c.path === '/api/admin/v1/banners')).toBe(true);
});

it('reads no admin menus for a role that may not read them', async () => {
  const server = fakeServer({
    [CURRENT]: () => ({ body: buyer }),
    [CATEGORIES]: listAnswer('categories', [{ id: 'c1', name: 'Shoes' }]),
  });
  renderApp();
  await screen.findByText('Shoes');
  // The catalogue is reference data to a buyer: open by address, not offered in its menu (its area is).
  expect(screen.queryByRole('menuitem', { name: 'Categories' })).toBeNull();
  expect(screen.getByRole('menuitem', { name: 'My account' })).toBeTruthy();
  expect(server.calls.some((c) => c.path === '/api/admin/v1/admin-menus/')).toBe(false);
  expect(screen.queryByRole('menuitem', { name: 'Admin menus' })).toBeNull();
});

it('shows a new entry once an admin menu is added through its dialog', async () => {
  const all = [entries[0]];
  fakeServer({
    [CURRENT]: () => ({ body: admin }),
    [ADMIN_MENUS]: (call) => listAnswer('adminMenus', all)(call),
    'POST /api/admin/v1/admin-menus/': ({ body }) => {
      all.push({ id: 'm9', ...(body as { name: string; group: string; href: string }) });
      return { status: 201, body: all.at(-1) };
    },
  });
  window.history.replaceState({}, '', '/#/adminMenus');
  const user = userEvent.setup();
  renderApp();
  await screen.findByRole('menuitem', { name: 'Home banners' });
  await user.click(await screen.findByRole('button', { name: 'Create' }));
  const dialog = await screen.findByRole('dialog', { name: 'Create admin menu' });
  await user.type(await within(dialog).findByRole('textbox', { name: /name/i }), 'Orders');
  await user.type(within(dialog).getByRole('textbox', { name: /group/i }), 'Sales');
  await user.type(within(dialog).getByRole('textbox', { name: /href/i }), '/orders');
  await user.click(within(dialog).getByRole('button', { name: 'Create' }));
  await waitFor(() => expect(sidebarGroups().Sales).toEqual(['Orders']));
});
