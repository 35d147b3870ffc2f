/**
 * The spec check: the catalogue stays complete, the real manifests agree with it, and a manifest that
 * drifts from the spec (a title, a verb, a field, a message) is caught.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registry } from '../../resources/index.ts';
import { categories, childCategories } from '../../resources/catalog.ts';
import { createRegistry, defineResource, dialog, field, read, rules, type ResourceInput } from '../../src/manifest/index.ts';
import { catalogue } from '../../scripts/spec/catalogue.ts';
import { KINDS, checkSpec, type SpecReport } from '../../scripts/spec/check.ts';
import { callKey, sameText } from '../../scripts/spec/normalise.ts';

const CATEGORY_DIALOGS = ['Category', 'ChildCategory', 'SubCategory', 'SubChildCategory'].flatMap((level) =>
  ['create', 'update', 'delete'].map((verb) => `${verb}${level}`),
);

/** The real registry with the categories resource changed by `change`. */
function withCategories(change: Partial<ResourceInput>) {
  const doctored = defineResource({ ...categories, ...change });
  return createRegistry(registry.resources.map((r) => (r.name === 'categories' ? doctored : r)));
}

const mismatchesOf = (report: SpecReport, subject: string) =>
  report.mismatches.filter((m) => m.subject === subject).map((m) => m.detail);

describe('the catalogue', () => {
  it('holds every item the specification lists', () => {
    // Counted by hand in spec.md: §2 lists 32 + 29 + 10 dialog types; §3, §5, §7, §8 as in the catalogue files.
    const byGroup = (g: string) => catalogue.dialogs.filter((d) => d.group === g).length;
    expect([byGroup('catalogue'), byGroup('people'), byGroup('jobs')]).toEqual([32, 29, 10]);
    expect(catalogue.dialogs).toHaveLength(71);
    expect(catalogue.entities).toHaveLength(56);
    expect(catalogue.entities.filter((e) => !e.fieldsShown)).toHaveLength(10);
    expect(catalogue.messages).toHaveLength(39);
    expect(catalogue.endpoints).toHaveLength(182);
    expect(catalogue.endpoints.filter((e) => e.base === 'api')).toHaveLength(19);
    expect(catalogue.errors).toHaveLength(63);
  });

  it('keeps the spec spelling', () => {
    const d = (type: string) => catalogue.dialogs.find((x) => x.type === type)!;
    const e = (name: string) => catalogue.entities.find((x) => x.name === name)!;
    expect(d('updateQrcode').failure).toBe('Unable to updated qrcode!');
    expect(d('deleteCategory')).toMatchObject({ missing: 'Category is missing.', failure: 'Someting went wrong.' });
    expect(d('createCategory')).toMatchObject({ fields: ['name'], success: 'Category created successfully.' });
    expect(d('updateSiteCommission').success).toBe('site commission updated successfully.');
    expect(d('CreateProductCommissionInQueryMessage').call).toBe('PATCH /products/{id}/commission');
    expect(e('Currency').fields).toContain('symbal');
    expect(e('Product (commission view)').fields).toContain('ageentFormDealerCommission');
    expect(e('Cart item').fields).toContain('siteCommissin');
    expect(catalogue.endpoints).toContainEqual(
      expect.objectContaining({ method: 'GET', path: '/categories/create-product', query: ['slug'], base: 'admin' }),
    );
    expect(catalogue.endpoints).toContainEqual(expect.objectContaining({ method: 'POST', path: '/api/s3/upload', base: 'api' }));
  });

  it('agrees with itself', () => {
    const texts = catalogue.errors.map((e) => e.text);
    expect(new Set(texts).size).toBe(texts.length);
    for (const d of catalogue.dialogs)
      for (const text of [d.failure, d.success, d.successTitle, d.missing])
        if (text) expect(texts, `${d.type}: '${text}'`).toContain(text);
    for (const d of catalogue.dialogs.filter((x) => x.kind === 'remove')) expect(d.call).toMatch(/^DELETE /);
    for (const e of catalogue.endpoints) expect(e.path.startsWith('/api/')).toBe(e.base === 'api');
    for (const m of catalogue.messages) expect(Boolean(m.entity) !== Boolean(m.widget), m.message).toBe(true);
  });

  // The spec lives beside the project, not in it; where it is present, §2 is compared name by name.
  it.skipIf(!existsSync('/work/shared/spec.md'))('lists exactly the dialog types of spec §2', () => {
    const spec = readFileSync('/work/shared/spec.md', 'utf8');
    const names = [...spec.matchAll(/^### Dialog types, [^\n]*\n([^\n]+)/gm)].flatMap((m) =>
      m[1].replace(/\s*\([^)]*\)/g, '').replace(/\.$/, '').split(/,\s*/),
    );
    expect(names).toHaveLength(71);
    expect(catalogue.dialogs.map((d) => d.type)).toEqual(names);
  });
});

