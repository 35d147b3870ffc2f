/**
 * The list behaviours manifests declare (reorder, toggle, default record, row operations, failure
 * alert, page paging), in the whole app: real providers and react-admin, `fetch` answered by a fake
 * server. Each test would fail if its behaviour broke.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { render } from './harness.tsx';
import userEvent from '@testing-library/user-event';
import { registry } from '../../resources/index.ts';
import { App } from '../../src/client/App.tsx';
import { createAuthProvider } from '../../src/client/providers/auth.ts';
import { createDataProvider } from '../../src/client/providers/data.ts';
import { fakeServer, listAnswer, type SeenCall } from './fake-server.ts';

const admin = { id: 'u1', name: 'Ada Admin', email: 'ada@example.com', role: 'admin', image: null };
const buyer = { ...admin, id: 'u2', name: 'Bo Buyer', role: 'user' };
const CURRENT = 'GET /api/admin/v1/getcurrentuser';
const ADMIN_MENUS = 'GET /api/admin/v1/admin-menus/';

const renderApp = () => render(<App dataProvider={createDataProvider(registry)} authProvider={createAuthProvider()} />);

/** The app's router is react-admin's default, a HashRouter. */
function at(path: string) {
  window.history.replaceState({}, '', `/#${path}`);
}

/** The rows of the list's table, by the text of a column's cells. */
const rowTexts = (column: number) =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.querySelectorAll('td')[column]?.textContent ?? '');

const rowOf = (text: string) => within(screen.getByRole('table')).getByText(text).closest('tr')!;

/** Holds every call to `path` with `method` until `release()`: what shows while a call runs. */
function gate(server: ReturnType<typeof fakeServer>, method: string, path: string) {
  const answer = server.spy.getMockImplementation()!;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  server.spy.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    if ((init?.method ?? 'GET').toUpperCase() === method && url.pathname === path) await opened;
    return answer(input, init);
  });
  return { release: () => open() };
}

beforeEach(() => at('/'));

