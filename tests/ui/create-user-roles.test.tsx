/**
 * Issue 51 §6, "roles are not offered what the server will refuse", on the screen: the admin's "Create
 * user" dialog offers in its Role select the roles without a profile alone (agents, dealers and sellers
 * are made from their own lists, with their profiles), while the admin's update of an account still
 * offers every role.
 */
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { ACCOUNT_ONLY_ROLES, PROFILE_ROLES, users } from '../../resources/people.ts';
import { openDialog } from '../../src/client/dialogs/context.ts';
import { dialogTitle } from '../../src/client/dialogs/titles.ts';
import { renderDialogHost } from './harness.tsx';

const role = users.fields.find((f) => f.name === 'role')!;
const labelOf = (value: string) => role.choices!.find((c) => c.value === value)!.label;

/** The labels the Role select of the dialog `type` offers. */
async function offeredRoles(type: 'createUser' | 'updateUser') {
  vi.spyOn(globalThis, 'fetch').mockImplementation(
    async () => new Response('[]', { status: 200, headers: { 'Content-Type': 'application/json', 'Content-Range': 'users 0-0/0' } }),
  );
  renderDialogHost();
  act(() => openDialog(type, type === 'createUser' ? undefined : { id: 'u1', version: 1, role: 'user', status: 'ACTIVE' }));
  const shown = await screen.findByRole('dialog', { name: dialogTitle(type, users, users.dialogs[type]!) });
  await userEvent.setup().click(await within(shown).findByRole('combobox', { name: /Role/ }));
  const listbox = await screen.findByRole('listbox');
  return within(listbox).getAllByRole('option').map((o) => o.textContent).filter(Boolean);
}

describe('the Role select offers what the server takes', () => {
  it('Create user: admin, buyer and support staff, never agent, dealer or seller', async () => {
    const offered = await offeredRoles('createUser');
    expect(offered).toEqual(ACCOUNT_ONLY_ROLES.map(labelOf));
    for (const refused of PROFILE_ROLES) expect(offered).not.toContain(labelOf(refused));
    expect(offered.length).toBeGreaterThan(0);
  });

  it('the update of an account: every role', async () => {
    expect(await offeredRoles('updateUser')).toEqual(role.choices!.map((c) => c.label));
  });
});
