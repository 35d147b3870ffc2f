/**
 * Values people read and filters by kind, on every list screen (generated from the registry, so every
 * future resource is held to it too), in the whole app: real providers and react-admin, `fetch`
 * answered by a fake server.
 * - An enumerated value (a select, a flag, a number with `choices`) reads as its label, never `1`/`0`;
 *   a size as '12.3 kB'; a date in the user's locale; a resource by its label ('Top category'); a
 *   reference as its target's name, linked to the target's dialog (or its list).
 * - Each offered filter is an input of the value's kind: a select for enumerations and flags, a picker
 *   for references, a number box for numbers; a text box only for text.
 * - A refused list call leaves no stale total on screen.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { render } from './harness.tsx';
import userEvent from '@testing-library/user-event';
import { registry } from '../../resources/index.ts';
import { App } from '../../src/client/App.tsx';
import { createAuthProvider } from '../../src/client/providers/auth.ts';
import { createDataProvider, listPath } from '../../src/client/providers/data.ts';
import { choiceOf, filterInputKind, FLAG_CHOICES } from '../../src/client/generate/choices.ts';
import { formatBytes, formatDateTime } from '../../src/client/generate/formats.ts';
import { recordAddress } from '../../src/client/generate/record-address.ts';
import { HIDDEN_BY_DEFAULT, listColumns } from '../../src/client/generate/columns.tsx';
import { INLINE_FILTERS, listFilters } from '../../src/client/generate/filters.tsx';
import { labelOf, listOptions, urlOf, type FieldDef, type ResourceDef } from '../../src/manifest/index.ts';
import { fakeServer, type SeenCall } from './fake-server.ts';

const admin = { id: 'u1', name: 'Ada Admin', email: 'ada@example.com', role: 'admin', image: null };
const CURRENT = 'GET /api/admin/v1/getcurrentuser';

const renderApp = () => render(<App dataProvider={createDataProvider(registry)} authProvider={createAuthProvider()} />);
const at = (path: string) => window.history.replaceState({}, '', `/#${path}`);
beforeEach(() => at('/'));

const listed = registry.resources.filter((r) => r.reads.list?.kind === 'list');
const AN_INSTANT = '2024-05-01T14:05:00.000Z';

/** A record of `target` that a reference points at, named so the test can find it. */
const parentOf = (target: ResourceDef) => ({ id: `p-${target.name}`, [target.title]: `Parent of ${target.name}`, code: 'PC', code3: 'PCC' });

/**
 * A row whose every listed field holds a value that must read as words, and what each should read.
 * The toggle's field is a switch for an admin, not a display, so it is left out.
 */
function rowFor(r: ResourceDef): { row: Record<string, unknown>; expected: Record<string, string> } {
  const row: Record<string, unknown> = { id: 'r1', [r.title]: `Row of ${r.name}`, version: 1 };
  const expected: Record<string, string> = {};
  for (const f of r.fields.filter((x) => x.list && x.name !== r.list?.toggle)) {
    if (f.display === 'datetime') {
      // A minute apart: a row with several dates (a scheduled job's) reads each in its own cell.
      const instant = new Date(Date.parse(AN_INSTANT) + 60_000 * Object.keys(expected).length).toISOString();
      row[f.name] = instant;
      expected[f.name] = formatDateTime(instant)!;
    } else if (f.display === 'resource') {
      row[f.name] = 'topCategories';
      expected[f.name] = 'Top category';
    } else if (f.display === 'bytes') {
      row[f.name] = 12_345;
      expected[f.name] = formatBytes(12_345)!;
    } else if (f.choices?.length || f.kind === 'boolean' || f.kind === 'select') {
      const choices = f.choices ?? (f.kind === 'boolean' ? FLAG_CHOICES : f.options!.map((o) => ({ value: o, label: o })));
      // The last choice: a status 0 must read 'Inactive' as surely as 1 reads 'Active'.
      const choice = choices[choices.length - 1];
      row[f.name] = choice.value;
      expected[f.name] = choiceOf(choices, choice.value)!.label;
    } else if (f.kind === 'reference') {
      const target = registry.resource(f.reference!);
      const parent = parentOf(target);
      row[f.name] = parent[f.referenceBy ?? 'id'];
      expected[f.name] = String(parent[target.title]);
    }
  }
  return { row, expected };
}

