/**
 * Forms keep what was typed: closing one with unsaved changes (Escape, Cancel, a click beside it)
 * asks "Discard changes?" first; and a server's refusal about a field (409 on a duplicate country
 * code) is shown under that field, not only in the toast.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { openDialog } from '../../src/client/dialogs/context.ts';
import { DISCARD } from '../../src/client/dialogs/discard.tsx';
import { fakeServer } from './fake-server.ts';
import { renderDialogHost } from './harness.tsx';

const fieldError = (id: string) => document.getElementById(`root_${id}__error`)?.textContent ?? '';

async function openTyped(text: string) {
  const server = fakeServer();
  const user = userEvent.setup();
  renderDialogHost();
  act(() => openDialog('createCategory'));
  const dialog = await screen.findByRole('dialog', { name: 'Create category' });
  const name = (await within(dialog).findByRole('textbox', { name: /name/i })) as HTMLInputElement;
  if (text) await user.type(name, text);
  return { server, user, dialog, name };
}

const confirmation = () => screen.findByRole('alertdialog', { name: DISCARD.title });

describe('closing a form with unsaved changes', () => {
  it('Escape asks first; Keep editing goes back with nothing lost', async () => {
    const { user, dialog, name } = await openTyped('Shoes');
    await user.keyboard('{Escape}');
    const ask = await confirmation();
    expect(within(ask).getByText(DISCARD.text)).toBeTruthy();
    // The safe answer has the focus.
    await waitFor(() => expect(document.activeElement).toBe(within(ask).getByRole('button', { name: DISCARD.keep })));
    await user.click(within(ask).getByRole('button', { name: DISCARD.keep }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(dialog.isConnected).toBe(true);
    expect(name.value).toBe('Shoes');
  });

  it('Escape on the question keeps editing too', async () => {
    const { user, dialog, name } = await openTyped('Shoes');
    await user.keyboard('{Escape}');
    await confirmation();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(dialog.isConnected).toBe(true);
    expect(name.value).toBe('Shoes');
  });

  it('Cancel asks first; Discard closes without sending', async () => {
    const { server, user, dialog } = await openTyped('Shoes');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const ask = await confirmation();
    await user.click(within(ask).getByRole('button', { name: DISCARD.discard }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(server.calls).toEqual([]);
  });

  it('a click beside the form asks first', async () => {
    const { dialog } = await openTyped('Shoes');
    const backdrop = document.querySelector('.MuiBackdrop-root:not(.MuiBackdrop-invisible)') as HTMLElement;
    expect(backdrop).toBeTruthy();
    fireEvent.mouseDown(backdrop);
    fireEvent.click(backdrop);
    await confirmation();
    expect(dialog.isConnected).toBe(true);
  });

  it('an untouched form, or one typed back to how it opened, closes at once', async () => {
    const { user, name } = await openTyped('Sh');
    await user.clear(name);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

describe('a server refusal about a field', () => {
  it('a duplicate country code (409) is shown under Code, and the toast still says it', async () => {
    const message = 'A country with this code already exists.';
    const server = fakeServer({
      'POST /api/admin/v1/countries': () => ({ status: 409, body: { message, errors: { code: [message] } } }),
    });
    const user = userEvent.setup();
    renderDialogHost();
    act(() => openDialog('createCountry'));
    const dialog = await screen.findByRole('dialog', { name: 'Create country' });
    const input = (id: string) => dialog.querySelector(`#root_${id}`) as HTMLInputElement;
    await waitFor(() => expect(input('name')).toBeTruthy());
    await user.type(input('name'), 'Bangladesh');
    await user.type(input('code'), 'BD');
    await user.type(input('code3'), 'BGD');
    // The status is a select of its labels, sent as the number it stands for.
    await user.click(within(dialog).getByRole('combobox', { name: /status/i }));
    await user.click(await screen.findByRole('option', { name: 'Inactive' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(fieldError('code')).toBe(message));
    expect(input('code').getAttribute('aria-invalid')).toBe('true');
    const toast = await screen.findByRole('alert');
    expect(toast.textContent).toContain(message);
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Bangladesh', code: 'BD', code3: 'BGD', status: 0 });
  });
});
