/**
 * Role areas in happy-dom (real providers and react-admin, `fetch` answered here): each role lands in its
 * own area and is offered only what it may use; the admin keeps its dashboard and gets the referral
 * tree and the storefront people; deep links still open. And the referral code of a link: kept under
 * the `{product}-house` key, sent once after sign-in, a failure answering false silently.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { render } from './harness.tsx';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { BELL_LIST_PATH, EMPTY_BELL } from './fake-server.ts';
import { registry } from '../../resources/index.ts';
import type { ReferralTree } from '../../resources/referrals.ts';
import { App } from '../../src/client/App.tsx';
import { createAuthProvider } from '../../src/client/providers/auth.ts';
import { createDataProvider, listPath, pagesByNumber } from '../../src/client/providers/data.ts';
import { AREA_ROLES, AREA_TITLES, homeOf, mayUse, usableLists } from '../../src/client/areas/areas.ts';
import { screensFor } from '../../src/client/areas/screens.ts';
import { sendAffiliate } from '../../src/client/areas/affiliate.ts';
import { brefOf, captureReferral, storedReferral } from '../../src/client/areas/referral-storage.ts';
import { REFERRAL_STORAGE_KEY } from '../../src/client/shell/app-name.ts';
import { FALLBACK } from '../../src/client/shell/FallbackPages.tsx';
import { SLIDER_LOAD_ERRORS } from '../../src/domain/sliders.ts';
import { defineResource, field, type Role } from '../../src/manifest/index.ts';

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}
type Answer = { status?: number; body?: unknown; headers?: Record<string, string> };

/**
 * The API as `role` sees it: its account, the `routes` given, and every declared list answered with
 * `total` rows counted (the rows themselves empty), as the server's Content-Range says.
 */
function serve(role: Role, routes: Record<string, (call: Seen) => Answer> = {}, total = 0) {
  const account = { id: `id-${role}`, name: `Demo ${role}`, email: `${role}@demo.test`, role, image: null, inviteCode: `DEMO-${role.toUpperCase()}` };
  const lists = new Map(registry.resources.filter((r) => r.reads.list?.kind === 'list').map((r) => [`/${listPath(r)}`.replace(/\/$/, ''), r]));
  const calls: Seen[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    const call = { method: (init?.method ?? 'GET').toUpperCase(), path: url.pathname, query: url.searchParams, body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    const route = routes[`${call.method} ${call.path}`] ?? (call.path === BELL_LIST_PATH ? () => ({ body: EMPTY_BELL }) : undefined);
    const list = lists.get(call.path.replace(/\/$/, ''));
    const answer: Answer = route
      ? route(call)
      : call.path.endsWith('/getcurrentuser')
        ? { body: account }
        : list && call.method === 'GET'
          ? pagesByNumber(list)
            ? { body: { data: [], total } }
            : { body: [], headers: { 'Content-Range': `${list.name} 0-0/${total}` } }
          : { status: 404, body: { message: 'Not found.' } };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  });
  return { calls, account };
}

function visit(path: string) {
  window.history.replaceState({}, '', path.startsWith('/#') || path.startsWith('/?') ? path : `/#${path}`);
  return render(<App dataProvider={createDataProvider(registry)} authProvider={createAuthProvider()} />);
}

/** The admin's sidebar reads the admin-menu entries: none here. */
const NO_MENUS = { 'GET /api/admin/v1/admin-menus/': () => ({ body: [], headers: { 'Content-Range': 'adminMenus 0-0/0' } }) };

const menu = () => screen.getAllByRole('menu').find((m) => m.classList.contains('RaMenu-open') || m.classList.contains('RaMenu-closed'))!;