/** Answers every resource's list call (and the few other reads a list screen makes) from `rows`. */
function serve(rows: Map<string, Record<string, unknown>[]>, extra: Record<string, (c: SeenCall) => { status?: number; body?: unknown; headers?: Record<string, string> }> = {}) {
  const routes: Record<string, (c: SeenCall) => { status?: number; body?: unknown; headers?: Record<string, string> }> = {
    [CURRENT]: () => ({ body: admin }),
  };
  for (const r of listed) {
    const paged = r.reads.list?.kind === 'list' && r.reads.list.paging === 'page';
    routes[`GET /${listPath(r)}`] = ({ query }) => {
      const filter = JSON.parse(query.get('filter') ?? '{}') as Record<string, unknown>;
      let found = rows.get(r.name) ?? (r.fields.length ? [parentOf(r)] : []);
      for (const [key, value] of Object.entries(filter))
        if (Array.isArray(value)) found = found.filter((row) => value.map(String).includes(String(row[key])));
      if (paged) return { body: { data: found, total: found.length, page: 1, limit: 25 } };
      return { body: found, headers: { 'Content-Range': `${r.name} 0-${Math.max(found.length - 1, 0)}/${found.length}` } };
    };
    if (r.defaultRecord) routes[`GET ${urlOf(r.defaultRecord.read.slice(4))}`] = () => ({ body: { id: null } });
  }
  return fakeServer({ ...routes, ...extra });
}

describe('values people read', () => {
  it.each(listed.map((r) => [r.name, r] as const))('%s: every listed value reads as words, references as linked names', async (_name, r) => {
    const { row, expected } = rowFor(r);
    // A reference to its own resource (a seller's dealer) is looked up in the same list: serve its parent too.
    const selfReferring = r.fields.some((f) => f.list && f.kind === 'reference' && f.reference === r.name);
    serve(new Map([[r.name, selfReferring ? [row, parentOf(r)] : [row]]]));
    at(`/${r.name}`);
    renderApp();
    const table = await screen.findByRole('table');
    const dataRow = await waitFor(() => {
      const found = within(table).getAllByRole('row').find((tr) => tr.querySelector('td'));
      if (!found) throw new Error('no data row yet');
      return found;
    });
    for (const [name, text] of Object.entries(expected)) {
      const f = r.fields.find((x) => x.name === name)!;
      // Two columns may read the same words (an order's buyer and seller, both accounts): each its own cell.
      const alike = Object.values(expected).filter((t) => t === text).length;
      const cells = await within(dataRow).findAllByText(text, {}, { timeout: 5000 }).catch(() => []);
      expect(cells.length, `${r.name}.${name} should read '${text}'`).toBe(alike);
      for (const shown of cells) {
        if (f.kind === 'reference') {
          const target = registry.resource(f.reference!);
          const link = shown.closest('a');
          expect(link, `${r.name}.${name} links to its ${target.label}`).toBeTruthy();
          expect(link!.getAttribute('href')).toBe(`#${recordAddress(registry, target, parentOf(target), 'admin')}`);
        }
        if (f.choices?.length || f.kind === 'boolean' || f.kind === 'select') expect(shown.closest('.MuiChip-root'), `${r.name}.${name} on a chip`).toBeTruthy();
      }
    }
    // Never a bare stored number where words were declared: no cell reads just '0' or '1' for an enumeration.
    for (const [name] of Object.entries(expected)) {
      const f = r.fields.find((x) => x.name === name)!;
      if (f.choices?.length) expect(within(dataRow).queryByText(String(row[name]))).toBeNull();
    }
  });

  it("offers every list the records’ timestamps as columns, hidden until chosen, sortable unless it says timestamps: 'shown'", () => {
    expect(HIDDEN_BY_DEFAULT).toEqual(['createdAt', 'updatedAt']);
    expect(listed.filter((r) => r.timestamps === 'shown').map((r) => r.name)).toContain('auditLog');
    for (const r of listed) {
      const columns = listColumns(r, { registry });
      const sortable = r.timestamps !== 'shown';
      for (const name of HIDDEN_BY_DEFAULT) {
        const column = columns.find((c) => (c.props as { source?: string }).source === name);
        expect(column, `${r.name}.${name}`).toBeTruthy();
        expect(!!(column!.props as { sortable?: boolean }).sortable, `${r.name}.${name} sorts`).toBe(sortable);
        expect(listOptions(r).sorts.includes(name), `${r.name} offers ${name}`).toBe(sortable);
      }
    }
  });

  it('shows a chosen Created column in the user’s locale', async () => {
    const row = { id: 'c1', name: 'Shoes', order: '1', createdAt: AN_INSTANT, updatedAt: AN_INSTANT };
    serve(new Map([['categories', [row]]]));
    const user = userEvent.setup();
    at('/categories');
    renderApp();
    await screen.findByText('Shoes');
    expect(screen.queryByText(formatDateTime(AN_INSTANT)!)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Created' }));
    await user.keyboard('{Escape}');
    const cell = await screen.findByText(formatDateTime(AN_INSTANT)!);
    expect(cell.closest('time')?.getAttribute('datetime')).toBe(AN_INSTANT);
  });

  it('names the recycle bin’s and the audit log’s resource by its label', async () => {
    serve(
      new Map([
        ['recycleBin', [{ id: 'b1', title: 'Summer sale', resource: 'topCategories', recordId: 't1' }]],
        ['auditLog', [{ id: 'a1', at: AN_INSTANT, user: 'ada@example.com', role: 'admin', resource: 'childCategories', recordId: 'c1', action: 'update' }]],
      ]),
    );
    at('/recycleBin');
    const { unmount } = renderApp();
    const bin = (await screen.findByText('Summer sale')).closest('tr')!;
    expect(within(bin).getByText('Top category')).toBeTruthy();
    expect(within(bin).queryByText('topCategories')).toBeNull();
    unmount();
    at('/auditLog');
    renderApp();
    const entry = (await screen.findByText('ada@example.com')).closest('tr')!;
    expect(within(entry).getByText('Child category')).toBeTruthy();
    expect(within(entry).getByText(formatDateTime(AN_INSTANT)!)).toBeTruthy();
  });

  it('opens a child category’s parent in its update dialog from the link', async () => {
    const parent = { id: 'c1', name: 'Electronics', order: '1', slug: 'electronics', version: 3 };
    serve(new Map([['childCategories', [{ id: 'k1', name: 'Phones', image: '/logo.jpg', slug: 'phones', category: 'c1' }]], ['categories', [parent]]]), {
      'GET /api/admin/v1/categories/c1': () => ({ body: parent, headers: { ETag: '"3"' } }),
    });
    const user = userEvent.setup();
    at('/childCategories');
    renderApp();
    const row = (await screen.findByText('Phones')).closest('tr')!;
    await user.click(await within(row).findByRole('link', { name: 'Electronics' }));
    const dialog = await screen.findByRole('dialog', { name: /update category/i });
    expect(((await within(dialog).findByRole('textbox', { name: /name/i })) as HTMLInputElement).value).toBe('Electronics');
    expect(window.location.hash).toBe('#/categories?dialog=updateCategory&id=c1');
  });

  it('shows a media file’s size in the user’s locale (12.3 kB)', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(12_345)).toBe('12.3 kB');
    expect(formatBytes(4_500_000)).toBe('4.5 MB');
    expect(formatBytes(999_999)).toBe('1 MB');
    expect(formatBytes(12_345, 'de-DE')).toBe('12,3 kB');
    expect(formatBytes('x')).toBeUndefined();
    expect(formatDateTime(AN_INSTANT, 'en-US')).toMatch(/^May 1, 2024/);
  });
});