describe('checkSpec on the real manifests', () => {
  const report = checkSpec(registry, catalogue);

  it('finds no mismatch and every category dialog declared', () => {
    expect(report.mismatches).toEqual([]);
    expect(report.dialogs.declared).toEqual(expect.arrayContaining(CATEGORY_DIALOGS));
  });

  it('accounts for every item exactly once', () => {
    for (const kind of KINDS) {
      const { total, declared, missing } = report[kind];
      expect(declared.length + missing.length, kind).toBe(total);
      expect(new Set([...declared, ...missing]).size, kind).toBe(total);
    }
  });

  it('reports the deliberate extra list read as information', () => {
    expect(report.extras).toContainEqual(expect.objectContaining({ kind: 'endpoint', subject: 'GET /categories/sub-child' }));
  });
});

describe('checkSpec coverage', () => {
  it('counts what a registry of the categories alone declares', () => {
    const report = checkSpec(createRegistry([categories]), catalogue);
    expect(report.dialogs.declared).toEqual(['createCategory', 'updateCategory', 'deleteCategory']);
    expect(report.entities.declared).toEqual(['Category']);
    expect(report.messages.declared).toEqual([
      'Category.name: Category name is required!',
      "Category.name: Category cannot be 'general'",
      // The other levels are not declared here, so any rule giving their ban counts (see check.ts).
      "Child category.name: Category cannot be 'general'",
      "Sub category.name: Category cannot be 'general'",
      "Sub-child category.name: Category cannot be 'general'",
      'Category.order: Order must be 1 letter.',
    ]);
    expect(report.endpoints.declared.sort()).toEqual(
      [
        'DELETE /categories/{id}',
        'GET /categories',
        'GET /categories/{id}',
        'GET /categories/{slug}/slug',
        'PATCH /categories/{id}',
        'POST /categories',
      ].sort(),
    );
    expect(report.errors.declared.sort()).toEqual(
      [
        'Unable to create category!',
        'Unable to update category!',
        'Someting went wrong.',
        'Category is missing.',
        'Success!',
        'Category created successfully.',
        // The upload widget's texts (src/manifest/uploads.ts) are declared whatever the registry holds.
        'File Validation error',
        'Total files cannot exceed N.',
        'Validation Error',
        'Please selected files',
        'Files select error. Please select N files.',
      ].sort(),
    );
    expect(report.dialogs.total).toBe(71);
    expect(report.mismatches).toEqual([]);
  });
});

describe('checkSpec: the upload widget’s texts (§5 Upload)', () => {
  const UPLOAD_TEXTS = ['Upload: Total files cannot exceed N.', 'Upload: You can only upload up to N files.', 'Upload: Please selected files'];

  it('counts them as declared when a manifest uploads, from the texts the widget shows', () => {
    expect(checkSpec(registry, catalogue).messages.declared).toEqual(expect.arrayContaining(UPLOAD_TEXTS));
    // The child categories' image field uploads (to its own endpoint); the categories alone do not.
    expect(checkSpec(createRegistry([categories, childCategories]), catalogue).messages.declared).toEqual(expect.arrayContaining(UPLOAD_TEXTS));
    expect(checkSpec(createRegistry([categories]), catalogue).messages.missing).toEqual(expect.arrayContaining(UPLOAD_TEXTS));
  });
});