describe('what each role is offered', () => {
  it('offers a list to a role its access names or whose forms it may open, not reference data it only reads', () => {
    const shelf = (readers: 'signedIn' | ['seller'], writers: ['admin'] | ['seller']) =>
      defineResource({ name: 'shelves', label: 'Shelf', plural: 'Shelves', access: { read: readers, write: writers }, fields: [field.text('name', { list: true })], reads: { list: { kind: 'list', call: 'GET /shelves' } } });
    expect(mayUse(shelf('signedIn', ['admin']), 'seller')).toBe(false);
    expect(mayUse(shelf('signedIn', ['admin']), 'admin')).toBe(true); // the admin is offered every list it may read
    expect(mayUse(shelf('signedIn', ['seller']), 'seller')).toBe(false); // no form declared: nothing to do with it
    expect(mayUse(shelf(['seller'], ['admin']), 'seller')).toBe(true);
    expect(mayUse(shelf(['seller'], ['admin']), 'user')).toBe(false);
    // Today: the admin uses every list it may read; nobody else is offered the catalogue.
    expect(usableLists(registry.resources, 'admin').length).toBeGreaterThan(10);
    expect(usableLists(registry.resources, 'seller').map((r) => r.name)).not.toContain('categories');
  });

  it('lands each role in its area, and the admin on its dashboard', () => {
    expect(homeOf('admin')).toBe('/');
    expect(AREA_ROLES.map(homeOf)).toEqual(['/seller', '/dealer', '/agent', '/user', '/support']);
    expect(homeOf(undefined)).toBe('/');
  });
});

describe('role areas', () => {
  it('sends a seller from the landing page to its area: its account, referral link and what it may use, counted', async () => {
    const { calls } = serve('seller', {}, 7);
    visit('/');
    expect(await screen.findByRole('heading', { level: 1, name: AREA_TITLES.seller })).toBeTruthy();
    expect(window.location.hash).toBe('#/seller');
    expect(screen.getByText('seller@demo.test')).toBeTruthy();
    expect(screen.getByText(`${window.location.origin}/?bref=DEMO-SELLER`)).toBeTruthy();

    const usable = usableLists(registry.resources, 'seller');
    if (usable.length) {
      // Each count is read as the list reads it, one row: the total is the server's Content-Range.
      for (const r of usable) {
        // The list's own card, not a waiting card that names it too ('Payouts waiting to be paid').
        const card = await screen.findByRole('link', { name: new RegExp(`^${r.plural.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*[\\d,–]*$`) });
        await waitFor(() => expect(card.textContent).toBe(`${r.plural}7`));
        const read = calls.find((c) => c.path.replace(/\/$/, '') === `/${listPath(r)}`.replace(/\/$/, ''))!;
        if (!pagesByNumber(r)) expect(read.query.get('range')).toBe('[0,0]');
      }
    } else expect(screen.getByText('Nothing to manage here yet.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Recent changes' })).toBeNull();

    // The menu: its area first; no catalogue, content or settings it can only read.
    const items = within(menu()).getAllByRole('menuitem').map((el) => el.textContent);
    expect(items[0]).toBe(AREA_TITLES.seller);
    expect(items).not.toContain('Categories');
    expect(items).not.toContain('Dashboard');
    // Every list it may use is in the menu, under its manifest's group (groups in registry order).
    expect(usable.filter((r) => !r.menu).map((r) => r.name)).toEqual([]);
    const groups = [...new Set(usable.map((r) => r.menu!.group))];
    const grouped = groups.flatMap((g) => usable.filter((r) => r.menu!.group === g));
    expect(items).toEqual([AREA_TITLES.seller, ...grouped.map((r) => r.plural)]);
  });

  it.each(AREA_ROLES.filter((r) => r !== 'seller'))('lands %s in its own area', async (role) => {
    serve(role);
    visit('/');
    expect(await screen.findByRole('heading', { level: 1, name: AREA_TITLES[role] })).toBeTruthy();
    expect(window.location.hash).toBe(`#${homeOf(role)}`);
  });

  it("tells a role that another role's area is not for it", async () => {
    serve('seller');
    visit('/agent');
    expect(await screen.findByRole('heading', { level: 2, name: FALLBACK.denied })).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1, name: AREA_TITLES.agent })).toBeNull();
  });

  it('keeps deep links: a buyer opening a list it may read by address gets the list, not its area', async () => {
    serve('user', { 'GET /api/admin/v1/categories': () => ({ body: [{ id: 'c1', name: 'Shoes' }], headers: { 'Content-Range': 'categories 0-0/1' } }) });
    visit('/categories');
    expect(await screen.findByText('Shoes')).toBeTruthy();
    expect(window.location.hash).toBe('#/categories');
    expect(within(menu()).queryByRole('menuitem', { name: 'Categories' })).toBeNull();
    expect(within(menu()).getByRole('menuitem', { name: AREA_TITLES.user })).toBeTruthy();
  });

  it('keeps the admin on its dashboard, with the referral tree and the storefront people in its menu', async () => {
    serve('admin', NO_MENUS);
    visit('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
    expect(window.location.hash).toBe('#/');
    const people = within(menu()).getByRole('group', { name: 'People' });
    expect(within(people).getAllByRole('menuitem').map((el) => el.textContent)).toEqual(expect.arrayContaining(['Referrals', 'Storefront people']));
    expect(screensFor('admin').some((s) => s.area)).toBe(false);
    expect(screensFor('seller').map((s) => s.path)).toEqual(['/seller']);
  });
});