/** The accessible role of each kind of filter input. */
const ROLE_OF = { select: 'combobox', reference: 'combobox', number: 'spinbutton', text: 'textbox' } as const;

/** The sources of a list's filters behind its Filters button (the admin's, on a wide screen). */
const behindButton = (r: ResourceDef) => listFilters(registry, r, 'admin').more.map((e) => String((e.props as { source: string }).source));

/** Opens the list's Filters popover: the filter inputs not above the list are in it. */
async function openFilters(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: /^Filters/ }));
  return screen.findByRole('dialog', { name: 'Filters' });
}

describe('filters by kind', () => {
  const withFilters = listed.filter((r) => listOptions(r, registry).filters.length);

  it('offers Countries’ Status and Home sections’ Active as selects (they were text boxes answering 400)', () => {
    const kind = (r: string, f: string) => filterInputKind(registry, registry.resource(r).fields.find((x) => x.name === f)!);
    expect(kind('countries', 'status')).toBe('select');
    expect(kind('homeSections', 'isActive')).toBe('select');
  });

  it.each(withFilters.map((r) => [r.name, r] as const))('%s: each filter is an input of its value’s kind', async (_name, r) => {
    serve(new Map());
    const user = userEvent.setup();
    at(`/${r.name}`);
    renderApp();
    await screen.findByRole('table');
    const names = listOptions(r, registry).filters;
    const behind = behindButton(r);
    // The search and at most INLINE_FILTERS exact filters stand above the list (issue 51 §4).
    expect(names.filter((n) => !behind.includes(n)).length).toBeLessThanOrEqual(INLINE_FILTERS);
    // Those above the list first: an open popover hides the rest of the page from assistive technology.
    for (const place of ['above', 'behind'] as const) {
      const here = names.filter((n) => behind.includes(n) === (place === 'behind'));
      if (!here.length) continue;
      const scope = place === 'above' ? screen : within(await openFilters(user));
      for (const name of here) {
        const f = r.fields.find((x) => x.name === name) as FieldDef;
        const kind = filterInputKind(registry, f);
        if (kind === 'text') expect(f.storage, `${r.name}.${name}: only text gets a text box`).toBe('text');
        const input = await scope.findByRole(ROLE_OF[kind], { name: labelOf(f) });
        expect(input, `${r.name}.${name}`).toBeTruthy();
      }
    }
  });

  it('sends the chosen status as its value: Inactive is 0, and a flag’s Inactive is false', async () => {
    const server = serve(new Map());
    const user = userEvent.setup();
    at('/countries');
    const { unmount } = renderApp();
    await screen.findByRole('table');
    // Countries' Status is its third filter: behind the Filters button.
    await user.click(within(await openFilters(user)).getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Inactive' }));
    await waitFor(() => expect(server.calls.some((c) => c.path === '/api/admin/v1/countries' && JSON.parse(c.query.get('filter') ?? '{}').status === 0)).toBe(true));
    unmount();
    at('/homeSections');
    renderApp();
    await screen.findByRole('table');
    await user.click(screen.getByRole('combobox', { name: 'Active' }));
    await user.click(await screen.findByRole('option', { name: 'Inactive' }));
    await waitFor(() => expect(server.calls.some((c) => c.path === '/api/home-sections' && JSON.parse(c.query.get('filter') ?? '{}').isActive === 'false')).toBe(true));
  });

  it('filters by a reference held as another field of its target by that field (a currency’s country by its 3-letter code)', async () => {
    const server = serve(new Map([['countries', [{ id: 'k2', name: 'Germany', code: 'DE', code3: 'DEU', status: 1 }]]]));
    const user = userEvent.setup();
    at('/currencies');
    renderApp();
    await screen.findByRole('table');
    await user.click(screen.getByRole('combobox', { name: 'Country' }));
    await user.click(await screen.findByRole('option', { name: 'Germany' }));
    await waitFor(() =>
      expect(server.calls.some((c) => c.path === '/api/admin/v1/currencies' && JSON.parse(c.query.get('filter') ?? '{}').country === 'DEU')).toBe(true),
    );
    expect((screen.getByRole('combobox', { name: 'Country' }) as HTMLInputElement).value).toBe('Germany');
  });

  it('leaves no stale total when the list call is refused', async () => {
    const countries = Array.from({ length: 30 }, (_, i) => ({ id: `k${i}`, name: `Country ${i}`, code: `C${i}`, code3: `CC${i}`, status: 1 }));
    serve(new Map([['countries', countries]]), {
      // Answered like the server refuses a filter it cannot read.
      'GET /api/admin/v1/countries': ({ query }) => {
        const filter = JSON.parse(query.get('filter') ?? '{}') as { q?: string };
        if (filter.q) return { status: 400, body: { message: `'q' is refused.` } };
        return { body: countries.slice(0, 25), headers: { 'Content-Range': 'countries 0-24/30' } };
      },
    });
    const user = userEvent.setup();
    at('/countries');
    renderApp();
    await screen.findByText('Country 0');
    expect(screen.getByText(/1-25 of 30/)).toBeTruthy();
    await user.type(screen.getByPlaceholderText(/search/i), 'x');
    // The server's reason where the rows were, and no range or total at all (not 'of 30', not a made-up 'of 25').
    expect(await screen.findByText(`'q' is refused.`)).toBeTruthy();
    expect(screen.queryByText('Country 0')).toBeNull();
    expect(screen.queryByText(/\d+\s*[-–]\s*\d+ of/)).toBeNull();
    expect(document.querySelector('.MuiTablePagination-root')).toBeNull();
    // Clearing the filters brings the list and its total back.
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByText('Country 0')).toBeTruthy();
    expect(screen.getByText(/1-25 of 30/)).toBeTruthy();
  });
});
