/**
 * A list offers every dialog a role may open on it (src/client/generate/list-dialogs.ts): actions that
 * make a record in the toolbar ('Create agent'), the first update or action with `{id}` as the row's
 * Edit, the others and other resources' row dialogs (`list.rowDialogs`) in its "More actions" menu;
 * nothing the role may not open. In the whole app: real providers and react-admin, `fetch` answered
 * like the API.
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
import { actsOnRow, addressedResource, listDialogs } from '../../src/client/generate/list-dialogs.ts';
import {
  allows,
  createRegistry,
  defineResource,
  dialog as declare,
  dialogAccess,
  field,
  parseCall,
  ROLES,
  urlOf,
  type ResourceDef,
  type Role,
} from '../../src/manifest/index.ts';

type Row = Record<string, unknown>;

/** Answers like the API: the signed-in user of `role`, `rows` for `resource`'s list, an empty list otherwise. */
function serve(role: Role, resource: ResourceDef, rows: Row[]) {
  const listPath = urlOf(parseCall(resource.reads.list!.call).path);
  const calls: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    calls.push(`${(init?.method ?? 'GET').toUpperCase()} ${url.pathname}`);
    const json = (body: unknown, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json', ...headers } });
    if (url.pathname.endsWith('/getcurrentuser')) return json({ id: 'u1', name: 'Someone', email: 'a@b.test', role, image: null });
    if (url.pathname === BELL_LIST_PATH) return json(EMPTY_BELL);
    const found = url.pathname === listPath ? rows : [];
    return json(found, { 'Content-Range': `${resource.name} 0-${Math.max(found.length - 1, 0)}/${found.length}` });
  });
  return calls;
}

function showList(resource: ResourceDef) {
  window.history.replaceState({}, '', `/#/${resource.name}`);
  return render(<App dataProvider={createDataProvider(registry)} authProvider={createAuthProvider()} />);
}

const agents = registry.resource('agents');
const products = registry.resource('products');
const agent: Row = {
  id: 'a1',
  version: 1,
  name: 'Rahim Uddin',
  email: 'rahim@example.com',
  phone: '+8801911000401',
  city: 'Dhaka',
  district: 'Mirpur',
  country: 'BD',
  commission: 2.5,
  fulladdress: 'House 12, Road 3, Mirpur',
  agentId: 'R.D.M.BGD',
  userId: 'u9',
};
const product: Row = { id: 'p1', version: 1, name: 'Desk lamp', sellerId: 'u1', sellerprice: 10, price: 12, comissionStatus: 'PENDING', stock: 3 };

const rowOf = async (text: string) => (await screen.findAllByText(text))[0]!.closest('tr')!;
const dialogNamed = (name: string) => screen.findByRole('dialog', { name });

async function closeDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

beforeEach(() => window.history.replaceState({}, '', '/#/'));

describe('Agents as the admin', () => {
  it('offers "Create agent" in the toolbar, which opens createAgent', async () => {
    serve('admin', agents, [agent]);
    showList(agents);
    await rowOf('Rahim Uddin');
    const user = userEvent.setup();
    expect(screen.queryByRole('button', { name: 'Create' })).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Create agent' }));
    const dialog = await dialogNamed('Create agent');
    // An empty form: nothing of a row is carried into a new record.
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveProperty('value', ''));
  });

  it("a row's Edit opens updateAgent with the row, and a click on the row does too", async () => {
    serve('admin', agents, [agent]);
    showList(agents);
    const user = userEvent.setup();
    await user.click(within(await rowOf('Rahim Uddin')).getByRole('button', { name: 'Edit' }));
    const dialog = await dialogNamed('Update agent');
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveProperty('value', 'Rahim Uddin'));
    expect(location.hash).toContain('dialog=updateAgent');
    await closeDialog(user);

    await user.click(within(await rowOf('Rahim Uddin')).getByText('Dhaka'));
    await dialogNamed('Update agent');
  });

  it('the row menu offers the commission, replace and login dialogs, and opens each for the row', async () => {
    const calls = serve('admin', agents, [agent]);
    showList(agents);
    const user = userEvent.setup();
    const more = within(await rowOf('Rahim Uddin')).getByRole('button', { name: 'More actions' });
    expect(more.getAttribute('aria-haspopup')).toBe('menu');
    await user.click(more);
    const menu = await screen.findByRole('menu');
    expect(more.getAttribute('aria-expanded')).toBe('true');
    expect(within(menu).getAllByRole('menuitem').map((m) => m.textContent)).toEqual(['Agent commission', 'Replace agent', 'Agent login details']);

    // Its own dialog, with the row: the commission it holds.
    await user.click(within(menu).getByRole('menuitem', { name: 'Agent commission' }));
    let dialog = await dialogNamed('Agent commission');
    await waitFor(() => expect(within(dialog).getByRole('spinbutton', { name: /Commission/ })).toHaveProperty('value', '2.5'));
    // Choosing from the menu opened only that dialog, not the row's Edit as well.
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    await closeDialog(user);

    // Another resource's form: by the row's id, starting empty (a new person takes the account).
    await user.click(within(await rowOf('Rahim Uddin')).getByRole('button', { name: 'More actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Replace agent' }));
    dialog = await dialogNamed('Replace agent');
    expect(location.hash).toContain('dialog=replaceAgentModal');
    expect(location.hash).toContain('id=a1');
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveProperty('value', ''));
    await closeDialog(user);

    // Another resource's details view, given the row: it reads the row's account.
    await user.click(within(await rowOf('Rahim Uddin')).getByRole('button', { name: 'More actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Agent login details' }));
    await dialogNamed('Agent login details');
    await waitFor(() => expect(calls).toContain('GET /api/admin/v1/users/u9'));
  });

  it('the menu works from the keyboard', async () => {
    serve('admin', agents, [agent]);
    showList(agents);
    const user = userEvent.setup();
    within(await rowOf('Rahim Uddin')).getByRole('button', { name: 'More actions' }).focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('menu');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Agent commission'));
    await user.keyboard('{ArrowDown}{Enter}');
    await dialogNamed('Replace agent');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
  });
});