describe('checkSpec on doctored manifests', () => {
  const update = categories.dialogs.updateCategory;
  if (update.kind !== 'update') throw new Error('updateCategory is expected to be an update dialog');

  it('catches a wrong failure title', () => {
    const report = checkSpec(
      withCategories({
        dialogs: { ...categories.dialogs, updateCategory: { ...update, failure: 'Unable to update Category!' } },
      }),
      catalogue,
    );
    expect(mismatchesOf(report, 'updateCategory')).toEqual([
      "failure: spec 'Unable to update category!', declared 'Unable to update Category!'",
    ]);
  });

  it('catches a wrong call method', () => {
    const report = checkSpec(
      withCategories({ dialogs: { ...categories.dialogs, updateCategory: { ...update, call: 'PUT /categories/{id}' } } }),
      catalogue,
    );
    expect(mismatchesOf(report, 'updateCategory')).toEqual([
      "call: spec 'PATCH /categories/{id}', declared 'PUT /categories/{id}'",
    ]);
    expect(report.endpoints.missing).toContain('PATCH /categories/{id}');
  });

  it('catches a dialog picking different fields', () => {
    const report = checkSpec(
      withCategories({ dialogs: { ...categories.dialogs, updateCategory: { ...update, pick: ['name'] } } }),
      catalogue,
    );
    expect(mismatchesOf(report, 'updateCategory')).toEqual(['fields: spec [name, order], declared [name]']);
  });

  it('catches a wrong missing text and a wrong kind', () => {
    const report = checkSpec(
      withCategories({
        dialogs: {
          ...categories.dialogs,
          deleteCategory: dialog.remove({ call: 'DELETE /categories/{id}', missing: 'No category.', success: 'Deleted.' }),
          createCategory: dialog.details({ show: ['name'] }),
        },
      }),
      catalogue,
    );
    expect(mismatchesOf(report, 'deleteCategory')).toEqual(["missing: spec 'Category is missing.', declared 'No category.'"]);
    expect(mismatchesOf(report, 'createCategory')).toEqual(
      expect.arrayContaining(['kind: spec create, declared details', "call: spec 'POST /categories', declared none"]),
    );
  });

  it('catches a dialog type the spec does not have', () => {
    const report = checkSpec(
      withCategories({ dialogs: { ...categories.dialogs, qrcodeDetails: dialog.details({ show: ['name'] }) } }),
      catalogue,
    );
    expect(mismatchesOf(report, 'qrcodeDetails')).toEqual([
      "declared by categories but not a spec dialog type (the spec spells it 'qrcodedeatils')",
    ]);
  });

  it('catches a rule that lost its spec message, and an entity that lost a field', () => {
    const report = checkSpec(
      withCategories({
        fields: [
          field.text('name', { list: true, rule: rules.notGeneral('Name is required!', "Category cannot be 'general'") }),
          field.slug('slug', 'name'),
        ],
        dialogs: {
          createCategory: categories.dialogs.createCategory,
          updateCategory: { ...update, pick: ['name'] },
        },
      }),
      catalogue,
    );
    expect(mismatchesOf(report, 'Category.name: Category name is required!')).toEqual(['no rule of categories.name gives it']);
    expect(report.messages.missing).toContain('Category.name: Category name is required!');
    expect(mismatchesOf(report, 'Category')).toEqual(["field 'order' is not declared by resource categories"]);
    expect(report.dialogs.missing).toContain('deleteCategory');
  });

  it('tells a contradicting mutation verb and a wrong base from an extra read', () => {
    const auctions = defineResource({
      name: 'auctions',
      label: 'Auction',
      plural: 'Auctions',
      access: { read: ['admin'], write: ['admin'] },
      title: 'price',
      fields: [field.number('price', { rule: z.number() })],
      reads: {
        list: read.list('GET /auctions/'),
        sections: read.list('GET /home-sections'),
        payouts: read.list('GET /payouts'),
      },
      dialogs: {
        updateAuctionModal: dialog.update({
          pick: ['price'],
          call: 'PUT /auctions/{id}',
          success: 'Saved.',
          failure: 'Something went wrong.',
        }),
      },
    });
    // The doctored auctions stand in for the real ones (resources/auctions.ts), and their GET /payouts for
    // the real payouts' (resources/payouts.ts), which would declare the same read twice.
    const report = checkSpec(createRegistry([...registry.resources.filter((r) => r.name !== auctions.name && r.name !== 'payouts'), auctions]), catalogue);
    expect(mismatchesOf(report, 'PUT /auctions/{id}')).toEqual([
      'declared by updateAuctionModal; the spec has DELETE/PATCH for this path',
    ]);
    expect(mismatchesOf(report, 'GET /home-sections')).toEqual([
      'declared by auctions.sections; the spec has it under /api: GET /api/home-sections',
    ]);
    // GET beside the spec's POST /payouts is a read the spec does not list, not a contradiction.
    expect(report.extras).toContainEqual(expect.objectContaining({ kind: 'endpoint', subject: 'GET /payouts' }));
    expect(report.endpoints.declared).toContain('GET /auctions/');
    expect(mismatchesOf(report, 'updateAuctionModal')).toEqual([
      'fields: spec [product, price, startdate, enddate, qty], declared [price]',
    ]);
  });
});

