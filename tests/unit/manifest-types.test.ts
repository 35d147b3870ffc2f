/**
 * The one access declaration (issue 49 point 3): a resource says who may call what and which rows each
 * role reaches in `access` alone. A manifest still declaring ownership as a key of its own fails
 * `npm run typecheck` (the `@ts-expect-error` lines below are errors if the type ever accepts it again)
 * and `defineResource`; the declared `access.owner` is what `authorize` reads.
 */
import { describe, expect, it } from 'vitest';
import { authorize, createRegistry, defineResource, dialog, field, type OwnerDef, type ResourceInput } from '../../src/manifest/index.ts';

const owner: OwnerDef = { field: 'sellerId', roles: { admin: 'all', seller: 'own' } };

const base = {
  name: 'things',
  label: 'Thing',
  plural: 'Things',
  fields: [field.text('name'), field.reference('sellerId', 'users')],
};

describe('one access declaration', () => {
  it('refuses ownership declared beside access, in the types and when the manifest loads', () => {
    expect(() =>
      defineResource({
        ...base,
        access: { read: ['admin', 'seller'], write: ['admin', 'seller'] },
        // @ts-expect-error: ownership is `access.owner`; a top-level `owner` is no key of a resource.
        owner,
      }),
    ).toThrow("'owner' is declared inside 'access'");
    // Not only a fresh literal: a manifest assembled from parts is held to it too.
    const parts = { ...base, access: { read: ['admin'] as const, write: ['admin'] as const }, owner };
    // @ts-expect-error: the same `owner` key, arriving through a variable.
    const input: ResourceInput = parts;
    expect(() => defineResource(input)).toThrow("'owner' is declared inside 'access'");
  });

  it('reads the reach from access.owner: a seller reaches its own rows, an admin all', () => {
    const r = defineResource({ ...base, access: { read: ['admin', 'seller'], write: ['admin', 'seller'], owner } });
    expect(r.access.owner).toBe(owner);
    const seller = { id: 's1', role: 'seller' };
    expect(authorize(seller, r, 'read').reach).toMatchObject({ kind: 'own', userId: 's1' });
    expect(authorize(seller, r, 'write', { id: 'x', sellerId: 's1' }).allowed).toBe(true);
    expect(authorize(seller, r, 'write', { id: 'x', sellerId: 's2' }).allowed).toBe(false);
    expect(authorize({ id: 'a1', role: 'admin' }, r, 'write', { id: 'x', sellerId: 's2' })).toMatchObject({ allowed: true, reach: { kind: 'all' } });
    // The same resource without `access.owner`: every role with access reaches every row.
    const open = defineResource({ ...base, access: { read: ['admin', 'seller'], write: ['admin', 'seller'] } });
    expect(authorize(seller, open, 'write', { id: 'x', sellerId: 's2' })).toMatchObject({ allowed: true, reach: { kind: 'all' } });
  });

  it('reaches a party to a record through its own field: it reads and changes, never creates', () => {
    const parties = {
      ...base,
      fields: [...base.fields, field.reference('dealerId', 'users')],
      dialogs: { createThing: dialog.create({ pick: ['name'], call: 'POST /things', success: 'Made.', failure: 'Not made.' }) },
      access: { read: ['admin', 'seller', 'dealer'], write: ['admin', 'seller', 'dealer'], owner: { ...owner, roles: { ...owner.roles, dealer: { party: 'dealerId' } } } },
    } satisfies ResourceInput;
    const r = defineResource(parties);
    // The accounts, as little of them as the check reads.
    const users = defineResource({ name: 'users', label: 'User', plural: 'Users', fields: [field.text('name')], access: { read: ['admin'], write: ['admin'] } });
    const dealer = { id: 'd1', role: 'dealer' };
    expect(authorize(dealer, r, 'read').reach).toEqual({ kind: 'party', userId: 'd1', field: 'dealerId', key: 'party:dealerId:d1' });
    expect(authorize(dealer, r, { dialog: r.dialogs.createThing }).allowed).toBe(false);
    expect(() => createRegistry([users, r])).not.toThrow();
    // The party's field must be a reference to the accounts of the record itself.
    const wrong = defineResource({ ...parties, access: { ...parties.access, owner: { ...owner, roles: { dealer: { party: 'name' } } } } });
    expect(() => createRegistry([users, wrong])).toThrow("owner party 'name' is not a reference to users");
  });
});