describe('what other roles see', () => {
  it('an agent, on its own row: no create, no Edit, no menu', async () => {
    serve('agent', agents, [agent]);
    showList(agents);
    const row = await rowOf('Rahim Uddin');
    expect(screen.queryByRole('button', { name: 'Create agent' })).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(row).queryByRole('button', { name: 'More actions' })).toBeNull();
  });

  it('a seller: "Create product" and its own Edit, no commission decision', async () => {
    serve('seller', products, [product]);
    showList(products);
    const row = await rowOf('Desk lamp');
    await screen.findByRole('button', { name: 'Create product' });
    expect(within(row).queryByRole('button', { name: 'More actions' })).toBeNull();
    await userEvent.setup().click(within(row).getByRole('button', { name: 'Edit' }));
    await dialogNamed('Update product');
  });

  it('the admin on products: no "Create product" (sellers make products); Edit is the commission decision', async () => {
    serve('admin', products, [product]);
    showList(products);
    const row = await rowOf('Desk lamp');
    expect(screen.queryByRole('button', { name: 'Create product' })).toBeNull();
    await userEvent.setup().click(within(row).getByRole('button', { name: 'Edit' }));
    await dialogNamed('Product commission');
    expect(location.hash).toContain('dialog=CreateProductCommissionInQueryMessage');
  });
});

/** Every list and every role that reads it, from the registry. */
const cases = registry.resources
  .filter((r) => r.reads.list?.kind === 'list')
  .flatMap((r) => ROLES.filter((role) => allows(listAccess(r), role)).map((role) => [`${r.name} as ${role}`, r, role] as const));

