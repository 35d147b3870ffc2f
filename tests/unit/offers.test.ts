/**
 * Issue 51, point 6, over every manifest (a resource added tomorrow is judged too):
 * - an update dialog offers what the create offers the same roles (`updateGaps`), secrets and `setOnce`
 *   fields aside;
 * - every list's rows open something, for every role that sees the list: its Edit or its details (a
 *   details dialog is made where the manifest declares none);
 * - an empty list says so in plain words (`emptyText`).
 */
import { describe, expect, it } from 'vitest';
import { registry } from '../../resources/index.ts';
import { mayList } from '../../src/client/generate/access.ts';
import { emptyText } from '../../src/client/generate/empty-text.ts';
import { listDialogs } from '../../src/client/generate/list-dialogs.ts';
import { defineResource, dialog, dialogAccess, field, implicitDetailsType, read, ROLES, rules, updateGaps } from '../../src/manifest/index.ts';

describe('an update dialog offers what the create offers', () => {
  it.each(registry.resources.map((r) => [r.name, r] as const))('%s', (_name, r) => {
    expect(updateGaps(r, (d) => dialogAccess(r, d))).toEqual([]);
  });

  it('finds a field the update leaves out, but not a password, a set-once field or a review by other roles', () => {
    const r = defineResource({
      name: 'gapFixture',
      label: 'Gap',
      plural: 'Gaps',
      access: { read: ['admin', 'seller'], write: ['admin', 'seller'] },
      fields: [
        field.text('name', { rule: rules.text(1, 'Name is required!') }),
        field.text('parent', { rule: rules.text(1, 'Parent is required!') }),
        field.text('email', { rule: rules.text(1, 'Email is required!'), setOnce: true }),
        field.password('password', { rule: rules.text(6, 'Password is required!') }),
        field.text('note', { rule: rules.optionalText() }),
      ],
      dialogs: {
        createGap: dialog.create({ pick: ['name', 'parent', 'email', 'password'], call: 'POST /gaps', success: 'Made.', failure: 'Not made!' }),
        updateGap: dialog.update({ pick: ['name'], call: 'PATCH /gaps/{id}', success: 'Changed.', failure: 'Not changed!' }),
        reviewGap: dialog.update({ pick: ['note'], call: 'PATCH /gaps/{id}/review', access: ['admin'], success: 'Reviewed.', failure: 'Not reviewed!' }),
      },
    });
    // The admin may both create and review: the review is compared too (a role that makes it edits it).
    expect(updateGaps(r, (d) => dialogAccess(r, d))).toEqual([
      { create: 'createGap', update: 'updateGap', field: 'parent' },
      { create: 'createGap', update: 'reviewGap', field: 'name' },
      { create: 'createGap', update: 'reviewGap', field: 'parent' },
    ]);
    const sellersMake = { ...r, dialogs: { ...r.dialogs, createGap: { ...r.dialogs.createGap, access: ['seller' as const] } } };
    expect(updateGaps(sellersMake, (d) => dialogAccess(sellersMake, d)).map((g) => g.update)).toEqual(['updateGap']);
  });

  it("offers a sub-child category's parent on update, as on create", () => {
    const { dialog: update } = registry.dialog('updateSubChildCategory')!;
    expect('pick' in update && update.pick).toContain('category');
  });
});

const listCases = ROLES.flatMap((role) =>
  registry.resources.filter((r) => r.reads.list && mayList(r, role)).map((r) => [`${r.name} as ${role}`, r, role] as const),
);

describe("every list's rows open something", () => {
  it('some role sees some list (the checks below are not empty)', () => expect(listCases.length).toBeGreaterThan(50));

  it.each(listCases)('%s', (_name, r, role) => {
    const { edit, details } = listDialogs(registry, r, role);
    expect(edit ?? details, 'neither an Edit nor a details dialog').toBeDefined();
  });

  it('countries are opened to be changed by an admin, and read by everyone else', () => {
    const countries = registry.resource('countries');
    expect(listDialogs(registry, countries, 'admin').edit?.type).toBe('updateCountry');
    expect(listDialogs(registry, countries, 'admin').details).toBeUndefined();
    expect(listDialogs(registry, countries, 'seller').details?.type).toBe(implicitDetailsType(countries));
  });

  it('a made details dialog shows every field but secrets, and is made only where none is declared', () => {
    const users = registry.resource('users');
    const made = users.dialogs[implicitDetailsType(users)];
    if (made) expect(made.kind === 'details' && made.show.some((name) => users.fields.find((f) => f.name === name)?.secret)).toBe(false);
    const withOwn = registry.resources.filter((r) => Object.values(r.dialogs).some((d) => d.kind === 'details' && !d.implicit));
    for (const r of withOwn) expect(r.dialogs[implicitDetailsType(r)], r.name).toBeUndefined();
    const fixture = defineResource({
      name: 'madeFixture',
      label: 'Made',
      plural: 'Mades',
      access: { read: ['admin'], write: ['admin'] },
      fields: [field.text('name'), field.password('password')],
      reads: { list: read.list('GET /mades') },
    });
    expect(fixture.dialogs.madeFixtureDetails).toEqual({ kind: 'details', show: ['name'], implicit: true });
  });
});

describe('an empty list says so in plain words', () => {
  it('reads the declared words, or the plural counted, or a collection that is empty', () => {
    expect(emptyText(registry.resource('emailHistory'))).toBe('No emails sent yet');
    expect(emptyText(registry.resource('recycleBin'))).toBe('The recycle bin is empty');
    expect(emptyText(registry.resource('auditLog'))).toBe('The audit log is empty');
    expect(emptyText(registry.resource('categories'))).toBe('No categories yet');
    expect(emptyText(registry.resource('qrCodes'))).toBe('No QR codes yet');
  });

  it.each(registry.resources.filter((r) => r.reads.list).map((r) => [r.name, r] as const))('%s', (_name, r) => {
    // 'No <something> yet' only of things counted: never of a collection's name ('No recycle bin yet').
    const text = emptyText(r);
    const counted = /^No (.+) yet$/.exec(text)?.[1];
    if (counted && !r.empty) expect(counted.toLowerCase()).toBe(r.plural.toLowerCase());
    expect(text).not.toMatch(/^No (recycle bin|email history|audit log|media gallery) yet$/i);
  });
});
