/**
 * List controls a role cannot use are not shown, and row tooltips never linger over other rows.
 * Generated from the registry: every resource with a reorder, for every role that reads its list;
 * every resource with a default record that requires something of it.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { render } from './harness.tsx';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { BELL_LIST_PATH, EMPTY_BELL } from './fake-server.ts';
import { registry } from '../../resources/index.ts';
import { App } from '../../src/client/App.tsx';
import { createAuthProvider } from '../../src/client/providers/auth.ts';
import { createDataProvider } from '../../src/client/providers/data.ts';
import { listAccess } from '../../src/client/generate/access.ts';
import { createSampler } from '../../src/domain/sample.ts';
import { allows, parseCall, ROLES, urlOf, type FieldDef, type ResourceDef, type Role } from '../../src/manifest/index.ts';

type Row = Record<string, unknown>;
const sampler = createSampler({ seed: 3, uniqueNames: true });

/**
 * Answers like the API: the signed-in user of `role`, `rows` for `resource`'s list read, its default
 * record setting naming `defaultId`, and an empty list for anything else the screen asks.
 */
function serve(role: Role, resource: ResourceDef, rows: Row[], defaultId: string | null = null) {
  const listPath = urlOf(parseCall(resource.reads.list!.call).path);
  const defaultPath = resource.defaultRecord ? urlOf(parseCall(resource.defaultRecord.read).path) : undefined;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    const json = (body: unknown, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json', ...headers } });
    if (url.pathname.endsWith('/getcurrentuser')) return json({ id: 'u1', name: 'Someone', email: 'a@b.test', role, image: null });
    if (url.pathname === BELL_LIST_PATH) return json(EMPTY_BELL);
    if (url.pathname === defaultPath) return json({ id: defaultId, record: rows.find((r) => r.id === defaultId) ?? null });
    const found = url.pathname === listPath ? rows : [];
    return json(found, { 'Content-Range': `${resource.name} 0-${Math.max(found.length - 1, 0)}/${found.length}` });
  });
}

function showList(resource: ResourceDef) {
  window.history.replaceState({}, '', `/#/${resource.name}`);
  return render(<App dataProvider={createDataProvider(registry)} authProvider={createAuthProvider()} />);
}

/** A parent's value as a reference holds it: an id, or a country's 2- or 3-letter code. */
const parentValue = (f: FieldDef) => ({ code: 'BD', code3: 'BGD' })[f.referenceBy ?? ''] ?? '6552a1b0c3d4e5f607182930'; // ids are 24 hex digits (src/server/db/id.ts)
const rowsOf = (resource: ResourceDef, n: number, extra: (i: number) => Row = () => ({})): Row[] =>
  Array.from({ length: n }, (_, i) => ({ id: `r${i + 1}`, version: 1, ...sampler.record(resource, { reference: parentValue }), ...extra(i) }));

const titleCell = async (resource: ResourceDef, row: Row) => screen.findAllByText(String(row[resource.title]));

const reorderCases = registry.resources
  .filter((r) => r.list?.reorder && r.reads.list)
  .flatMap((r) => ROLES.filter((role) => allows(listAccess(r), role)).map((role) => [`${r.name} as ${role}`, r, role] as const));

describe('reorder controls only for roles that may reorder', () => {
  it('some list reorders (the checks below are not empty)', () => expect(reorderCases.length).toBeGreaterThan(1));

  it.each(reorderCases)('%s', async (_label, resource, role) => {
    const rows = rowsOf(resource, 3, (i) => ({ [resource.list!.reorder!.field]: i + 1 }));
    serve(role, resource, rows);
    showList(resource);
    await titleCell(resource, rows[1]);
    const table = screen.getByRole('table');
    const may = allows(resource.access.write, role);
    expect(within(table).queryAllByRole('button', { name: 'Move up' }).length > 0).toBe(may);
    expect(within(table).queryAllByRole('button', { name: 'Move down' }).length > 0).toBe(may);
    expect(table.querySelectorAll('tr[draggable="true"]').length > 0).toBe(may);
  });
});

const defaultCases = registry.resources.filter((r) => r.defaultRecord?.requires && r.reads.list).map((r) => [r.name, r] as const);

describe('"Make default" only on rows that may be the default', () => {
  it('some default record requires something (the checks below are not empty)', () => expect(defaultCases.length).toBeGreaterThan(0));

  it.each(defaultCases)('%s', async (_name, resource) => {
    const { field, value } = resource.defaultRecord!.requires!;
    const other = resource.fields.find((f) => f.name === field)!.choices!.find((c) => c.value !== value)!.value;
    // r1 is the default; r2 may become it; r3 may not.
    const rows = rowsOf(resource, 3, (i) => ({ [field]: i === 2 ? other : value }));
    serve('admin', resource, rows, 'r1');
    showList(resource);
    await titleCell(resource, rows[2]);
    const rowOf = (row: Row) => screen.getAllByText(String(row[resource.title]))[0]!.closest('tr')!;
    await waitFor(() => expect(within(rowOf(rows[1])).queryByRole('button', { name: 'Make default' })).not.toBeNull());
    expect(within(rowOf(rows[0])).queryByRole('button', { name: 'Make default' })).toBeNull();
    expect(within(rowOf(rows[2])).queryByRole('button', { name: 'Make default' })).toBeNull();
  });
});

describe('row tooltips', () => {
  it('close when the pointer moves onto them, on a click, and on scroll', async () => {
    const resource = registry.resource('currencies');
    const rows = rowsOf(resource, 2, () => ({ status: 1 }));
    serve('admin', resource, rows);
    showList(resource);
    await titleCell(resource, rows[1]);
    const user = userEvent.setup();
    const edit = within(screen.getAllByText(String(rows[0][resource.title]))[0]!.closest('tr')!).getByRole('button', { name: 'Edit' });

    // Hovering shows it. It is not interactive: the pointer passes through it to the row beneath, and
    // leaving the button (towards the next row) closes it.
    await user.hover(edit);
    const tip = await screen.findByRole('tooltip');
    expect(tip.textContent).toBe('Edit');
    expect(getComputedStyle(tip).pointerEvents).toBe('none');
    const next = within(screen.getAllByText(String(rows[1][resource.title]))[0]!.closest('tr')!).getByRole('button', { name: 'Edit' });
    await user.hover(next);
    await waitFor(() => expect(screen.queryAllByRole('tooltip').map((t) => t.textContent)).toEqual(['Edit']));
    await user.unhover(next);
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());

    // A click closes it, and it stays closed while the pointer stays on the button.
    await user.hover(edit);
    await screen.findByRole('tooltip');
    await user.click(edit);
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Scrolling the page closes it.
    await user.unhover(edit);
    await user.hover(edit);
    await screen.findByRole('tooltip');
    window.dispatchEvent(new Event('scroll'));
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
  });
});