describe('every dialog a role may open on a row is offered, nothing else', () => {
  it.each(cases)('%s', (_label, resource, role) => {
    const offered = listDialogs(registry, resource, role);
    const rowTypes = [offered.edit, ...offered.more].filter(Boolean).map((o) => o!.type);
    // A form another list borrows acts on that list's rows, not on its own resource's.
    const lent = new Set(registry.resources.flatMap((r) => r.list?.rowDialogs ?? []));
    const expected = Object.entries(resource.dialogs)
      .filter(([type, d]) => actsOnRow(d) && !lent.has(type) && allows(dialogAccess(resource, d), role))
      .map(([type]) => type);
    for (const type of resource.list?.rowDialogs ?? []) {
      const found = registry.dialog(type)!;
      if (allows(dialogAccess(found.resource, found.dialog), role)) expected.push(type);
    }
    expect(rowTypes).toEqual(expected);
    for (const o of [...offered.creates, ...rowTypes.map((t) => ({ type: t, ...registry.dialog(t)! }))])
      expect(allows(dialogAccess(o.resource, o.dialog), role), `${o.type} offered to ${role}`).toBe(true);
    // Every toolbar create makes a record: no path parameter.
    for (const c of offered.creates) expect('call' in c.dialog && parseCall(c.dialog.call).params).toEqual([]);
  });

  it('the lists this task is about offer what they should', () => {
    const types = (r: string, role: Role) => {
      const o = listDialogs(registry, registry.resource(r), role);
      return { creates: o.creates.map((c) => c.label), edit: o.edit?.type, more: o.more.map((m) => m.type) };
    };
    expect(types('agents', 'admin')).toEqual({
      creates: ['Create agent'],
      edit: 'updateAgent',
      more: ['agentCommissionModel', 'replaceAgentModal', 'agent-login-details'],
    });
    // Issue 51: an admin makes dealers and sellers as agents are made, with their accounts.
    expect(types('dealers', 'admin')).toEqual({ creates: ['Create dealer'], edit: 'dealerCommissionModel', more: ['replaceDealerModal'] });
    expect(types('sellers', 'admin').creates).toEqual(['Create seller']);
    expect(types('sellers', 'seller').creates).toEqual([]);
    expect(types('products', 'seller')).toEqual({ creates: ['Create product'], edit: 'updateProduct', more: [] });
    expect(types('products', 'admin')).toEqual({ creates: [], edit: 'CreateProductCommissionInQueryMessage', more: [] });
    expect(types('sellerDocuments', 'seller')).toEqual({ creates: ['Create'], edit: 'resubmitSellerDocument', more: [] });
    expect(types('sellerDocuments', 'admin')).toEqual({ creates: [], edit: 'reviewSellerDocument', more: [] });
    // The signed-in user's own profile (`PATCH /users`) makes nothing: not a create of the Users list,
    // whose one create is the admin's "Create user" (`POST /users/create`).
    expect(types('users', 'admin').creates).toEqual(['Create user']);
    // The replacements kept are not agents: their rows offer no replace (its {id} is an agent's or a dealer's).
    expect(types('accountReplacements', 'admin')).toEqual({ creates: [], edit: undefined, more: [] });
    // The login details of an account stay on the accounts' rows too.
    expect(listDialogs(registry, registry.resource('users'), 'admin').details?.type).toBe('userLoginDetails');
  });
});

describe('addresses of borrowed row dialogs', () => {
  it("name the list's record, and the dialog's own elsewhere", () => {
    expect(addressedResource(registry, 'agents', 'replaceAgentModal')?.name).toBe('agents');
    expect(addressedResource(registry, 'dealers', 'replaceDealerModal')?.name).toBe('dealers');
    expect(addressedResource(registry, 'accountReplacements', 'replaceAgentModal')?.name).toBe('accountReplacements');
    expect(addressedResource(registry, 'agents', 'agentCommissionModel')?.name).toBe('agents');
    expect(addressedResource(registry, undefined, 'userLoginDetails')?.name).toBe('users');
    expect(addressedResource(registry, 'agents', 'noSuchDialog')).toBeUndefined();
  });
});

describe('list.rowDialogs is checked when the manifests load', () => {
  const base = { label: 'Thing', plural: 'Things', access: { read: ['admin'], write: ['admin'] } as const, fields: [field.text('name')] };
  const things = (rowDialogs: string[]) => defineResource({ ...base, name: 'things', list: { rowDialogs } });
  const others = defineResource({
    ...base,
    name: 'others',
    dialogs: {
      createOther: declare.create({ pick: ['name'], call: 'POST /others', success: 'ok', failure: 'no' }),
      renameOther: declare.action({ pick: ['name'], call: 'PATCH /others/rename/{id}', handler: 'replaceAgent', success: 'ok', failure: 'no' }),
      otherDetails: declare.details({ show: ['name'] }),
      otherLogin: declare.details({ show: ['name'], view: 'loginDetails' }),
    },
  });

  it('takes update or action dialogs with {id}, and details dialogs with a view', () => {
    expect(() => createRegistry([things(['renameOther', 'otherLogin']), others])).not.toThrow();
  });
  it('refuses an unknown dialog, a create, a details dialog without a view, its own dialog, a repeat', () => {
    expect(() => createRegistry([things(['noSuch']), others])).toThrow(/unknown dialog 'noSuch'/);
    expect(() => createRegistry([things(['createOther']), others])).toThrow(/row dialog 'createOther'/);
    expect(() => createRegistry([things(['otherDetails']), others])).toThrow(/row dialog 'otherDetails'/);
    expect(() => things(['renameOther', 'renameOther'])).toThrow(/twice/);
    expect(() =>
      defineResource({
        ...base,
        name: 'own',
        dialogs: { renameOwn: declare.update({ pick: ['name'], call: 'PATCH /own/{id}', success: 'ok', failure: 'no' }) },
        list: { rowDialogs: ['renameOwn'] },
      }),
    ).toThrow(/its own dialog/);
  });
});