// A minute a test: the keyboard reorder took 32 s once in a clean-clone CI run beside other work (alone, 2-4 s).
describe('home sections: reorder and toggle', { timeout: 60_000 }, () => {
  const HOME = 'GET /api/home-sections';
  const REORDER = 'PATCH /api/home-sections/reorder';
  const initial = () => [
    { id: 'h1', name: 'Hero', type: 'banners', order: 1, isActive: true },
    { id: 'h2', name: 'Deals', type: 'products', order: 2, isActive: false },
    { id: 'h3', name: 'Journal', type: 'posts', order: 3, isActive: true },
  ];
  // The name column comes after the handle column and the row's select box (issue 9: bulk delete).
  const NAME = 2;

  function homeServer(rows: Record<string, unknown>[], extra: Record<string, (c: SeenCall) => { status?: number; body?: unknown }> = {}) {
    const byOrder = () => [...rows].sort((a, b) => Number(a.order) - Number(b.order));
    return fakeServer({
      [CURRENT]: () => ({ body: admin }),
      [ADMIN_MENUS]: listAnswer('adminMenus', []),
      [HOME]: (call) => listAnswer('homeSections', byOrder())(call),
      ...extra,
    });
  }

  it('moves a row down by keyboard: the new order shows at once, the whole page is sent numbered 1..N, then the list reloads', async () => {
    const rows = initial();
    const server = homeServer(rows, {
      [REORDER]: ({ body }) => {
        for (const { id, order } of (body as { sections: { id: string; order: number }[] }).sections)
          rows.find((r) => r.id === id)!.order = order;
        return { body: { message: 'ok' } };
      },
    });
    const held = gate(server, 'PATCH', '/api/home-sections/reorder');
    const user = userEvent.setup();
    at('/homeSections');
    renderApp();
    await screen.findByText('Deals');
    expect(rowTexts(NAME)).toEqual(['Hero', 'Deals', 'Journal']);
    const list = server.calls.find((c) => c.path === '/api/home-sections')!;
    expect(list.query.get('sort')).toBe('["order","ASC"]');
    // No other column sorts while the rows are in their reorder order.
    expect(within(screen.getByRole('table')).queryAllByRole('button', { name: /sort/i })).toEqual([]);
    const listCalls = () => server.calls.filter((c) => c.method === 'GET' && c.path === '/api/home-sections').length;
    const before = listCalls();

    within(rowOf('Hero')).getByRole('button', { name: 'Move down' }).focus();
    await user.keyboard('{Enter}');
    // Shown before the server answers.
    await waitFor(() => expect(rowTexts(NAME)).toEqual(['Deals', 'Hero', 'Journal']));
    held.release();

    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));
    const patch = server.calls.filter((c) => c.method === 'PATCH');
    expect(patch).toHaveLength(1);
    expect(patch[0].body).toEqual({
      sections: [
        { id: 'h2', order: 1 },
        { id: 'h1', order: 2 },
        { id: 'h3', order: 3 },
      ],
    });
    await waitFor(() => expect(rowTexts(NAME)).toEqual(['Deals', 'Hero', 'Journal']));
    // The arrow keys on a handle move its row too.
    within(rowOf('Journal')).getByRole('button', { name: 'Move up' }).focus();
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(server.calls.filter((c) => c.method === 'PATCH')).toHaveLength(2));
    expect(server.calls.filter((c) => c.method === 'PATCH')[1].body).toEqual({
      sections: [
        { id: 'h2', order: 1 },
        { id: 'h3', order: 2 },
        { id: 'h1', order: 3 },
      ],
    });
    await waitFor(() => expect(rowTexts(NAME)).toEqual(['Deals', 'Journal', 'Hero']));
  });

  it('puts the old order back and toasts the failure when the reorder call fails', async () => {
    const server = homeServer(initial(), {
      [REORDER]: () => ({ status: 500, body: { message: 'Database unavailable.' } }),
    });
    const held = gate(server, 'PATCH', '/api/home-sections/reorder');
    const user = userEvent.setup();
    at('/homeSections');
    renderApp();
    await screen.findByText('Deals');

    await user.click(within(rowOf('Journal')).getByRole('button', { name: 'Move up' }));
    await waitFor(() => expect(rowTexts(NAME)).toEqual(['Hero', 'Journal', 'Deals']));
    held.release();

    const toast = await screen.findByRole('alert');
    expect(within(toast).getByText('Unable to reorder!')).toBeTruthy();
    expect(toast.textContent).toContain('Database unavailable.');
    await waitFor(() => expect(rowTexts(NAME)).toEqual(['Hero', 'Deals', 'Journal']));
    expect(server.calls.filter((c) => c.method === 'PATCH')).toHaveLength(1);
  });

  it('drops a dragged row onto another (HTML5 drag and drop)', async () => {
    const server = homeServer(initial(), { [REORDER]: () => ({ body: {} }) });
    at('/homeSections');
    renderApp();
    await screen.findByText('Deals');
    const { fireEvent } = await import('@testing-library/react');
    const data = new Map<string, string>();
    const dataTransfer = {
      setData: (k: string, v: string) => void data.set(k, v),
      getData: (k: string) => data.get(k) ?? '',
      effectAllowed: 'all',
      dropEffect: 'none',
    };
    const hero = rowOf('Hero');
    const blog = rowOf('Journal');
    expect(hero.getAttribute('draggable')).toBe('true');
    fireEvent.dragStart(hero, { dataTransfer });
    fireEvent.dragEnter(blog, { dataTransfer });
    fireEvent.dragOver(blog, { dataTransfer });
    fireEvent.drop(blog, { dataTransfer });
    fireEvent.dragEnd(hero, { dataTransfer });
    await waitFor(() => expect(server.calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(server.calls.find((c) => c.method === 'PATCH')!.body).toEqual({
      sections: [
        { id: 'h2', order: 1 },
        { id: 'h3', order: 2 },
        { id: 'h1', order: 3 },
      ],
    });
  });

  it('switches isActive in the row through the update call, sending the row’s picked fields, disabled while it runs', async () => {
    const rows = initial();
    const server = homeServer(rows, {
      'PUT /api/home-sections/h1': ({ body }) => {
        Object.assign(rows[0], body);
        return { body: rows[0] };
      },
    });
    const held = gate(server, 'PUT', '/api/home-sections/h1');
    const user = userEvent.setup();
    at('/homeSections');
    renderApp();
    const hero = (await screen.findByRole('switch', { name: 'Active Hero' })) as HTMLInputElement;
    expect(hero.checked).toBe(true);
    expect((screen.getByRole('switch', { name: 'Active Deals' }) as HTMLInputElement).checked).toBe(false);

    await user.click(hero);
    await waitFor(() => expect(hero.disabled).toBe(true));
    held.release();
    await waitFor(() => expect(hero.disabled).toBe(false));

    const put = server.calls.filter((c) => c.method === 'PUT');
    expect(put).toHaveLength(1);
    expect(put[0].path).toBe('/api/home-sections/h1');
    expect(put[0].body).toEqual({ name: 'Hero', type: 'banners', order: 1, isActive: false });
    await waitFor(() => expect((screen.getByRole('switch', { name: 'Active Hero' }) as HTMLInputElement).checked).toBe(false));
  });

  it('toasts the update dialog’s failure and shows the old value when the switch’s call fails', async () => {
    fakeServer({
      [CURRENT]: () => ({ body: admin }),
      [ADMIN_MENUS]: listAnswer('adminMenus', []),
      [HOME]: listAnswer('homeSections', initial()),
      'PUT /api/home-sections/h2': () => ({ status: 400, body: { message: 'Validation failed.' } }),
    });
    const user = userEvent.setup();
    at('/homeSections');
    renderApp();
    const deals = (await screen.findByRole('switch', { name: 'Active Deals' })) as HTMLInputElement;
    await user.click(deals);
    const toast = await screen.findByRole('alert');
    expect(within(toast).getByText('Unable to update home section!')).toBeTruthy();
    expect(toast.textContent).toContain('Validation failed.');
    await waitFor(() => expect(deals.checked).toBe(false));
  });

  it('offers neither switch nor reorder buttons to a role that may not write', async () => {
    fakeServer({ [CURRENT]: () => ({ body: buyer }), [HOME]: listAnswer('homeSections', initial()) });
    at('/homeSections');
    renderApp();
    await screen.findByText('Deals');
    expect(screen.queryByRole('switch')).toBeNull();
    // The flag reads as its declared words (issue 9: values people read), on a chip.
    expect(within(rowOf('Hero')).getByText('Active').closest('.MuiChip-root')).toBeTruthy();
    expect(within(rowOf('Deals')).getByText('Inactive').closest('.MuiChip-root')).toBeTruthy();
  });
});

