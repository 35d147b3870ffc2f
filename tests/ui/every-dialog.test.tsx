/**
 * Every declared dialog of every resource renders, field by field, with a real widget (every image
 * field the upload widget): generated from the registry, so a resource added tomorrow is checked too. RJSF answers a JSON Schema it cannot draw
 * with "Unsupported field schema …" and the raw schema (a zod union of number literals did that to the
 * Status of "Create country" and "Update currency"); no dialog may show it.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { registry } from '../../resources/index.ts';
import { openDialog } from '../../src/client/dialogs/context.ts';
import { dialogTitle } from '../../src/client/dialogs/titles.ts';
import { createSampler } from '../../src/domain/sample.ts';
import { labelOf, pickedFields, submitLabel, type FieldDef } from '../../src/manifest/index.ts';
import { renderDialogHost } from './harness.tsx';

/** Any list answers empty, any one-record read answers a record: the pickers have something to load. */
function quietServer() {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    const name = url.pathname.split('/').filter(Boolean).pop() ?? 'rows';
    return new Response('[]', { status: 200, headers: { 'Content-Type': 'application/json', 'Content-Range': `${name} 0-0/0` } });
  });
}

const sampler = createSampler({ seed: 9 });
/** A parent's value as a reference holds it: an id, or a country's 2- or 3-letter code. */
const parentValue = (f: FieldDef) => ({ code: 'BD', code3: 'BGD' })[f.referenceBy ?? ''] ?? '6552a1b0c3d4e5f607182930'; // ids are 24 hex digits (src/server/db/id.ts)
const cases = registry.resources.flatMap((resource) =>
  Object.entries(resource.dialogs).map(([type, dialog]) => ({ type, resource, dialog })),
);

describe('every declared dialog renders every field with a widget', () => {
  it.each(cases.map((c) => [c.type, c] as const))('%s', async (_type, { type, resource, dialog }) => {
    quietServer();
    renderDialogHost();
    const record = { id: 'r1', version: 1, ...sampler.record(resource, { reference: parentValue }) };
    act(() => openDialog(type, dialog.kind === 'create' ? undefined : record));
    const shown = await screen.findByRole('dialog', { name: dialogTitle(type, resource, dialog) });
    const fields = pickedFields(resource, dialog);
    // The form is drawn with its buttons: from then on nothing may be left unsupported.
    if (fields.length) await within(shown).findByRole('button', { name: submitLabel(dialog) });
    expect(shown.textContent).not.toMatch(/Unsupported field schema/i);
    expect(shown.textContent).not.toMatch(/"(anyOf|oneOf|const)"/);
    // Each picked field has its control (RJSF names them root_<field>).
    await waitFor(() => {
      for (const f of fields) {
        const control = shown.querySelector(`[id="root_${f.name}"], [id^="root_${f.name}_"], [id^="root_${f.name}-"]`);
        expect(control, `${type}: no control for '${f.name}'`).not.toBeNull();
      }
    });
    // Every image or file field is the upload widget (a drawn QR code is drawn, then uploaded).
    const uploads = fields.filter((f) => (f.kind === 'image' || f.kind === 'file') && !f.drawn);
    expect(within(shown).queryAllByRole('button', { name: 'Choose files' }), `${type}: upload widgets`).toHaveLength(uploads.length);
    // Opened and left untouched, it holds no changes: Escape closes it without asking.
    await userEvent.setup().keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

/**
 * Every form dialog's fields that declare `choices`: their select offers the labels, and sends the
 * values. A boolean keeps its checkbox (its labels are for lists).
 */
const withChoices = cases.flatMap(({ type, resource, dialog }) =>
  pickedFields(resource, dialog)
    .filter((f) => f.choices?.length && f.kind !== 'boolean')
    .map((f) => [`${type}.${f.name}`, { type, resource, dialog, f }] as const),
);

describe('a field with declared choices is a select of their labels', () => {
  it('some dialog declares choices (the check below is not empty)', () => expect(withChoices.length).toBeGreaterThan(0));

  it.each(withChoices)('%s', async (_name, { type, resource, dialog, f }) => {
    quietServer();
    renderDialogHost();
    const record = { id: 'r1', version: 1, ...sampler.record(resource, { reference: parentValue }) };
    act(() => openDialog(type, dialog.kind === 'create' ? undefined : record));
    const shown = await screen.findByRole('dialog', { name: dialogTitle(type, resource, dialog) });
    const select = await within(shown).findByRole('combobox', { name: new RegExp(labelOf(f)) });
    // What the record (or the default) holds is shown by its label, not as the raw value.
    // A dialog taking only some of the values (`only`: Create user's roles) offers those alone.
    const only = 'pick' in dialog ? dialog.only?.[f.name]?.values : undefined;
    const start = dialog.kind === 'create' ? f.default : record[f.name as keyof typeof record];
    // (A sampled record's value the dialog does not offer is not shown as chosen.)
    const startChoice = f.choices!.find((c) => c.value === start && (!only || only.includes(String(c.value))));
    if (startChoice) expect(select.textContent).toBe(startChoice.label);
    await userEvent.setup().click(select);
    const listbox = await screen.findByRole('listbox');
    const offered = within(listbox).getAllByRole('option').map((o) => o.textContent).filter(Boolean);
    expect(offered).toEqual(f.choices!.filter((c) => !only || only.includes(String(c.value))).map((c) => c.label));
  });
});