describe('comparison helpers', () => {
  it('ignore parameter names, query strings, a trailing slash and a written-out admin base', () => {
    expect(callKey('GET /categories/{slug}/slug')).toBe(callKey('GET /categories/{id}/slug'));
    expect(callKey('GET /agents/')).toBe('GET /agents');
    expect(callKey('GET /currencies?status=1')).toBe('GET /currencies');
    expect(callKey('POST /api/admin/v1/affiliate')).toBe('POST /affiliate');
    expect(callKey('GET /api/gallery')).not.toBe(callKey('GET /gallery'));
  });

  it('read a standalone N in a spec text as a number', () => {
    expect(sameText('Total files cannot exceed N.', 'Total files cannot exceed 5.')).toBe(true);
    expect(sameText('Total files cannot exceed N.', 'Total files cannot exceed {max}.')).toBe(true);
    expect(sameText('Notification permission denied', 'Notification permission denied')).toBe(true);
    expect(sameText('Total files cannot exceed N.', 'Total files cannot exceed five')).toBe(false);
  });
});

describe('the check-spec command', () => {
  const run = promisify(execFile);
  const cli = (...args: string[]) => run('node_modules/.bin/tsx', ['scripts/check-spec.ts', ...args], { cwd: process.cwd() });

  it('prints total, declared and missing per kind with --json', async () => {
    const { stdout } = await cli('--json');
    const report = JSON.parse(stdout) as SpecReport;
    for (const kind of KINDS)
      expect(report[kind]).toEqual({ total: expect.any(Number), declared: expect.any(Array), missing: expect.any(Array) });
    expect(report.mismatches).toEqual([]);
    expect(report.extras).toEqual(expect.any(Array));
  }, 30_000);

  it('fails with --strict while anything is missing', async () => {
    // Missing as the command counts it: the manifests and the hand-written parts it names.
    const report = JSON.parse((await cli('--json')).stdout) as SpecReport;
    const missing = KINDS.some((k) => report[k].missing.length);
    const outcome = await cli('--strict').then(
      () => 0,
      (e: { code?: number }) => e.code ?? -1,
    );
    expect(outcome).toBe(missing ? 1 : 0);
  }, 30_000);
});

describe('hand-written parts', () => {
  it('counts a hand-written route and a hand-written text as declared, and nothing without them', () => {
    const bare = checkSpec(registry, catalogue);
    expect(bare.endpoints.missing).toContain('GET /api/front/sliders');
    expect(bare.errors.missing).toContain('Failed to load agent data');
    const withThem = checkSpec(registry, catalogue, {
      calls: [{ call: 'GET /api/front/sliders', owner: 'hand-written' }],
      texts: ['Failed to load agent data'],
    });
    expect(withThem.endpoints.declared).toContain('GET /api/front/sliders');
    expect(withThem.errors.declared).toContain('Failed to load agent data');
    expect(withThem.mismatches).toEqual(bare.mismatches);
    // A dialog type hand-written code draws (the search modal), counted only when named.
    expect(bare.dialogs.missing).toContain('searchModal');
    expect(checkSpec(registry, catalogue, { dialogs: [{ type: 'searchModal', owner: 'SearchModal.tsx' }] }).dialogs.declared).toContain('searchModal');
  });

  it('the script counts the OpenAPI document’s fixed routes, the sliders’ load errors and the hand-written §3 shapes', async () => {
    const { stdout } = await promisify(execFile)('npx', ['tsx', 'scripts/check-spec.ts', '--json'], { cwd: process.cwd() });
    const report = JSON.parse(stdout) as SpecReport;
    expect(report.endpoints.declared).toContain('GET /api/front/sliders');
    expect(report.dialogs.declared).toContain('searchModal');
    for (const name of ['Admin slider entry', 'Agent slider entry', 'Dealer slider entry', 'Seller slider entry', 'Referral', 'Video list'])
      expect(report.entities.declared).toContain(name);
    for (const text of ['Failed to load admin data', 'Failed to load agent data', 'Failed to load dealer data', 'Failed to load seller data'])
      expect(report.errors.declared).toContain(text);
  });

  it('counts a §3 shape hand-written code declares, and catches one that lost a field', () => {
    const shapes = [
      { name: 'Agent slider entry', owner: 'sliders', fields: ['name', 'image', 'country', 'city', 'district', 'agentId'] },
      { name: 'Referral', owner: 'storage', fields: [] },
    ];
    const report = checkSpec(registry, catalogue, { entities: shapes });
    expect(report.entities.declared).toEqual(expect.arrayContaining(['Agent slider entry', 'Referral']));
    expect(mismatchesOf(report, 'Agent slider entry')).toEqual([]);
    expect(mismatchesOf(report, 'Referral')).toEqual(["field 'bref' is not declared by storage"]);
    expect(checkSpec(registry, catalogue).entities.missing).toContain('Referral');
  });
});
