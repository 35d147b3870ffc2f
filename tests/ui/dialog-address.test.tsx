/**
 * A dialog's address (src/client/dialogs/address.ts) beside react-admin's lists, which keep their own
 * parameters in the URL and in a store: no list write may bring back a dialog the user has closed, or
 * drop the address of one that is open (address-router.ts). In CI on 2026-11-28 a list's search, typed
 * right after a dialog closed, wrote the closed dialog's address back from a render the router had not
 * yet replaced, and the dialog opened again.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { render } from './harness.tsx';
import userEvent from '@testing-library/user-event';
import { AdminContext, useNavigate } from 'react-admin';
import { registry } from '../../resources/index.ts';
import { App } from '../../src/client/App.tsx';
import { createAuthProvider } from '../../src/client/providers/auth.ts';
import { createDataProvider, listPath } from '../../src/client/providers/data.ts';
import { hasListParams, keepDialogAddress, withDialog } from '../../src/client/dialogs/address.ts';
import { addressRouterProvider } from '../../src/client/dialogs/address-router.ts';
import { fakeServer, listAnswer } from './fake-server.ts';

const admin = { id: 'u1', name: 'Ada Admin', email: 'ada@example.com', role: 'admin', image: null };
const categories = registry.resource('categories');
const rows = [{ id: 'c1', name: 'Aquariums', order: '1', slug: 'aquariums', version: 1 }];
const FILTER = `filter=${encodeURIComponent('{"q":"Fish Tanks"}')}`;

const renderApp = () => render(<App dataProvider={createDataProvider(registry)} authProvider={createAuthProvider()} />);
const at = (path: string) => window.history.replaceState({}, '', `/#${path}`);
const serve = () =>
  fakeServer({
    'GET /api/admin/v1/getcurrentuser': () => ({ body: admin }),
    [`GET /${listPath(categories)}`]: listAnswer('categories', rows),
    [`GET /${listPath(registry.resource('adminMenus'))}`]: listAnswer('adminMenus', []),
  });
const settled = () => new Promise((r) => setTimeout(r, 300));

beforeEach(() => {
  localStorage.clear();
  at('/');
});

describe('the dialog parameters of a search', () => {
  it('are set and removed with the other parameters kept as they were written', () => {
    expect(withDialog(`?${FILTER}&order=ASC`, 'updateCategory', 'c1')).toBe(`?${FILTER}&order=ASC&dialog=updateCategory&id=c1`);
    expect(withDialog(`?${FILTER}&dialog=updateCategory&id=c1&order=ASC`)).toBe(`?${FILTER}&order=ASC`);
    expect(withDialog('', 'createCategory')).toBe('?dialog=createCategory');
    expect(withDialog('?dialog=createCategory')).toBe('');
    expect(withDialog('?order=ASC', 'updateCategory', 'a b&c')).toBe('?order=ASC&dialog=updateCategory&id=a+b%26c');
  });

  it('in a list’s write are the ones the URL holds now', () => {
    // A write built while the dialog was still shown, landing after it closed: the dialog stays closed.
    expect(keepDialogAddress(`?dialog=createCategory&${FILTER}`, '')).toBe(`?${FILTER}`);
    // A write built before a dialog opened, landing after: the open dialog keeps its address.
    expect(keepDialogAddress(`?${FILTER}`, '?dialog=updateCategory&id=c1')).toBe(`?${FILTER}&dialog=updateCategory&id=c1`);
    expect(keepDialogAddress(`?${FILTER}&dialog=updateCategory&id=c2`, '?dialog=updateCategory&id=c1')).toBe(`?${FILTER}&dialog=updateCategory&id=c1`);
    // Agreeing, the write is left as it is.
    expect(keepDialogAddress(`?dialog=updateCategory&${FILTER}&id=c1`, '?dialog=updateCategory&id=c1')).toBe(`?dialog=updateCategory&${FILTER}&id=c1`);
  });
});

describe('a list’s parameters', () => {
  it('are any but the dialog’s', () => {
    expect(hasListParams('')).toBe(false);
    expect(hasListParams('?dialog=updateCategory&id=c1')).toBe(false);
    expect(hasListParams(`?${FILTER}`)).toBe(true);
    expect(hasListParams('?dialog=createCategory&page=2')).toBe(true);
  });
});

describe('the app’s router', () => {
  type To = { pathname?: string; search: string };
  /**
   * Navigates as a list does (`{ search }` only), as a list restoring the parameters it remembers does
   * (the same, replacing), or as the dialog host does (a pathname with it).
   */
  function Navigator({ to, replace }: { to: To; replace?: boolean }) {
    const navigate = useNavigate();
    return <button onClick={() => navigate(to, { replace })}>go</button>;
  }
  const renderNavigator = (to: To, replace?: boolean) =>
    render(
      <AdminContext routerProvider={addressRouterProvider}>
        <Navigator to={to} replace={replace} />
      </AdminContext>,
    );

  it('keeps a list’s search-only write from bringing back a closed dialog', async () => {
    at('/categories');
    renderNavigator({ search: `?dialog=createCategory&${FILTER}` });
    await userEvent.click(screen.getByRole('button', { name: 'go' }));
    await waitFor(() => expect(window.location.hash).toBe(`#/categories?${FILTER}`));
  });

  it('keeps the open dialog’s address under a list’s write', async () => {
    at('/categories?dialog=updateCategory&id=c1');
    renderNavigator({ search: `?${FILTER}` });
    await userEvent.click(screen.getByRole('button', { name: 'go' }));
    await waitFor(() => expect(window.location.hash).toBe(`#/categories?${FILTER}&dialog=updateCategory&id=c1`));
  });

  it('restores a list’s remembered parameters into an address that has none but a dialog’s', async () => {
    at('/categories?dialog=createCategory');
    renderNavigator({ search: '?order=ASC&sort=name' }, true);
    await userEvent.click(screen.getByRole('button', { name: 'go' }));
    await waitFor(() => expect(window.location.hash).toBe('#/categories?order=ASC&sort=name&dialog=createCategory'));
  });

  it('drops a restore that lands after the user chose parameters of their own', async () => {
    at(`/categories?${FILTER}&order=DESC`);
    renderNavigator({ search: '?filter=%7B%22q%22%3A%22Fish%22%7D&order=ASC' }, true);
    await userEvent.click(screen.getByRole('button', { name: 'go' }));
    await act(settled);
    expect(window.location.hash).toBe(`#/categories?${FILTER}&order=DESC`);
  });

  it('lets a whole location through as it is (the dialog host’s own writes, links)', async () => {
    at('/categories');
    renderNavigator({ pathname: '/categories', search: '?dialog=createCategory' });
    await userEvent.click(screen.getByRole('button', { name: 'go' }));
    await waitFor(() => expect(window.location.hash).toBe('#/categories?dialog=createCategory'));
  });
});

describe('a closed dialog stays closed', () => {
  it('when the list is visited again after it was left with a dialog open', async () => {
    serve();
    const user = userEvent.setup();
    at(`/categories?${encodeURI(`filter={"q":"Aqua"}`)}&order=ASC&page=1&perPage=25&sort=name`);
    const { unmount } = renderApp();
    await screen.findByText('Aquariums');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await screen.findByRole('dialog', { name: /create category/i });
    expect(window.location.hash).toContain('dialog=createCategory');
    // Left with the dialog open (a link in it, the browser's Back): the list remembers its parameters.
    unmount();
    at('/categories');
    renderApp();
    await screen.findByText('Aquariums');
    await waitFor(() => expect(decodeURIComponent(window.location.hash)).toContain('"q":"Aqua"'));
    await act(settled);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(window.location.hash).not.toContain('dialog=');
  });
});