describe('currencies: the default record', () => {
  const currencies = [
    { id: 'c1', name: 'US dollar', symbal: '$', code: 'USD', rate: 1, country: 'USA', status: 1 },
    { id: 'c2', name: 'Euro', symbal: '€', code: 'EUR', rate: 0.9, country: 'DEU', status: 1 },
  ];
  const countries = [
    { id: 'k1', name: 'United States', code: 'US', code3: 'USA', status: 1 },
    { id: 'k2', name: 'Germany', code: 'DE', code3: 'DEU', status: 1 },
  ];

  it('marks the default, offers Make default on the others, and moves the mark when one is made default', async () => {
    let current = 'c1';
    const server = fakeServer({
      [CURRENT]: () => ({ body: admin }),
      [ADMIN_MENUS]: listAnswer('adminMenus', []),
      'GET /api/admin/v1/currencies': listAnswer('currencies', currencies),
      'GET /api/admin/v1/currencies/settings': () => ({ body: { id: current, record: currencies.find((c) => c.id === current) } }),
      'PUT /api/admin/v1/currencies/settings': ({ body }) => {
        current = (body as { id: string }).id;
        return { body: { id: current } };
      },
      'GET /api/admin/v1/countries': ({ query }) => {
        const filter = JSON.parse(query.get('filter') ?? '{}') as { code3?: string[] };
        const found = countries.filter((c) => !filter.code3 || filter.code3.includes(c.code3));
        return { body: found, headers: { 'Content-Range': `countries 0-${found.length - 1}/${found.length}` } };
      },
    });
    const user = userEvent.setup();
    at('/currencies');
    renderApp();
    await screen.findByText('Euro');

    // The country is held by its 3-letter code and shown by name, asked for once for the whole page.
    expect(await within(rowOf('Euro')).findByText('Germany')).toBeTruthy();
    expect(within(rowOf('US dollar')).getByText('United States')).toBeTruthy();
    // (The country filter's picker reads the countries too, by name.)
    const countryCalls = server.calls.filter((c) => c.path === '/api/admin/v1/countries' && c.query.get('filter')?.includes('code3'));
    expect(countryCalls).toHaveLength(1);
    expect(JSON.parse(countryCalls[0].query.get('filter')!)).toEqual({ code3: ['DEU', 'USA'] });

    expect(await within(rowOf('US dollar')).findByText('Default')).toBeTruthy();
    expect(within(rowOf('Euro')).queryByText('Default')).toBeNull();
    expect(within(rowOf('US dollar')).queryByRole('button', { name: 'Make default' })).toBeNull();

    await user.click(within(rowOf('Euro')).getByRole('button', { name: 'Make default' }));
    const toast = await screen.findByRole('status');
    expect(within(toast).getByText('Success!')).toBeTruthy();
    expect(within(toast).getByText('Default currency updated.')).toBeTruthy();
    expect(server.calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ id: 'c2' }]);

    expect(await within(rowOf('Euro')).findByText('Default')).toBeTruthy();
    await waitFor(() => expect(within(rowOf('US dollar')).queryByText('Default')).toBeNull());
    expect(within(rowOf('US dollar')).getByRole('button', { name: 'Make default' })).toBeTruthy();
  });

  it('shows the mark but no Make default to a reader', async () => {
    fakeServer({
      [CURRENT]: () => ({ body: buyer }),
      'GET /api/admin/v1/currencies': listAnswer('currencies', currencies),
      'GET /api/admin/v1/currencies/settings': () => ({ body: { id: 'c2' } }),
      'GET /api/admin/v1/countries': listAnswer('countries', []),
    });
    at('/currencies');
    renderApp();
    expect(await within((await screen.findByText('Euro')).closest('tr')!).findByText('Default')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Make default' })).toBeNull();
  });
});

