/**
 * A number field says what is wrong with what was typed, in the form, as the server does (issue 9 §4):
 * a fraction where a whole number is wanted is '<Label> must be a whole number.' (a decimal position
 * said 'Position is required!'), text in a number-like text field '<Label> must be a number.'. Every
 * create and update dialog with such a field, from the registry, through the dialog host and its
 * RJSF number widget and the zod validator.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { registry } from '../../resources/index.ts';
import { openDialog } from '../../src/client/dialogs/context.ts';
import { listPath } from '../../src/client/providers/data.ts';
import { labelOf, pickedFields, type FieldDef } from '../../src/manifest/index.ts';
import { fakeServer } from './fake-server.ts';
import { renderDialogHost } from './harness.tsx';

const fieldError = (id: string) => document.getElementById(`root_${id}__error`)?.textContent ?? '';

/** Every create and update dialog's number fields, and number-like text (`sortAs: 'number'`). */
const cases = registry.resources.flatMap((r) =>
  Object.entries(r.dialogs).flatMap(([type, d]) =>
    d.kind === 'create' || d.kind === 'update'
      ? pickedFields(r, d)
          .filter((f: FieldDef) => (f.kind === 'number' && !f.choices && f.storage === 'integer') || f.sortAs === 'number')
          .map((f) => ({ type, kind: d.kind, f }))
      : [],
  ),
);

/** Any list a dialog's widgets read (a parent picker) answers empty. */
function quietServer() {
  const routes = Object.fromEntries(
    registry.resources
      .filter((r) => r.reads.list?.kind === 'list')
      .map((r) => [`GET /${listPath(r)}`, () => ({ body: [], headers: { 'Content-Range': `${r.name} 0-0/0` } })]),
  );
  return fakeServer(routes);
}

it('covers the whole-number fields people type into', () => {
  expect(cases.map(({ type, f }) => `${type}.${f.name}`)).toEqual(
    expect.arrayContaining(['add-banner.position', 'update-banner.position', 'createHomeSection.order', 'updateCategory.order']),
  );
});

it.each(cases.map((c) => [`${c.type}.${c.f.name}`, c] as const))('%s: a fraction must be a whole number, in the form', async (_name, { type, kind, f }) => {
  const server = quietServer();
  const user = userEvent.setup();
  renderDialogHost();
  act(() => openDialog(type, kind === 'update' ? { id: 'r1', version: 1 } : undefined));
  const dialog = await screen.findByRole('dialog');
  const input = await waitFor(() => {
    const found = document.getElementById(`root_${f.name}`) as HTMLInputElement | null;
    if (!found) throw new Error(`no input for ${f.name}`);
    return found;
  });
  const label = labelOf(f);
  const submit = within(dialog).getAllByRole('button').find((b) => b.getAttribute('type') === 'submit')!;
  await user.clear(input);
  await user.type(input, '1.5');
  await user.click(submit);
  await waitFor(() => expect(fieldError(f.name)).toBe(`${label} must be a whole number.`));
  if (f.storage === 'text') {
    await user.clear(input);
    await user.type(input, 'abc');
    await user.click(submit);
    await waitFor(() => expect(fieldError(f.name)).toBe(`${label} must be a number.`));
  }
  // Nothing was sent while the message stood.
  expect(server.calls.filter((c) => c.method !== 'GET')).toEqual([]);
});
