/**
 * Manifest form behaviours through the dialog host: `fill` (a top category's href follows its name's
 * slug until edited), `wire: 'option'` and `referenceBy` (currency add sends country as
 * `{ label, value }`, update as a string, both a country's code3) and `optional` (a banner update may
 * leave its image empty). Request bodies are checked as the fake server receives them.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { openDialog } from '../../src/client/dialogs/context.ts';
import { fakeServer, type SeenCall } from './fake-server.ts';
import { renderDialogHost } from './harness.tsx';

const fieldError = (id: string) => document.getElementById(`root_${id}__error`)?.textContent ?? '';
const valueOf = (el: HTMLElement) => (el as HTMLInputElement).value;

async function open(type: string, name: string, data?: Record<string, unknown>) {
  renderDialogHost();
  act(() => openDialog(type, data));
  const dialog = await screen.findByRole('dialog', { name });
  // The form is lazy: wait for its buttons.
  await within(dialog).findByRole('button', { name: /^(Create|Save)$/ });
  return dialog;
}

describe('fill: a top category href follows the slug of its name', () => {
  it('fills href while the name is typed, and stops once the user edits href', async () => {
    fakeServer();
    const user = userEvent.setup();
    const dialog = await open('addtopcategory', 'Create top category');
    const name = within(dialog).getByRole('textbox', { name: /^name/i });
    const href = within(dialog).getByRole('textbox', { name: /^href/i });

    await user.type(name, 'Summer Sale!');
    expect(valueOf(href)).toBe('summer-sale');
    await user.type(name, ' Éte');
    expect(valueOf(href)).toBe('summer-sale-ete');

    await user.type(href, '-2025');
    expect(valueOf(href)).toBe('summer-sale-ete-2025');
    await user.type(name, ' Deals');
    expect(valueOf(name)).toBe('Summer Sale! Éte Deals');
    expect(valueOf(href)).toBe('summer-sale-ete-2025');
  });

  it('on update follows only an href that is still the slug of the stored name', async () => {
    fakeServer();
    const user = userEvent.setup();
    const dialog = await open('updateTopCategory', 'Update top category', {
      id: 't1',
      name: 'Old Shoes',
      href: 'old-shoes',
      image: '/images/shoes.png',
      status: 'PUBLISHED',
      order: 2,
    });
    const name = within(dialog).getByRole('textbox', { name: /^name/i });
    const href = within(dialog).getByRole('textbox', { name: /^href/i });
    expect(valueOf(href)).toBe('old-shoes');
    await user.type(name, ' Sale');
    expect(valueOf(href)).toBe('old-shoes-sale');
  });

  it('on update keeps an href the user chose', async () => {
    fakeServer();
    const user = userEvent.setup();
    const dialog = await open('updateTopCategory', 'Update top category', {
      id: 't1',
      name: 'Old Shoes',
      href: '/collections/shoes',
      image: '/images/shoes.png',
      status: 'PUBLISHED',
      order: 2,
    });
    const name = within(dialog).getByRole('textbox', { name: /^name/i });
    await user.type(name, ' Sale');
    expect(valueOf(within(dialog).getByRole('textbox', { name: /^href/i }))).toBe('/collections/shoes');
  });
});

const COUNTRIES = [
  { id: 'c1', name: 'Germany', code: 'DE', code3: 'DEU', status: 1 },
  { id: 'c2', name: 'France', code: 'FR', code3: 'FRA', status: 1 },
];

/**
 * The countries list as the server answers it: `q` searches names, `code`/`code3` match exactly.
 * Unfiltered, its "first page" holds France only, so Germany can only be found by asking for it.
 */
function countriesList({ query }: SeenCall) {
  const filter = JSON.parse(query.get('filter') ?? '{}') as Record<string, string>;
  const keys = Object.keys(filter);
  let rows = keys.length ? COUNTRIES : COUNTRIES.filter((c) => c.code3 !== 'DEU');
  if (filter.q) rows = COUNTRIES.filter((c) => c.name.toLowerCase().includes(filter.q.toLowerCase()));
  if (filter.code) rows = rows.filter((c) => c.code === filter.code);
  if (filter.code3) rows = rows.filter((c) => c.code3 === filter.code3);
  return { body: rows, headers: { 'Content-Range': `countries 0-${Math.max(rows.length - 1, 0)}/${rows.length}` } };
}

async function pickCountry(dialog: HTMLElement, typed: string, name: string) {
  const user = userEvent.setup();
  const country = within(dialog).getByRole('combobox', { name: /country/i });
  await user.clear(country);
  await user.type(country, typed);
  await user.click(await screen.findByRole('option', { name }));
  await waitFor(() => expect(valueOf(country)).toBe(name));
}