describe('recycle bin: row operations', () => {
  it('Restore sends the operation’s call for the row, toasts its success and reloads the list', async () => {
    const bin = [
      { id: 'r1', title: 'Shoes', resource: 'categories', recordId: 'c1' },
      { id: 'r2', title: 'Hats', resource: 'topCategories', recordId: 't1' },
    ];
    const server = fakeServer({
      [CURRENT]: () => ({ body: admin }),
      [ADMIN_MENUS]: listAnswer('adminMenus', []),
      'GET /api/admin/v1/recycle-bin': (call) => listAnswer('recycleBin', bin)(call),
      'POST /api/admin/v1/recycle-bin/r2/restore': () => {
        bin.splice(1, 1);
        return { body: { id: 't1' } };
      },
    });
    const user = userEvent.setup();
    at('/recycleBin');
    renderApp();
    await screen.findByText('Hats');

    await user.click(within(rowOf('Hats')).getByRole('button', { name: 'Restore' }));
    const toast = await screen.findByRole('status');
    expect(within(toast).getByText('Success!')).toBeTruthy();
    expect(within(toast).getByText('Record restored.')).toBeTruthy();
    const post = server.calls.filter((c) => c.method === 'POST');
    expect(post.map((c) => c.path)).toEqual(['/api/admin/v1/recycle-bin/r2/restore']);
    expect(post[0].body).toBeUndefined();
    await waitFor(() => expect(screen.queryByText('Hats')).toBeNull());
    expect(screen.getByText('Shoes')).toBeTruthy();
  });

  it('toasts the operation’s failure with the server answer', async () => {
    fakeServer({
      [CURRENT]: () => ({ body: admin }),
      [ADMIN_MENUS]: listAnswer('adminMenus', []),
      'GET /api/admin/v1/recycle-bin': listAnswer('recycleBin', [{ id: 'r1', title: 'Shoes', resource: 'categories' }]),
      'POST /api/admin/v1/recycle-bin/r1/restore': () => ({ status: 409, body: { message: 'A record with that id exists.' } }),
    });
    const user = userEvent.setup();
    at('/recycleBin');
    renderApp();
    await user.click(within((await screen.findByText('Shoes')).closest('tr')!).getByRole('button', { name: 'Restore' }));
    const toast = await screen.findByRole('alert');
    expect(within(toast).getByText('Unable to restore record!')).toBeTruthy();
    expect(toast.textContent).toContain('A record with that id exists.');
  });
});

