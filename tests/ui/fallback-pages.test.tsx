/**
 * An address that shows no screen: a screen the role may not open says "Access denied" (not "Not
 * Found"), an unknown path says "Not Found"; both under the app's name, never 'React Admin'.
 * Generated from the registry: for every resource with a list, a role that may not read it.
 */
import { screen } from '@testing-library/react';
import { render } from './harness.tsx';
import { vi } from 'vitest';
import { BELL_LIST_PATH, EMPTY_BELL } from './fake-server.ts';
import { registry } from '../../resources/index.ts';
import { App } from '../../src/client/App.tsx';
import { createAuthProvider } from '../../src/client/providers/auth.ts';
import { createDataProvider } from '../../src/client/providers/data.ts';
import { listAccess } from '../../src/client/generate/access.ts';
import { APP_NAME } from '../../src/client/shell/app-name.ts';
import { FALLBACK } from '../../src/client/shell/FallbackPages.tsx';
import { allows, ROLES, type Role } from '../../src/manifest/index.ts';

/** The signed-in user of `role`; every list answers empty. */
function serve(role: Role) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    const body = url.pathname.endsWith('/getcurrentuser') ? { id: 'u1', name: 'Someone', email: 'a@b.test', role, image: null } : url.pathname === BELL_LIST_PATH ? EMPTY_BELL : [];
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json', 'Content-Range': 'x 0-0/0' } });
  });
}

function visit(path: string) {
  window.history.replaceState({}, '', `/#${path}`);
  return render(<App dataProvider={createDataProvider(registry)} authProvider={createAuthProvider()} />);
}

/** Each listed resource with the first role that may not read it. */
const forbidden = registry.resources.flatMap((r) => {
  const role = ROLES.find((x) => !allows(listAccess(r), x));
  return r.reads.list?.kind === 'list' && role ? [[`${r.name} as ${role}`, r.name, r.plural, role] as const] : [];
});

describe('a screen the role may not open', () => {
  it('some screen is closed to some role (the checks below are not empty)', () =>
    expect(forbidden.map(([label]) => label)).toContain('auditLog as seller'));

  it.each(forbidden)('%s: Access denied', async (_label, name, plural, role) => {
    serve(role);
    visit(`/${name}`);
    expect(await screen.findByRole('heading', { level: 2, name: FALLBACK.denied })).toBeTruthy();
    expect(screen.getByText(FALLBACK.deniedText(plural))).toBeTruthy();
    expect(screen.queryByText(FALLBACK.notFound)).toBeNull();
    expect(document.body.textContent).not.toContain('React Admin');
    expect(screen.getByRole('heading', { level: 1, name: APP_NAME })).toBeTruthy();
  });
});

describe('an unknown path', () => {
  it.each([['admin'], ['seller']] as const)('as %s: Not Found, under the app name', async (role) => {
    serve(role);
    visit('/no-such-screen');
    expect(await screen.findByRole('heading', { level: 2, name: FALLBACK.notFound })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: APP_NAME })).toBeTruthy();
    expect(document.body.textContent).not.toContain('React Admin');
    expect(screen.getByRole('link', { name: FALLBACK.home }).getAttribute('href')).toBe('#/');
  });

  it('a screen the role may open is not caught', async () => {
    serve('admin');
    visit('/auditLog');
    expect(await screen.findByRole('heading', { level: 1, name: 'Audit log' })).toBeTruthy();
    expect(screen.queryByText(FALLBACK.denied)).toBeNull();
  });
});
