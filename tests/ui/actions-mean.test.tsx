/**
 * Issue 51, point 6, on the screens: each action means what it says.
 * - Every details dialog, a hand-written one too (the product's commission), is read-only even for a
 *   role that may decide: no Save, nothing to type into.
 * - A row offers only what the server allows on that record: a seller is not offered Delete on its own
 *   shop, nor Edit or Delete on another seller's product.
 * - Every list's rows open: a country's row opens its update for an admin, a city's its details for a seller.
 * - An empty list says so in plain words ('The recycle bin is empty').
 * - An upload form does not offer a document kind that already waits for review.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { render } from './harness.tsx';
import userEvent from '@testing-library/user-event';
import { AdminContext, type AuthProvider } from 'react-admin';
import { vi } from 'vitest';
import { registry } from '../../resources/index.ts';
import { App } from '../../src/client/App.tsx';
import { openDialog } from '../../src/client/dialogs/context.ts';
import { DialogHost } from '../../src/client/dialogs/DialogHost.tsx';
import { dialogTitle } from '../../src/client/dialogs/titles.ts';
import { createAuthProvider } from '../../src/client/providers/auth.ts';
import { createDataProvider } from '../../src/client/providers/data.ts';
import { ToastProvider } from '../../src/client/shell/toast.tsx';
import { createSampler } from '../../src/domain/sample.ts';
import { parseCall, urlOf, type DetailsDialog, type FieldDef, type ResourceDef, type Role } from '../../src/manifest/index.ts';
import { BELL_LIST_PATH, EMPTY_BELL } from './fake-server.ts';
import { SESSION_MARKER_COOKIE } from '../../src/domain/session-marker.ts';

type Row = Record<string, unknown>;
const ME = 'u1';
const sampler = createSampler({ seed: 5, uniqueNames: true });
/** A parent's value as a reference holds it: an id, or a country's 2- or 3-letter code. */
const parentValue = (f: FieldDef) => ({ code: 'BD', code3: 'BGD' })[f.referenceBy ?? ''] ?? '6552a1b0c3d4e5f607182930';
const rowsOf = (resource: ResourceDef, n: number, extra: (i: number) => Row = () => ({})): Row[] =>
  Array.from({ length: n }, (_, i) => ({ id: `r${i + 1}`, version: 1, ...sampler.record(resource, { reference: parentValue }), ...extra(i) }));

/** Answers like the API: the signed-in `role` (id ME), `rows` for `resource`'s list read, an empty list for anything else. */
function serve(role: Role, resource: ResourceDef, rows: Row[]) {
  const listPath = urlOf(parseCall(resource.reads.list!.call).path);
  // The server's marker that a session may exist: without it the app does not ask who is signed in.
  document.cookie = `${SESSION_MARKER_COOKIE}=1; path=/`;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    const json = (body: unknown, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json', ...headers } });
    if (url.pathname.endsWith('/getcurrentuser')) return json({ id: ME, name: 'Someone', email: 'a@b.test', role, image: null });
    if (url.pathname === BELL_LIST_PATH) return json(EMPTY_BELL);
    const found = url.pathname === listPath ? rows : [];
    return json(found, { 'Content-Range': `${resource.name} 0-${Math.max(found.length - 1, 0)}/${found.length}` });
  });
}

function showList(resource: ResourceDef) {
  window.history.replaceState({}, '', `/#/${resource.name}`);
  return render(<App dataProvider={createDataProvider(registry)} authProvider={createAuthProvider()} />);
}

/** The app's first screen loads its lazy parts: on two busy cores that can take longer than one wait. */
const FIRST_SCREEN = { timeout: 45_000 };
const rowOf = async (text: string) => (await screen.findAllByText(text, {}, FIRST_SCREEN))[0]!.closest('tr')!;

/** The dialog host under a signed-in `role`, as the app mounts it. */
function renderHostAs(role: Role) {
  const auth: AuthProvider = {
    login: async () => {},
    logout: async () => {},
    checkAuth: async () => {},
    checkError: async () => {},
    getPermissions: async () => role,
    getIdentity: async () => ({ id: ME }),
  };
  vi.spyOn(globalThis, 'fetch').mockImplementation(
    async () => new Response('[]', { status: 200, headers: { 'Content-Type': 'application/json', 'Content-Range': 'rows 0-0/0' } }),
  );
  return render(
    <ToastProvider>
      <AdminContext dataProvider={createDataProvider(registry)} authProvider={auth}>
        <DialogHost />
      </AdminContext>
    </ToastProvider>,
  );
}

const everyDetails = registry.resources.flatMap((resource) =>
  Object.entries(resource.dialogs)
    .filter((entry): entry is [string, DetailsDialog] => entry[1].kind === 'details')
    .map(([type, details]) => [type, { resource, details }] as const),
);