describe('social links: the failure alert', () => {
  it('shows Opps / Something went wrong. when the list cannot load, and no toast', async () => {
    fakeServer({
      [CURRENT]: () => ({ body: admin }),
      [ADMIN_MENUS]: listAnswer('adminMenus', []),
      'GET /api/admin/v1/social-links/': () => ({ status: 500, body: { message: 'Internal error.' } }),
    });
    at('/socialLinks');
    renderApp();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Opps')).toBeTruthy();
    expect(within(alert).getByText('Something went wrong.')).toBeTruthy();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByText('Internal error.')).toBeNull();
  });

  it('lists them normally when the list loads', async () => {
    fakeServer({
      [CURRENT]: () => ({ body: admin }),
      [ADMIN_MENUS]: listAnswer('adminMenus', []),
      'GET /api/admin/v1/social-links/': listAnswer('socialLinks', [{ id: 's1', name: 'Our page', link: 'https://facebook.com/x', type: 'facebookpage' }]),
    });
    at('/socialLinks');
    renderApp();
    expect(await screen.findByText('Our page')).toBeTruthy();
    expect(screen.queryByText('Opps')).toBeNull();
  });
});

describe('media gallery: page paging', () => {
  it('asks ?page=1&limit=25 and reads { data, total } from the body', async () => {
    const files = Array.from({ length: 30 }, (_, i) => ({
      id: `f${i + 1}`,
      url: `/images/f${i + 1}.png`,
      name: `file-${i + 1}.png`,
      endpoint: 'pagefile',
      type: 'image/png',
      size: 100 + i,
    }));
    const server = fakeServer({
      [CURRENT]: () => ({ body: admin }),
      [ADMIN_MENUS]: listAnswer('adminMenus', []),
      'GET /api/gallery': ({ query }) => {
        const page = Number(query.get('page'));
        const limit = Number(query.get('limit'));
        return { body: { data: files.slice((page - 1) * limit, page * limit), total: files.length, page, limit } };
      },
    });
    at('/media');
    renderApp();
    expect(await screen.findByText('file-1.png')).toBeTruthy();
    const call = server.calls.find((c) => c.path === '/api/gallery')!;
    expect(call.query.get('page')).toBe('1');
    expect(call.query.get('limit')).toBe('25');
    expect(call.query.get('range')).toBeNull();
    expect(call.query.get('sort')).toBe('["id","DESC"]');
    expect(screen.queryByText('file-26.png')).toBeNull();
    // The total came from the body: react-admin knows there are two pages.
    expect(await screen.findByText(/1-25 of 30/)).toBeTruthy();
  });

  it('reads some files by id through the same call (getMany: filter={"id":[…]})', async () => {
    const server = fakeServer({
      'GET /api/gallery': ({ query }) => {
        const { id } = JSON.parse(query.get('filter')!) as { id: string[] };
        return { body: { data: id.map((i) => ({ id: i, name: `${i}.png` })), total: id.length, page: 1, limit: 2 } };
      },
    });
    const { data } = await createDataProvider(registry).getMany('media', { ids: ['f1', 'f2'] });
    expect(data.map((r) => r.name)).toEqual(['f1.png', 'f2.png']);
    const [call] = server.calls;
    expect(JSON.parse(call.query.get('filter')!)).toEqual({ id: ['f1', 'f2'] });
    expect(call.query.get('page')).toBe('1');
    expect(call.query.get('limit')).toBe('2');
  });
});
