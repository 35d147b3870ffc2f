/**
 * The `notify` declaration itself (NotifyDef, src/manifest/types.ts): what `defineResource` refuses
 * when the manifest loads, and how the texts are filled from the record a call answers.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineResource, dialog, field, operation, type NotifyDef, type ResourceInput } from '../../src/manifest/index.ts';
import { fill, notificationsOf } from '../../src/features/notifications/server/declared.ts';
import { registry } from '../../resources/index.ts';

const base = (notify: NotifyDef | NotifyDef[], owner = true): ResourceInput => ({
  name: 'things',
  label: 'Thing',
  plural: 'Things',
  access: { read: ['admin'], write: ['admin'], ...(owner ? { owner: { field: 'userId', roles: { admin: 'all' as const } } } : {}) },
  fields: [
    field.text('name', { rule: z.string() }),
    field.select('status', ['OPEN', 'SHUT'], { choices: [{ value: 'OPEN', label: 'Open' }, { value: 'SHUT', label: 'Shut' }] }),
    field.reference('userId', 'users'),
    field.password('password'),
  ],
  dialogs: { updateThing: dialog.update({ pick: ['name'], call: 'PATCH /things/{id}', success: 'ok', failure: 'no', notify }) },
});
const note: NotifyDef = { to: 'owner', title: 'Changed', message: 'Your {name} is {status}.', type: 'info', category: 'things' };

describe('declaring notify', () => {
  it('takes an owner, the admins or a field as the recipient', () => {
    expect(() => defineResource(base(note))).not.toThrow();
    expect(() => defineResource(base({ ...note, to: 'admins' }, false))).not.toThrow();
    expect(() => defineResource(base({ ...note, to: { field: 'userId' } }, false))).not.toThrow();
  });

  it('refuses the owner of a resource without one, a text naming a secret field, and empty texts', () => {
    expect(() => defineResource(base(note, false))).toThrow(/declares no owner/);
    expect(() => defineResource(base({ ...note, message: 'Your password is {password}' }))).toThrow(/secret field 'password'/);
    expect(() => defineResource(base([note, { ...note, title: ' ' }]))).toThrow(/without a title/);
    expect(() => defineResource(base({ ...note, to: { field: '' } }))).toThrow(/names none/);
  });

  it('is declared on operations too, and read back as a list', () => {
    const op = operation('POST /things/{id}/x', 'updateProfile', { notify: [note, { ...note, to: 'admins' }] });
    expect(notificationsOf(op)).toHaveLength(2);
    expect(notificationsOf({})).toEqual([]);
  });

  it('fills {field} from the record, with the words of its choices; absent values and secrets are empty', () => {
    const r = defineResource(base(note));
    expect(fill(note.message, { name: 'Lamp', status: 'SHUT' }, r)).toBe('Your Lamp is Shut.');
    expect(fill('{name}|{missing}|{password}', { name: null, password: 'p' }, r)).toBe('||');
  });

  it('the marketplace’s events declare theirs (commission, documents, accounts)', () => {
    const declared = (resource: string, name: string) => {
      const r = registry.resource(resource);
      return notificationsOf((r.dialogs[name] ?? r.operations[name]) as { notify?: NotifyDef });
    };
    expect(declared('products', 'CreateProductCommissionInQueryMessage').map((n) => n.title)).toEqual(['Commission approved']);
    expect(declared('siteCommissions', 'rejectCommission').map((n) => n.title)).toEqual(['Commission rejected']);
    expect(declared('products', 'createProduct').map((n) => n.to)).toEqual(['admins']);
    for (const who of ['Seller', 'Dealer', 'Agent']) {
      const docs = `${who.toLowerCase()}Documents`;
      expect(declared(docs, `review${who}Document`).map((n) => n.when)).toEqual([{ status: 'APPROVED' }, { status: 'REJECTED' }]);
      expect(declared(docs, `upload${who}Document`).map((n) => n.to)).toEqual(['admins']);
      expect(declared(docs, `resubmit${who}Document`).map((n) => n.to)).toEqual(['admins']);
    }
    expect(declared('accountReplacements', 'replaceAgentModal').map((n) => n.to)).toEqual([{ field: 'userId' }]);
    expect(declared('users', 'issueOneTimePassword').map((n) => n.to)).toEqual([{ field: 'id' }]);
  });
});
