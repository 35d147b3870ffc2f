/**
 * The first-start seed (src/server/seed): on a fresh in-memory SQLite, every content table gets rows,
 * every row is valid data for its resource, and a second run does nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registry } from '../../resources/index.ts';
import { bodySchema, pickedFields, ruleOf, type DialogDef, type ResourceDef } from '../../src/manifest/index.ts';
import { COUNTRIES } from '../../src/domain/countries.ts';
import { connect, type Database } from '../../src/server/db/connect.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { fromStoredBoolean, type Row } from '../../src/server/db/repository.ts';
import { getSetting } from '../../src/server/settings/index.ts';
import { seedIfEmpty } from '../../src/server/seed/index.ts';
import { DELIVERY_TIME_NOTICE } from '../../src/server/seed/content.ts';

const CONTENT_TABLES = [
  'topCategories',
  'banners',
  'socialLinks',
  'adminMenus',
  'blogCategories',
  'blogMessages',
  'comments',
  'homeSections',
  'footerMenus',
  'pages',
  'notices',
  'siteSettings',
  'cities',
  'currencies',
];

/**
 * Fields whose rule cannot judge a seeded value, with the only value allowed there instead: a banner's
 * image must be an absolute http(s) URL, and at seed time there is no host to make one with, so the
 * seed uses the product's fallback image path (spec §2 "Fallback images: /logo.jpg").
 */
const UNJUDGEABLE: Record<string, Record<string, string>> = { banners: { url: '/logo.jpg' } };

let database: Database;

beforeEach(async () => {
  database = await connect({ file: ':memory:' });
  await migrate(database, registry);
});
afterEach(() => database.close());