describe('currency country: a reference to countries by code3', () => {
  it("add sends country as { label, value } and shows 'Country is required!' under the field", async () => {
    const server = fakeServer({
      'GET /api/admin/v1/countries': countriesList,
      'POST /api/admin/v1/currencies': () => ({ status: 201, body: { id: 'cur1' } }),
    });
    const user = userEvent.setup();
    const dialog = await open('addCurrencyModal', 'Create currency');

    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(fieldError('country')).toBe('Country is required!'));
    expect(within(dialog).getByRole('combobox', { name: /country/i }).getAttribute('aria-invalid')).toBe('true');
    // One picker, no nested label/value inputs.
    expect(within(dialog).queryByRole('textbox', { name: /^label/i })).toBeNull();

    await user.type(within(dialog).getByRole('textbox', { name: /^name/i }), 'Euro');
    await user.type(within(dialog).getByRole('textbox', { name: /^symbol/i }), '€');
    await user.type(within(dialog).getByRole('textbox', { name: /^code/i }), 'EUR');
    await user.type(within(dialog).getByRole('spinbutton', { name: /^rate/i }), '1.5');
    await pickCountry(dialog, 'germ', 'Germany');
    await waitFor(() => expect(fieldError('country')).toBe(''));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    await screen.findByText('Currency created successfully.');
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([
      expect.objectContaining({
        path: '/api/admin/v1/currencies',
        body: { name: 'Euro', symbal: '€', code: 'EUR', rate: 1.5, country: { label: 'Germany', value: 'DEU' } },
      }),
    ]);
  });

  it('update shows the stored code3 by its country name and sends country as a string', async () => {
    const server = fakeServer({
      'GET /api/admin/v1/countries': countriesList,
      'PATCH /api/admin/v1/currencies/cur1': () => ({ body: { id: 'cur1' } }),
    });
    const user = userEvent.setup();
    const dialog = await open('updateCurrency', 'Update currency', {
      id: 'cur1',
      name: 'Euro',
      symbal: '€',
      code: 'EUR',
      rate: 1.5,
      country: 'DEU',
      status: 1,
    });
    const country = within(dialog).getByRole('combobox', { name: /country/i });
    // Germany is not on the first page: its name comes from asking for code3 = DEU.
    await waitFor(() => expect(valueOf(country)).toBe('Germany'));
    expect(server.calls.some((c) => c.path === '/api/admin/v1/countries' && c.query.get('filter') === '{"code3":"DEU"}')).toBe(true);

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Currency updated successfully.');
    expect(server.calls.filter((c) => c.method === 'PATCH')).toEqual([
      expect.objectContaining({
        path: '/api/admin/v1/currencies/cur1',
        body: { name: 'Euro', symbal: '€', code: 'EUR', rate: 1.5, country: 'DEU', status: 1 },
      }),
    ]);
  });

  it('update sends the code3 of another picked country', async () => {
    const server = fakeServer({
      'GET /api/admin/v1/countries': countriesList,
      'PATCH /api/admin/v1/currencies/cur1': () => ({ body: { id: 'cur1' } }),
    });
    const user = userEvent.setup();
    const dialog = await open('updateCurrency', 'Update currency', {
      id: 'cur1',
      name: 'Euro',
      symbal: '€',
      code: 'EUR',
      rate: 1.5,
      country: 'DEU',
      status: 1,
    });
    await waitFor(() => expect(valueOf(within(dialog).getByRole('combobox', { name: /country/i }))).toBe('Germany'));
    await pickCountry(dialog, 'fra', 'France');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Currency updated successfully.');
    expect(server.calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({ country: 'FRA' });
  });

  it('a city prefilled with a country code shows its name, found by code', async () => {
    const server = fakeServer({ 'GET /api/admin/v1/countries': countriesList });
    const dialog = await open('createCity', 'Create city', { country: 'DE' });
    await waitFor(() => expect(valueOf(within(dialog).getByRole('combobox', { name: /country/i }))).toBe('Germany'));
    expect(server.calls.some((c) => c.query.get('filter') === '{"code":"DE"}')).toBe(true);
  });
});

describe('optional: a banner update may leave its image empty', () => {
  const banner = { id: 'b1', name: 'Spring', href: '', url: '', position: 2 };

  it('update-banner with an empty image submits and sends it as empty', async () => {
    const server = fakeServer({ 'PATCH /api/admin/v1/banners/b1': () => ({ body: { id: 'b1' } }) });
    const user = userEvent.setup();
    const dialog = await open('update-banner', 'Update banner', banner);
    // The optional link and image are plain inputs, not an "Option 1 / Option 2" choice.
    expect(within(dialog).queryByRole('combobox')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Banner updated successfully.');
    expect(fieldError('url')).toBe('');
    expect(server.calls).toEqual([
      expect.objectContaining({ method: 'PATCH', path: '/api/admin/v1/banners/b1', body: { name: 'Spring', href: '', url: '', position: 2 } }),
    ]);
  });

  it('add-banner still requires the image', async () => {
    const server = fakeServer();
    const user = userEvent.setup();
    const dialog = await open('add-banner', 'Create banner', { name: 'Spring', position: 2 });
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(fieldError('url')).toBe('Inavlid Image URL.'));
    expect(server.calls).toEqual([]);
  });
});
