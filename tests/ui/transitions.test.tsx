/**
 * Declared state transitions as actions (src/client/generate/transitions.tsx): a list row's "More actions"
 * menu and a details dialog offer exactly the transitions the record's state allows the role
 * (`allowedTransitions`, as the server judges), and one chosen opens the form of the fields it requires
 * and sends them to its route. In the whole app: real providers and react-admin, `fetch` answered like
 * the API.
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
import { parseCall, urlOf, type ResourceDef, type Role } from '../../src/manifest/index.ts';

type Row = Record<string, unknown>;
interface Sent {
  method: string;
  path: string;
  body: unknown;
  ifMatch: string | null;
}

/** Answers like the API: the user of `role`, `rows` for the list, the record for a transition's call. */
function serve(role: Role, resource: ResourceDef, rows: Row[]) {
  const listPath = urlOf(parseCall(resource.reads.list!.call).path);
  const sent: Sent[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const json = (body: unknown, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json', ...headers } });
    if (url.pathname.endsWith('/getcurrentuser')) return json({ id: 'u1', name: 'Someone', email: 'a@b.test', role, image: null });
    if (url.pathname === BELL_LIST_PATH) return json(EMPTY_BELL);
    if (method === 'POST') {
      const headers = new Headers(init?.headers);
      sent.push({ method, path: url.pathname, body: JSON.parse(String(init?.body ?? '{}')), ifMatch: headers.get('If-Match') });
      return json({ ...rows[0], status: 'REJECTED' });
    }
    const found = url.pathname === listPath ? rows : [];
    return json(found, { 'Content-Range': `${resource.name} 0-${Math.max(found.length - 1, 0)}/${found.length}` });
  });
  return sent;
}

function showList(resource: ResourceDef) {
  window.history.replaceState({}, '', `/#/${resource.name}`);
  return render(<App dataProvider={createDataProvider(registry)} authProvider={createAuthProvider()} />);
}

const documents = registry.resource('sellerDocuments');
const products = registry.resource('products');
const doc = (id: string, kind: string, status: string): Row => ({ id, version: 1, kind, file: `/f/${id}.pdf`, status, note: null, userId: 'u7' });
const rows = [doc('d1', 'PASSPORT', 'PENDING'), doc('d2', 'NATIONAL_ID', 'REJECTED'), doc('d3', 'TRADE_LICENCE', 'APPROVED')];

const rowOf = async (text: string) => (await screen.findAllByText(text))[0]!.closest('tr')!;

/** What a row's "More actions" menu offers (empty when the row has no menu). */
async function menuOf(user: ReturnType<typeof userEvent.setup>, text: string): Promise<string[]> {
  const more = within(await rowOf(text)).queryByRole('button', { name: 'More actions' });
  if (!more) return [];
  await user.click(more);
  // The row's own menu (the app's sidebar is a menu too).
  const menu = await waitFor(() => document.getElementById(more.getAttribute('aria-controls') ?? '')!);
  const items = within(menu).getAllByRole('menuitem').map((m) => m.textContent ?? '');
  await user.keyboard('{Escape}');
  await waitFor(() => expect(more.getAttribute('aria-expanded')).toBeNull());
  return items;
}

beforeEach(() => window.history.replaceState({}, '', '/#/'));

// A loaded machine's first list render (its chunks, the app) takes much of the 30 s a ui test gets.
describe('state transitions offered on a list', { timeout: 90_000 }, () => {
  it("offers the admin each document's next steps from its state", async () => {
    serve('admin', documents, rows);
    showList(documents);
    const user = userEvent.setup();
    expect(await menuOf(user, 'Passport')).toEqual(['Approve', 'Reject']);
    expect(await menuOf(user, 'National ID card')).toEqual(['Approve']);
    expect(await menuOf(user, 'Trade licence')).toEqual(['Reject']);
  });

  it('offers the owner its resubmit of a reviewed document, and nothing on a pending one', async () => {
    serve('seller', documents, rows);
    showList(documents);
    const user = userEvent.setup();
    expect(await menuOf(user, 'Passport')).toEqual([]);
    expect(await menuOf(user, 'National ID card')).toEqual(['Send again']);
    expect(await menuOf(user, 'Trade licence')).toEqual(['Send again']);
  });

  it("offers the admin a pending product's approve and reject, after its own dialogs", async () => {
    serve('admin', products, [{ id: 'p1', version: 1, name: 'Desk lamp', sellerprice: 10, price: 12, comissionStatus: 'PENDING', stock: 3 }]);
    showList(products);
    expect(await menuOf(userEvent.setup(), 'Desk lamp')).toEqual(['Approve commission', 'Reject commission']);
  });

  it("opens a transition's form of its required fields and sends it to the transition's route", async () => {
    const sent = serve('admin', documents, rows);
    showList(documents);
    const user = userEvent.setup();
    await user.click(within(await rowOf('Passport')).getByRole('button', { name: 'More actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject' });
    const note = await within(dialog).findByRole('textbox', { name: /Review note/ });
    // Only what the transition requires: no status to pick, no file.
    expect(within(dialog).getAllByRole('textbox')).toHaveLength(1);
    // A click in the form is the form's, not the row's under it (which would open the review too).
    await user.click(within(dialog).getByRole('heading', { name: 'Reject' }));
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Review note is required.')).toBeTruthy();
    expect(sent).toEqual([]);
    await user.type(note, 'Blurred.');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ method: 'POST', path: '/api/admin/v1/sellers/documents/d1/transitions/reject', body: { note: 'Blurred.' }, ifMatch: '"1"' });
    expect(await screen.findByText('Document rejected.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reject' })).toBeNull());
  });

  it('a details dialog offers the same next steps as buttons', async () => {
    serve('admin', documents, rows);
    showList(documents);
    const user = userEvent.setup();
    await user.click(within(await rowOf('Trade licence')).getByRole('button', { name: 'Details' }));
    const details = await screen.findByRole('dialog');
    await within(details).findByRole('button', { name: 'Close' });
    expect(within(details).queryByRole('button', { name: 'Approve' })).toBeNull();
    await user.click(within(details).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByRole('dialog', { name: 'Reject' })).toBeTruthy();
  });
});