describe('the referral tree screen', () => {
  const tree = (names: string[]): ReferralTree => ({
    data: [
      {
        id: 'a1', name: names[0], email: null, role: 'agent', image: null, descendants: 2,
        children: [{ id: 's1', name: names[1], email: null, role: 'seller', image: null, descendants: 1, children: [{ id: 'u1', name: names[2], email: null, role: 'user', image: null, descendants: 0, children: [] }] }],
      },
    ],
    total: 3,
    truncated: false,
  });

  it('draws who brought whom as nested lists, each branch opened and closed by a button', async () => {
    const { calls } = serve('admin', {
      ...NO_MENUS,
      'GET /api/admin/v1/flowchart/agents': () => ({ body: tree(['Ann', 'Sam', 'Uma']) }),
      'GET /api/admin/v1/flowchart/users': () => ({ body: tree(['Xen', 'Yui', 'Zed']) }),
    });
    const user = userEvent.setup();
    visit('/referrals');
    const chart = await screen.findByRole('list', { name: 'Referral tree: Agents' });
    const ann = within(chart).getByText('Ann').closest('li')!;
    // Sam is in Ann's list, Uma in Sam's.
    const sam = within(ann).getByText('Sam').closest('li')!;
    expect(within(sam).getByText('Uma')).toBeTruthy();
    const toggle = within(ann).getByRole('button', { name: 'Hide who Ann brought in' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await user.click(toggle);
    expect(within(ann).queryByText('Sam')).toBeNull();
    expect(within(ann).getByRole('button', { name: 'Show who Ann brought in' }).getAttribute('aria-expanded')).toBe('false');

    await user.click(screen.getByRole('button', { name: 'Everyone' }));
    expect(await screen.findByRole('list', { name: 'Referral tree: Everyone' })).toBeTruthy();
    expect(screen.getByText('Xen')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/admin/v1/flowchart/users')).toBe(true);
  });
});

describe('the storefront people (the slider data hook)', () => {
  it('reads each slider with §9’s defaults and shows §8’s message for one that fails', async () => {
    const { calls } = serve('admin', {
      ...NO_MENUS,
      'GET /api/front/sliders': ({ query }) =>
        query.get('type') === 'AGENTS'
          ? { status: 500, body: { message: 'Internal server error.' } }
          : { body: { data: [{ name: `One of the ${query.get('type')?.toLowerCase()}`, country: 'Bangladesh', image: null }] } },
    });
    visit('/people');
    expect(await screen.findByText(SLIDER_LOAD_ERRORS.AGENTS)).toBeTruthy();
    expect(screen.getByText('One of the admins')).toBeTruthy();
    expect(screen.getByText('One of the sellers')).toBeTruthy();
    expect(screen.queryByText(SLIDER_LOAD_ERRORS.ADMINS)).toBeNull();
    const read = calls.find((c) => c.path === '/api/front/sliders' && c.query.get('type') === 'DEALERS')!;
    expect([read.query.get('page'), read.query.get('limit')]).toEqual(['1', '1000']);
  });

  it('shows every load error when the call fails for all', async () => {
    serve('admin', { ...NO_MENUS, 'GET /api/front/sliders': () => ({ body: { oops: true } }) });
    visit('/people');
    for (const message of Object.values(SLIDER_LOAD_ERRORS)) expect(await screen.findByText(message)).toBeTruthy();
  });
});

describe('the referral code of a link', () => {
  it('reads bref from the query or from the hash route’s query, and keeps it under the {product}-house key', () => {
    expect(REFERRAL_STORAGE_KEY).toBe('marketplace-house');
    expect(brefOf('https://shop.test/?bref=AGENT-7#/')).toBe('AGENT-7');
    expect(brefOf('https://shop.test/#/login?bref=AGENT-8')).toBe('AGENT-8');
    expect(brefOf('https://shop.test/?bref=%20%20')).toBeUndefined();
    expect(brefOf(`https://shop.test/?bref=${'x'.repeat(65)}`)).toBeUndefined();
    expect(brefOf('https://shop.test/#/categories')).toBeUndefined();
    expect(captureReferral('https://shop.test/?bref=AGENT-7')).toBe('AGENT-7');
    expect(JSON.parse(localStorage.getItem('marketplace-house')!)).toEqual({ bref: 'AGENT-7' });
    expect(captureReferral('https://shop.test/#/')).toBeUndefined();
    expect(storedReferral()).toBe('AGENT-7');
    localStorage.setItem('marketplace-house', 'not json');
    expect(storedReferral()).toBeUndefined();
  });

  it('sends it once, then forgets it; a failure answers false and throws nothing', async () => {
    const post = vi.fn().mockResolvedValue({ status: 200, headers: new Headers(), body: '', json: {} });
    expect(await sendAffiliate('u7', undefined, post)).toBe(false); // nothing kept: nothing sent
    expect(post).not.toHaveBeenCalled();
    captureReferral('/?bref=DEMO-AGENT');
    expect(await sendAffiliate('u7', undefined, post)).toBe(true);
    expect(post).toHaveBeenCalledWith('POST /affiliate', {}, { bhrfc: 'DEMO-AGENT', userId: 'u7' });
    expect(localStorage.getItem('marketplace-house')).toBeNull();
    expect(await sendAffiliate('u7', undefined, post)).toBe(false);
    expect(post).toHaveBeenCalledTimes(1);

    captureReferral('/?bref=NOBODY');
    const failing = vi.fn().mockRejectedValue(new Error('400'));
    expect(await sendAffiliate('u7', undefined, failing)).toBe(false);
    expect(storedReferral()).toBeUndefined();
    expect(await sendAffiliate(undefined, undefined, post)).toBe(false);
  });

  it('is kept from the link the app opens with, and sent after sign-in with the account’s id', async () => {
    const { calls } = serve('user', { 'POST /api/admin/v1/affiliate': () => ({ status: 400, body: { message: 'Validation failed.' } }) });
    visit('/?bref=DEMO-SELLER#/');
    await screen.findByRole('heading', { level: 1, name: AREA_TITLES.user });
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/admin/v1/affiliate')).toHaveLength(1));
    expect(calls.find((c) => c.path === '/api/admin/v1/affiliate')!.body).toEqual({ bhrfc: 'DEMO-SELLER', userId: 'id-user' });
    // The refusal shows nothing, and the code is not sent again.
    expect(screen.queryByRole('alert')).toBeNull();
    expect(localStorage.getItem(REFERRAL_STORAGE_KEY)).toBeNull();
  });
});