describe('a details dialog is read-only, whoever opens it', () => {
  it('one is drawn by a hand-written component (the check below covers it)', () =>
    expect(everyDetails.some(([, d]) => d.details.component)).toBe(true));

  it.each(everyDetails)('%s, opened by an admin', async (type, { resource, details }) => {
    renderHostAs('admin');
    const record = { id: 'r1', version: 1, ...sampler.record(resource, { reference: parentValue }) };
    act(() => openDialog(type, record));
    const shown = await screen.findByRole('dialog', { name: dialogTitle(type, resource, details) });
    await within(shown).findByRole('button', { name: 'Close' });
    expect(within(shown).queryByRole('button', { name: /^(Save|Create|Submit)$/ })).toBeNull();
    const inputs = [...shown.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input:not([type="hidden"]), textarea, select')];
    expect(inputs.filter((i) => !i.readOnly && !i.disabled).map((i) => i.id || i.name)).toEqual([]);
  });
});

describe('a row offers what the server allows on that record', { timeout: 90_000 }, () => {
  it('a seller is offered Edit on its shop, not Delete', async () => {
    const sellers = registry.resource('sellers');
    const [shop] = rowsOf(sellers, 1, () => ({ userId: ME }));
    serve('seller', sellers, [shop]);
    showList(sellers);
    const row = await rowOf(String(shop.shopname));
    await waitFor(() => expect(within(row).queryByRole('button', { name: 'Edit' })).not.toBeNull());
    expect(within(row).queryByRole('button', { name: 'Delete' })).toBeNull();
    // Nor can it select its shop for a bulk delete.
    expect(within(row).queryByRole('checkbox')).toBeNull();
  });

  it("a seller is offered Edit and Delete on its own product, neither on another's", async () => {
    const products = registry.resource('products');
    const [mine, theirs] = rowsOf(products, 2, (i) => ({ sellerId: i === 0 ? ME : 'someone-else' }));
    serve('seller', products, [mine, theirs]);
    showList(products);
    const own = await rowOf(String(mine.name));
    await waitFor(() => expect(within(own).queryByRole('button', { name: 'Edit' })).not.toBeNull());
    expect(within(own).queryByRole('button', { name: 'Delete' })).not.toBeNull();
    const other = await rowOf(String(theirs.name));
    expect(within(other).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(other).queryByRole('button', { name: 'Delete' })).toBeNull();
  });
});

describe("every list's rows open", { timeout: 90_000 }, () => {
  it("a country's row opens its update for an admin", async () => {
    const countries = registry.resource('countries');
    const [country] = rowsOf(countries, 1);
    serve('admin', countries, [country]);
    showList(countries);
    await userEvent.setup().click(await rowOf(String(country.name)));
    const shown = await screen.findByRole('dialog', { name: 'Update country' });
    expect(await within(shown).findByRole('button', { name: 'Save' })).toBeTruthy();
  });

  it("a city's row opens its details for a seller", async () => {
    const cities = registry.resource('cities');
    const [city] = rowsOf(cities, 1);
    serve('seller', cities, [city]);
    showList(cities);
    await userEvent.setup().click(await rowOf(String(city.name)));
    const shown = await screen.findByRole('dialog', { name: 'City details' });
    expect(within(shown).queryByRole('button', { name: 'Save' })).toBeNull();
  });
});

describe('an empty list says so in plain words', { timeout: 90_000 }, () => {
  it.each([
    ['recycleBin', 'The recycle bin is empty'],
    ['emailHistory', 'No emails sent yet'],
  ])('%s', async (name, words) => {
    const resource = registry.resource(name);
    serve('admin', resource, []);
    showList(resource);
    expect(await screen.findByText(words, {}, FIRST_SCREEN)).toBeTruthy();
  });
});

describe('one pending document per kind', { timeout: 90_000 }, () => {
  it('the upload form does not offer a kind that waits for review', async () => {
    const documents = registry.resource('sellerDocuments');
    const [pending] = rowsOf(documents, 1, () => ({ kind: 'NATIONAL_ID', status: 'PENDING', userId: ME }));
    serve('seller', documents, [pending]);
    showList(documents);
    await rowOf('National ID card');
    const user = userEvent.setup();
    await user.click(screen.getAllByRole('button', { name: 'Create' })[0]!);
    const shown = await screen.findByRole('dialog', { name: 'Upload seller document' });
    await user.click(await within(shown).findByRole('combobox', { name: /Document/ }));
    const listbox = await screen.findByRole('listbox');
    await waitFor(() => expect(within(listbox).getByRole('option', { name: 'National ID card' }).getAttribute('aria-disabled')).toBe('true'));
    expect(within(listbox).getByRole('option', { name: 'Passport' }).getAttribute('aria-disabled')).not.toBe('true');
  });
});
