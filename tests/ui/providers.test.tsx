import { registry } from '../../resources/index.ts';
import { iconFor, knownIconNames } from '../../src/client/generate/icons.ts';
import { createAuthProvider, maybeSignedIn } from '../../src/client/providers/auth.ts';
import { createDataProvider, listPath } from '../../src/client/providers/data.ts';
import { fakeServer, listAnswer, sessionMarker } from './fake-server.ts';

describe('data provider', () => {
  const data = createDataProvider(registry);

  it('lists each resource at its declared list path, in the simple-rest dialect', async () => {
    const server = fakeServer({ 'GET /api/admin/v1/categories/sub-child': listAnswer('subChildCategories', [{ id: 'a', name: 'Teal' }]) });
    const answer = await data.getList('subChildCategories', {
      pagination: { page: 2, perPage: 10 },
      sort: { field: 'name', order: 'DESC' },
      filter: { q: 'te', category: 'x' },
    });
    expect(answer.total).toBe(1);
    const [call] = server.calls;
    expect(call.path).toBe('/api/admin/v1/categories/sub-child');
    expect(call.query.get('range')).toBe('[10,19]');
    expect(call.query.get('sort')).toBe('["name","DESC"]');
    expect(JSON.parse(call.query.get('filter')!)).toEqual({ q: 'te', category: 'x' });
    expect(call.credentials).toBe('same-origin');
    const paths = new Map(registry.resources.filter((r) => r.reads.list).map((r) => [r.name, listPath(r)]));
    expect(paths.get('childCategories')).toBe('api/admin/v1/categories/child');
    expect(paths.get('subChildCategories')).toBe('api/admin/v1/categories/sub-child');
    // Calls the spec puts under /api keep their own URL.
    expect(paths.get('homeSections')).toBe('api/home-sections');
    expect(paths.get('media')).toBe('api/gallery');
    for (const path of paths.values()) expect(path).toMatch(/^api\//);
  });

  it('reads one record by its declared one-read, or through the list by id', async () => {
    const server = fakeServer({
      'GET /api/admin/v1/categories/c1': () => ({ body: { id: 'c1', name: 'Shoes' } }),
      'GET /api/admin/v1/categories/child': listAnswer('childCategories', [{ id: 'k1', name: 'Boots' }]),
    });
    expect((await data.getOne('categories', { id: 'c1' })).data).toEqual({ id: 'c1', name: 'Shoes' });
    expect((await data.getOne('childCategories', { id: 'k1' })).data).toEqual({ id: 'k1', name: 'Boots' });
    expect(JSON.parse(server.calls[1].query.get('filter')!)).toEqual({ id: ['k1'] });
    await expect(data.getOne('childCategories', { id: 'nope' })).rejects.toMatchObject({ status: 404 });
  });

  it('asks for the registry once: a later read reaches the network in the task that makes it', async () => {
    // The app gives the registry as its module's import, which a browser settles in a later task each
    // time it is asked: every request then waited for whatever the page drew meanwhile (issue 51.10).
    let asked = 0;
    const later = () => {
      asked++;
      return new Promise<typeof registry>((resolve) => setTimeout(() => resolve(registry), 0));
    };
    const lazyData = createDataProvider(later);
    const server = fakeServer({ 'GET /api/admin/v1/categories/c1': () => ({ body: { id: 'c1', name: 'Shoes' } }) });
    await lazyData.getOne('categories', { id: 'c1' });
    expect(server.calls).toHaveLength(1);
    // The second read: sent before any timer of this task can run.
    const read = lazyData.getOne('categories', { id: 'c1' });
    const sentBeforeATimer = await new Promise<number>((resolve) => {
      setTimeout(() => resolve(-1), 0);
      queueMicrotask(() => queueMicrotask(() => queueMicrotask(() => resolve(server.calls.length))));
    });
    await read;
    expect(sentBeforeATimer, 'the second read was sent in the task that asked').toBe(2);
    expect(asked).toBe(1);
  });

  it('refuses writes (dialogs send their own declared calls) and resources without a list', async () => {
    const server = fakeServer();
    await expect(data.create('categories', { data: { name: 'x' } })).rejects.toThrow(/dialogs/);
    await expect(data.delete('categories', { id: 'c1' })).rejects.toThrow(/dialogs/);
    const unlisted = registry.resources.find((r) => !r.reads.list)!.name;
    await expect(data.getList(unlisted, { pagination: { page: 1, perPage: 5 }, sort: { field: 'id', order: 'ASC' }, filter: {} })).rejects.toThrow(
      /no list read/,
    );
    expect(server.calls).toEqual([]);
  });
});

describe('auth provider', () => {
  const user = { id: 'u1', name: 'Ada', email: 'ada@example.com', role: 'admin', image: null };

  it('logs in with email/password, and knows the user and role from the sign-in answer, asking nobody again', async () => {
    const server = fakeServer({
      'POST /api/auth/login': () => ({ body: user }),
      'GET /api/admin/v1/getcurrentuser': () => ({ body: user }),
      'POST /api/auth/logout': () => ({ status: 204 }),
    });
    const auth = createAuthProvider();
    await auth.login({ username: 'ada@example.com', password: 'secret1' });
    expect(server.calls[0]).toMatchObject({ body: { email: 'ada@example.com', password: 'secret1' }, credentials: 'same-origin' });
    await auth.checkAuth({});
    expect(await auth.getPermissions!({})).toBe('admin');
    expect(await auth.getIdentity!()).toMatchObject({ id: 'u1', fullName: 'Ada', avatar: '/avatar.png' });
    await auth.logout({});
    // The sign-in answer is the account: the first screen does not wait on a second round trip (issue 51.10).
    expect(server.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/auth/login', 'POST /api/auth/logout']);
  });

  it('answers a failed login with the server message and a signed-out user with no role', async () => {
    fakeServer({
      'POST /api/auth/login': () => ({ status: 401, body: { message: 'Wrong email or password.' } }),
      'GET /api/admin/v1/getcurrentuser': () => ({ status: 401, body: { message: 'Not signed in.' } }),
    });
    const auth = createAuthProvider();
    await expect(auth.login({ username: 'a@b.c', password: 'nope' })).rejects.toThrow('Wrong email or password.');
    await expect(auth.checkAuth({})).rejects.toMatchObject({ status: 401 });
    expect(await auth.getPermissions!({})).toBeNull();
  });

  it('asks nobody who is signed in while no session may exist, and forgets one the server says is gone', async () => {
    // Issue 51.8: the sign-in page logged two 401s, one per question react-admin asked.
    const server = fakeServer({ 'GET /api/admin/v1/getcurrentuser': () => ({ status: 401, body: { message: 'Not signed in.' } }) });
    const auth = createAuthProvider();
    await expect(auth.checkAuth({})).rejects.toMatchObject({ status: 401 });
    expect(server.calls).toHaveLength(1);
    expect(maybeSignedIn()).toBe(false);
    await expect(auth.checkAuth({})).rejects.toMatchObject({ status: 401 });
    expect(await auth.getPermissions!({})).toBeNull();
    await expect(auth.getIdentity!()).rejects.toMatchObject({ status: 401 });
    await auth.logout({});
    expect(server.calls).toHaveLength(1);
    sessionMarker(true);
    await expect(auth.checkError({ status: 401 })).rejects.toBeTruthy();
    expect(maybeSignedIn()).toBe(false);
  });

  it('logs out on 401 and stays signed in, with a message, on 403', async () => {
    const auth = createAuthProvider();
    await expect(auth.checkError({ status: 401 })).rejects.toBeTruthy();
    await expect(auth.checkError({ status: 403, message: 'Admins only.' })).rejects.toEqual({ logoutUser: false, message: 'Admins only.' });
    await expect(auth.checkError({ status: 500 })).resolves.toBeUndefined();
  });
});

it('knows every icon a manifest names', () => {
  for (const r of registry.resources) if (r.menu?.icon) expect(knownIconNames()).toContain(r.menu.icon);
  expect(iconFor('NoSuchIcon')).toBe(iconFor('Label'));
});
