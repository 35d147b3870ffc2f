/**
 * Site settings, notices, pages and footer menus: each list offers Edit on its rows, which opens the
 * update dialog holding the record; a page's HTML is edited as text, never rendered in the form.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { registry } from '../../resources/index.ts';
import { App } from '../../src/client/App.tsx';
import { openDialog } from '../../src/client/dialogs/context.ts';
import { dialogTitle } from '../../src/client/dialogs/titles.ts';
import { createAuthProvider } from '../../src/client/providers/auth.ts';
import { createDataProvider } from '../../src/client/providers/data.ts';
import { createSampler } from '../../src/domain/sample.ts';
import { parseCall, pickedFields, urlOf, type ResourceDef, type UpdateDialog } from '../../src/manifest/index.ts';
import { fakeServer } from './fake-server.ts';
import { render, renderDialogHost } from './harness.tsx';

type Row = Record<string, unknown>;
const sampler = createSampler({ seed: 21, uniqueNames: true });

function serve(resource: ResourceDef, rows: Row[]) {
  const listPath = urlOf(parseCall(resource.reads.list!.call).path);
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    const json = (body: unknown, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json', ...headers } });
    if (url.pathname.endsWith('/getcurrentuser')) return json({ id: 'u1', name: 'Ada', email: 'a@b.test', role: 'admin', image: null });
    const found = url.pathname === listPath ? rows : [];
    return json(found, { 'Content-Range': `${resource.name} 0-${Math.max(found.length - 1, 0)}/${found.length}` });
  });
}

const cases = ['siteSettings', 'notices', 'pages', 'footerMenus'].map((name) => [name, registry.resource(name)] as const);

describe('Edit on the rows of site content', () => {
  it.each(cases)('%s', async (_name, resource) => {
    const [type, update] = Object.entries(resource.dialogs).find(([, d]) => d.kind === 'update') as [string, UpdateDialog];
    const row: Row = { id: 'r1', version: 1, ...sampler.record(resource) };
    serve(resource, [row]);
    window.history.replaceState({}, '', `/#/${resource.name}`);
    render(<App dataProvider={createDataProvider(registry)} authProvider={createAuthProvider()} />);
    const cell = (await screen.findAllByText(String(row[resource.title])))[0]!;
    await userEvent.setup().click(within(cell.closest('tr')!).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: dialogTitle(type, resource, update) });
    for (const f of pickedFields(resource, update)) {
      const input = await waitFor(() => {
        const el = dialog.querySelector<HTMLInputElement | HTMLTextAreaElement>(`#root_${f.name}`);
        expect(el).not.toBeNull();
        return el!;
      });
      expect(input.value, f.name).toBe(String(row[f.name]));
    }
  });
});

describe("a page's HTML in the update dialog", () => {
  it('is text to edit: nothing of it is rendered, so nothing of it runs', async () => {
    fakeServer();
    renderDialogHost();
    (window as { hacked?: number }).hacked = 0;
    const content = '<h2>Who</h2><img src="x" onerror="window.hacked=1" alt="pic"><script>window.hacked=2</script>';
    act(() => openDialog('updatePage', { id: 'p1', version: 1, title: 'About', slug: 'about', content }));
    const dialog = await screen.findByRole('dialog', { name: 'Update page' });
    const area = await waitFor(() => dialog.querySelector<HTMLTextAreaElement>('textarea#root_content')!);
    expect(area.value).toBe(content);
    expect(dialog.querySelector('img, script')).toBeNull();
    expect(within(dialog).queryByRole('heading', { name: 'Who' })).toBeNull();
    expect((window as { hacked?: number }).hacked).toBe(0);
  });
});
