/**
 * Every details dialog the manifests declare, generated from the registry (a dialog added tomorrow is
 * checked too): opened on a record, it shows its `show` fields, in order, each under its label and
 * with the record's value, and nothing else; it edits nothing (no Save, no field to type in), and
 * Close closes it. The named views (`qrcode`, `galleryImage`, `loginDetails`) draw their own bodies
 * (details-views.test.tsx and qr.test.tsx judge what they show): here they too must edit nothing.
 * A details dialog drawn by a hand-written `component` is that component's to test: `commissionDetails`
 * is read-only to everyone, an admin too (tests/ui/actions-mean.test.tsx, tests/e2e/actions-mean.test.ts).
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext } from 'react-admin';
import { vi } from 'vitest';
import { registry } from '../../resources/index.ts';
import { openDialog } from '../../src/client/dialogs/context.ts';
import { DialogHost } from '../../src/client/dialogs/DialogHost.tsx';
import { dialogTitle } from '../../src/client/dialogs/titles.ts';
import { createDataProvider } from '../../src/client/providers/data.ts';
import { ToastProvider } from '../../src/client/shell/toast.tsx';
import { createSampler } from '../../src/domain/sample.ts';
import { createRegistry, defineResource, dialog, field, labelOf, read, TIMESTAMP_FIELDS, type DetailsDialog, type FieldDef } from '../../src/manifest/index.ts';
import { fakeServer, listAnswer } from './fake-server.ts';
import { RegistryProvider } from '../../src/client/registry/context.tsx';
import { render, renderDialogHost } from './harness.tsx';

const declared = registry.resources.flatMap((resource) =>
  Object.entries(resource.dialogs)
    .filter((entry): entry is [string, DetailsDialog] => entry[1].kind === 'details' && !entry[1].component)
    .map(([type, details]) => ({ type, resource, details })),
);

/** The title a parent record is shown by: every resource's title field says whose it is. */
const TITLE_FIELDS = [...new Set(registry.resources.map((r) => r.title).filter((t): t is string => !!t))];
const parentTitle = (id: string) => `Parent ${id.slice(-4)}`;

/** Any list answers the records it is asked for by id (a reference's parent), titled; any other read is empty. */
function parentsServer() {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    const name = url.pathname.split('/').filter(Boolean).pop() ?? 'rows';
    const ids = (JSON.parse(url.searchParams.get('filter') ?? '{}') as { id?: string[] }).id ?? [];
    const rows = ids.map((id) => ({ ...Object.fromEntries(TITLE_FIELDS.map((t) => [t, parentTitle(id)])), id }));
    return new Response(JSON.stringify(rows), {
      status: 200,
      headers: { 'Content-Type': 'application/json', 'Content-Range': `${name} 0-${Math.max(rows.length - 1, 0)}/${rows.length}` },
    });
  });
}

const sampler = createSampler({ seed: 11 });
const PARENT_ID = '6552a1b0c3d4e5f607182930';

/** The text a field's display shows for `value`, where it is plain to say (else undefined: only its label is checked). */
function shownText(f: FieldDef, value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (f.kind === 'reference' && !f.referenceBy) return parentTitle(String(value));
  if (f.display) return undefined;
  if (f.choices?.length && f.kind !== 'boolean') return f.choices.find((c) => c.value === value)?.label;
  if (['text', 'textarea', 'email'].includes(f.kind)) return String(value).trim() || undefined;
  if (f.kind === 'number' && typeof value === 'number') return value.toLocaleString('en-US');
  return undefined;
}

/** Anything a user could type into or change. */
const editable = (root: HTMLElement) => [
  ...within(root).queryAllByRole('textbox'),
  ...within(root).queryAllByRole('spinbutton'),
  ...within(root).queryAllByRole('checkbox'),
  ...within(root).queryAllByRole('combobox'),
  ...root.querySelectorAll('input:not([type="hidden"]), textarea, select, [contenteditable="true"]'),
];