const rowsOf = (table: string) => database.db.selectFrom(table).selectAll().execute() as Promise<Row[]>;
const count = async (table: string) =>
  Number((await database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/** A stored value as a form would hold it: booleans back from 0/1, NULL as absent. */
function asSent(r: ResourceDef, name: string, value: unknown): unknown {
  if (value === null) return undefined;
  return r.fields.find((f) => f.name === name)?.kind === 'boolean' ? fromStoredBoolean(value) : value;
}

/**
 * What the rules say about a stored row: the picked fields as the resource's create dialog would send
 * them (an `option` field as `{ label, value }`), judged by that dialog's strict body schema; every
 * other declared field by its own rule. Resources without a create dialog (comments, pages, notices,
 * site settings) are judged field by field. Answers the issues, `field: message`.
 */
function issuesOf(r: ResourceDef, row: Row): string[] {
  const skip = UNJUDGEABLE[r.name] ?? {};
  const issues: string[] = [];
  const report = (error: z.ZodError, field?: string) =>
    issues.push(...error.issues.map((i) => `${field ?? i.path.join('.')}: ${i.message}`));
  const create = Object.values(r.dialogs).find((d): d is Extract<DialogDef, { kind: 'create' }> => d.kind === 'create');
  const picked = create ? pickedFields(r, create).map((f) => f.name) : [];
  if (create) {
    const body: Row = {};
    for (const name of picked) {
      if (name in skip) continue;
      const value = asSent(r, name, row[name]);
      body[name] = create.wire?.[name] === 'option' && value !== undefined ? { label: String(value), value } : value;
    }
    const shape = Object.entries(bodySchema(r, create).shape).filter(([name]) => !(name in skip));
    const parsed = z.strictObject(Object.fromEntries(shape)).safeParse(body);
    if (!parsed.success) report(parsed.error);
  }
  for (const f of r.fields) {
    if (picked.includes(f.name) || f.name in skip) continue;
    const parsed = ruleOf(f).safeParse(asSent(r, f.name, row[f.name]));
    if (!parsed.success) report(parsed.error, f.name);
  }
  for (const [name, only] of Object.entries(skip)) if (row[name] !== only) issues.push(`${name}: expected ${only}`);
  return issues;
}

describe('seedIfEmpty: demo content', () => {
  it('puts rows in every content table, each valid by its resource’s rules', async () => {
    expect(await seedIfEmpty(database.db, registry)).toBe(true);
    const invalid: Record<string, { id: unknown; issues: string[] }[]> = {};
    for (const table of [...CONTENT_TABLES, 'countries']) {
      const r = registry.resource(table);
      const rows = await rowsOf(table);
      expect(rows.length, table).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row.id, table).toMatch(/^[0-9a-f]{24}$/);
        expect(row.createdAt, table).toEqual(expect.any(String));
        const issues = issuesOf(r, row);
        if (issues.length) (invalid[table] ??= []).push({ id: row.id, issues });
      }
    }
    expect(invalid).toEqual({});
  });

  it('seeds what the spec names', async () => {
    await seedIfEmpty(database.db, registry);
    const notice = await database.db.selectFrom('siteSettings').selectAll().where('name', '=', 'delivery-time-notice').executeTakeFirst();
    expect(notice?.value).toBe(DELIVERY_TIME_NOTICE);

    const top = await rowsOf('topCategories');
    expect(new Set(top.map((t) => t.status))).toEqual(new Set(['PUBLISHED', 'DRAFT']));
    for (const t of top) expect(t.href).toBe(t.slug);

    expect((await rowsOf('banners')).map((b) => b.position).sort()).toEqual([1, 2, 3]);
    expect(new Set((await rowsOf('socialLinks')).map((s) => s.type)).size).toBeGreaterThanOrEqual(5);
    expect(new Set((await rowsOf('adminMenus')).map((m) => m.group)).size).toBe(2);
    expect(new Set((await rowsOf('footerMenus')).map((m) => m.group)).size).toBe(2);
    expect(new Set((await rowsOf('comments')).map((c) => c.blog))).toEqual(new Set(['welcome', 'shipping-guide']));
    expect((await rowsOf('pages')).map((p) => p.slug).sort()).toEqual(['about', 'privacy', 'terms']);
    for (const p of await rowsOf('pages')) expect(p.content).not.toMatch(/<script|on\w+=|javascript:/i);
    expect(new Set((await rowsOf('notices')).map((n) => n.type))).toEqual(new Set(['info', 'warning']));

    const sections = await rowsOf('homeSections');
    expect(sections.map((s) => s.order).sort()).toEqual([1, 2, 3, 4]);
    expect(sections.filter((s) => s.isActive === 0)).toHaveLength(1);
    expect(sections.filter((s) => s.isActive === 1)).toHaveLength(3);
  });

  it('points cities and currencies at seeded countries, and sets USD as the default currency', async () => {
    await seedIfEmpty(database.db, registry);
    const countries = await rowsOf('countries');
    const codes = new Set(countries.map((c) => c.code));
    const codes3 = new Set(countries.map((c) => c.code3));
    const cities = await rowsOf('cities');
    expect(new Set(cities.map((c) => c.country))).toEqual(new Set(['BD', 'US']));
    for (const c of cities) expect(codes.has(c.country)).toBe(true);

    const currencies = await rowsOf('currencies');
    expect(currencies.map((c) => [c.code, c.country, c.symbal]).sort()).toEqual([
      ['BDT', 'BGD', '৳'],
      ['EUR', 'DEU', '€'],
      ['GBP', 'GBR', '£'],
      ['USD', 'USA', '$'],
    ]);
    for (const c of currencies) expect(codes3.has(c.country)).toBe(true);
    expect(currencies.filter((c) => c.status === 0)).toHaveLength(1);
    const usd = currencies.find((c) => c.code === 'USD')!;
    expect(usd.status).toBe(1);
    expect(await getSetting(database.db, registry.resource('currencies').defaultRecord!.key)).toBe(usd.id);
  });

  it('seeds every country, active, even without the catalogue', async () => {
    await seedIfEmpty(database.db, registry, { catalogue: false });
    const countries = await rowsOf('countries');
    expect(countries).toHaveLength(COUNTRIES.length);
    expect(countries.every((c) => c.status === 1)).toBe(true);
    expect(countries.find((c) => c.code === 'US')).toMatchObject({ code3: 'USA', name: 'United States' });
    for (const table of CONTENT_TABLES) expect(await count(table), table).toBe(0);
    expect(await getSetting(database.db, 'defaultCurrency')).toBeNull();
  });

  it('does nothing the second time', async () => {
    expect(await seedIfEmpty(database.db, registry)).toBe(true);
    const tables = [...CONTENT_TABLES, 'countries', 'users', 'categories', 'settings'];
    const before = await Promise.all(tables.map(count));
    expect(await seedIfEmpty(database.db, registry)).toBe(false);
    expect(await Promise.all(tables.map(count))).toEqual(before);
  });
});