describe('every declared details dialog', () => {
  it('some are declared, with fields and with views (the checks below are not empty)', () => {
    expect(declared.filter((d) => !d.details.view).length).toBeGreaterThan(5);
    expect(declared.filter((d) => d.details.view).length).toBeGreaterThan(0);
  });

  it.each(declared.filter((d) => !d.details.view).map((d) => [d.type, d] as const))(
    '%s shows its fields read-only, each with its value',
    async (type, { resource, details }) => {
      parentsServer();
      renderDialogHost();
      const record: Record<string, unknown> = { id: 'r1', version: 1, ...sampler.record(resource, { reference: () => PARENT_ID }) };
      act(() => openDialog(type, record));
      const shown = await screen.findByRole('dialog', { name: dialogTitle(type, resource, details) });

      // A details dialog may show the record's timestamps beside its fields (a notification's time).
      const fields = details.show
        .map((name) => resource.fields.find((f) => f.name === name) ?? TIMESTAMP_FIELDS.find((f) => f.name === name)!)
        .filter((f) => f.kind !== 'password');
      const labels = [...shown.querySelectorAll('.RaLabeled-label')].map((l) => l.textContent);
      expect(labels).toEqual(fields.map((f) => labelOf(f)));
      for (const f of fields) {
        const text = shownText(f, record[f.name]);
        if (text === undefined) continue;
        const place = [...shown.querySelectorAll('.RaLabeled-label')].find((l) => l.textContent === labelOf(f))!.parentElement!;
        await waitFor(() => expect(place.textContent, `${type}: ${f.name}`).toContain(text));
      }

      expect(within(shown).queryByRole('button', { name: /^(Save|Create|Submit)$/ })).toBeNull();
      expect(editable(shown)).toEqual([]);
      await userEvent.setup().click(within(shown).getByRole('button', { name: 'Close' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    },
  );

  it.each(declared.filter((d) => d.details.view).map((d) => [d.type, d] as const))(
    '%s (a named view) edits nothing',
    async (type, { resource, details }) => {
      parentsServer();
      renderDialogHost();
      const record = { id: 'r1', version: 1, ...sampler.record(resource, { reference: () => PARENT_ID }) };
      act(() => openDialog(type, record));
      const shown = await screen.findByRole('dialog', { name: dialogTitle(type, resource, details) });
      const close = await within(shown).findByRole('button', { name: 'Close' });
      expect(within(shown).queryByRole('button', { name: /^(Save|Create|Submit)$/ })).toBeNull();
      expect(editable(shown)).toEqual([]);
      await userEvent.setup().click(close);
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    },
  );
});

// Displays no declared details dialog asks for together (a password among `show`, an empty value
// shown as declared, a parent through its label, an image by its record's title): declared here.
const things = defineResource({
  name: 'things',
  label: 'Thing',
  plural: 'Things',
  access: { read: 'signedIn', write: ['admin'] },
  fields: [
    field.text('name'),
    field.image('image'),
    field.text('order', { emptyShownAs: 0 }),
    field.reference('category', 'categories', { label: 'Parent category' }),
    field.password('password'),
  ],
  reads: { list: read.list('GET /things') },
  dialogs: { thingDetails: dialog.details({ show: ['name', 'image', 'order', 'category', 'password'] }) },
});
const withThings = createRegistry([...registry.resources, things]);

it('shows the record read-only: parent by name, image as a thumbnail, absent values as declared, no secrets', async () => {
  fakeServer({
    'GET /api/admin/v1/categories': listAnswer('categories', [{ id: '64b7f0c2a1d4e5f600000001', name: 'Fashion' }]),
  });
  const user = userEvent.setup();
  render(
    <ToastProvider>
      <AdminContext dataProvider={createDataProvider(withThings)}>
        <RegistryProvider registry={withThings}>
          <DialogHost />
        </RegistryProvider>
      </AdminContext>
    </ToastProvider>,
  );
  act(() => openDialog('thingDetails', { id: 't1', name: 'Scarf', image: '/img/scarf.png', category: '64b7f0c2a1d4e5f600000001', password: 'x' }));
  const details = await screen.findByRole('dialog', { name: 'Thing details' });
  expect(within(details).getByText('Scarf')).toBeTruthy();
  expect(await within(details).findByText('Fashion')).toBeTruthy();
  expect(within(details).getByText('Parent category')).toBeTruthy();
  expect(within(details).getByText('0')).toBeTruthy();
  expect(within(details).getByAltText('Scarf').getAttribute('src')).toBe('/img/scarf.png');
  expect(within(details).queryByText('Password')).toBeNull();
  expect(within(details).queryByRole('textbox')).toBeNull();

  await user.click(within(details).getByRole('button', { name: 'Close' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});
