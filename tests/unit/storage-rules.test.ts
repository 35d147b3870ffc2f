/**
 * What every stored value is held to, read from the manifests (src/manifest/rules.ts, `ruleOf`):
 * text has a maximum length, integers are whole and 32-bit, reals finite; long text is never indexed;
 * errors are grouped by the client's keys without touching inherited members; links are safe in an
 * `href`.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registry } from '../../resources/index.ts';
import {
  bodySchema,
  defineResource,
  field,
  issuesByField,
  isSortable,
  listOptions,
  ruleOf,
  rules,
  type FieldDef,
  type ResourceDef,
} from '../../src/manifest/index.ts';
import { INT32, isSafeLink, LINK_MESSAGE, MAX_INDEXED_TEXT, MAX_LONG_TEXT, MAX_TEXT, maxLengthOf } from '../../src/manifest/rules.ts';
import { indexesOf } from '../../src/server/db/tables.ts';

// An `items` field has no column of its own: its sub-fields are stored (a child table), each held to its storage.
const fields = registry.resources.flatMap((r) =>
  r.fields.flatMap((f) => (f.kind === 'items' ? f.items!.fields.map((sub) => [`${r.name}.${f.name}.${sub.name}`, sub] as const) : [[`${r.name}.${f.name}`, f] as const])),
);
const text = fields.filter(([, f]) => f.storage === 'text');
const integers = fields.filter(([, f]) => f.storage === 'integer' && f.kind !== 'boolean');
const reals = fields.filter(([, f]) => f.storage === 'real');

describe('stored values are held to their storage (ruleOf)', () => {
  it('long text is textarea and html; everything else is short', () => {
    expect(maxLengthOf(field.text('a'))).toBe(MAX_TEXT);
    expect(maxLengthOf(field.textarea('a'))).toBe(MAX_LONG_TEXT);
    expect(maxLengthOf(field.html('a'))).toBe(MAX_LONG_TEXT);
    expect(maxLengthOf(field.text('a', { maxLength: 40 }))).toBe(40);
  });

  it.each(text)('%s: refuses text longer than its maximum, with a message naming the field', (_name, f) => {
    const max = maxLengthOf(f);
    const parsed = ruleOf(f).safeParse('a'.repeat(max + 1));
    expect(parsed.success).toBe(false);
    if (f.kind !== 'select') expect(parsed.error!.issues.map((i) => i.message)).toContain(`${f.label ?? f.name.charAt(0).toUpperCase() + f.name.slice(1)} must be at most ${max.toLocaleString('en-US')} characters.`);
  });

  it.each(integers)('%s: takes whole 32-bit numbers only', (_name, f) => {
    for (const n of [1.5, INT32.max + 1, INT32.min - 1, 1e21]) expect(ruleOf(f).safeParse(n).success, String(n)).toBe(false);
  });

  it.each(reals)('%s: takes finite numbers only', (_name, f) => {
    for (const n of [Infinity, -Infinity, NaN]) expect(ruleOf(f).safeParse(n).success, String(n)).toBe(false);
  });

  it('a declared maxLength overrides the default, both ways, and the JSON Schema shows it', () => {
    const short = field.text('code', { rule: rules.text(1, 'Code is required!'), maxLength: 8 });
    expect(ruleOf(short).safeParse('a'.repeat(8)).success).toBe(true);
    expect(ruleOf(short).safeParse('a'.repeat(9)).error!.issues[0].message).toBe('Code must be at most 8 characters.');
    const long = field.text('note', { rule: rules.optionalText(), maxLength: 1000 });
    expect(ruleOf(long).safeParse('a'.repeat(1000)).success).toBe(true);
    expect(z.toJSONSchema(ruleOf(short))).toMatchObject({ maxLength: 8 });
    const order = field.number('order', { rule: z.number({ error: 'Order must be a number.' }), storage: 'integer' });
    expect(z.toJSONSchema(ruleOf(order))).toMatchObject({ type: 'integer', minimum: INT32.min, maximum: INT32.max });
  });

  it('a field without a rule is held to its storage too', () => {
    expect(ruleOf(field.text('free')).safeParse('a'.repeat(MAX_TEXT + 1)).success).toBe(false);
    expect(ruleOf(field.number('n', { storage: 'integer' })).safeParse(2 ** 31).success).toBe(false);
    expect(ruleOf(field.text('free')).safeParse(undefined).success).toBe(true);
  });
});

describe('long text is never indexed', () => {
  it('is neither sortable nor filterable, whatever the manifest asks', () => {
    const notes = field.textarea('notes', { list: true, sortable: true, filterable: true });
    expect(isSortable(notes)).toBe(false);
    const r = defineResource({ name: 'things', label: 'Thing', plural: 'Things', access: { read: ['admin'], write: ['admin'] }, fields: [field.text('name', { list: true }), notes] });
    expect(listOptions(r)).toMatchObject({ sorts: ['id', 'name', 'createdAt', 'updatedAt'], filters: [] });
    expect(indexesOf(r).flatMap((i) => i.columns)).not.toContain('notes');
  });

  it('no index of any resource holds a column that may be longer than an index takes', () => {
    for (const r of registry.resources)
      for (const index of indexesOf(r))
        for (const column of index.columns) {
          const f = r.fields.find((x: FieldDef) => x.name === column);
          if (f?.storage === 'text') expect(maxLengthOf(f), `${index.name}`).toBeLessThanOrEqual(MAX_INDEXED_TEXT);
        }
  });

  it("every PostgreSQL index's widest entry fits btree's 2,704 bytes, a searched field's lowered text included", () => {
    // At most 3 bytes of UTF-8 a UTF-16 unit, and `lower` maps one character to one (towlower), so a lowered
    // text is no longer; 4 bytes of length header a value; timestamps and ids are short text; numbers 8.
    const widest = (r: ResourceDef, column: string) => {
      const f = r.fields.find((x: FieldDef) => x.name === column);
      return 4 + (f ? (f.storage === 'text' ? 3 * maxLengthOf(f) : 8) : 3 * 24);
    };
    let lowered = 0;
    for (const r of registry.resources)
      for (const index of indexesOf(r, 'postgres')) {
        const bytes = 8 + [...index.columns, ...(index.lowered ?? [])].reduce((sum, c) => sum + widest(r, c), 0);
        expect(bytes, index.name).toBeLessThanOrEqual(2704);
        lowered += index.lowered?.length ?? 0;
      }
    expect(lowered).toBeGreaterThan(0);
  });

  it('a unique field allowed long text fails when its indexes are made', () => {
    const r = defineResource({ name: 'notes', label: 'Note', plural: 'Notes', access: { read: ['admin'], write: ['admin'] }, fields: [field.textarea('name', { unique: true })] });
    expect(() => indexesOf(r)).toThrow(/unique but may hold 10000 characters/);
  });
});

describe('issuesByField groups by the client’s keys', () => {
  it.each(['toString', 'constructor', 'hasOwnProperty', 'valueOf', '__proto__', '__defineGetter__'])('%s is a key like any other', (key) => {
    const schema = z.strictObject({ name: z.string({ error: 'Name is required!' }) });
    const raw = JSON.parse(`{"${key}":1}`);
    const errors = issuesByField(schema.safeParse(raw).error!);
    expect(Object.keys(errors).sort()).toEqual([key, 'name'].sort());
    expect(errors[key]).toEqual([`Field '${key}' is not allowed.`]);
    expect(JSON.parse(JSON.stringify(errors))[key]).toEqual([`Field '${key}' is not allowed.`]);
  });
});

describe('links (rules.link)', () => {
  const safe = [
    'https://example.com/a?b=c#d',
    'http://localhost:3000/x',
    'HTTPS://EXAMPLE.COM',
    '/banners',
    '/topCategories?filter=%7B%7D',
    'summer-sale',
    'pages/about',
    '#top',
    '?q=1',
    'mailto:help@example.com',
    'MAILTO:help@example.com',
    'tel:+8801712345678',
    '+8801712345678',
    '01712-345678',
    '  /padded  ',
  ];
  const unsafe = [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    '  javascript:alert(1)',
    '\tjavascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'java\rscript:alert(1)',
    'javascript\u0000:alert(1)',
    'data:text/html;base64,PHNjcmlwdD4=',
    'DATA:text/html,x',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://example.com',
    'localhost:3000',
    '//evil.example',
    '\\\\evil.example',
    '/\\evil.example',
    'http://',
    'mailto:',
    '',
    '   ',
  ];
  it.each(safe)('takes %j', (link) => expect(isSafeLink(link)).toBe(true));
  it.each(unsafe)('refuses %j', (link) => expect(isSafeLink(link)).toBe(false));

  it('every link field of the manifests uses it, with the specification’s messages kept', () => {
    const errorsOf = (type: string, body: Record<string, unknown>) => {
      const found = registry.dialog(type)!;
      const parsed = bodySchema(found.resource, found.dialog).safeParse(body);
      return parsed.success ? {} : issuesByField(parsed.error);
    };
    expect(errorsOf('add-banner', { href: 'javascript:alert(1)', url: '/a.png', position: 1 }).href).toEqual(['Inavlid URL.']);
    expect(errorsOf('add-banner', { href: '', url: '/a.png', position: 1 }).href).toBeUndefined();
    expect(errorsOf('addtopcategory', { href: 'javascript:x' }).href).toEqual([LINK_MESSAGE]);
    expect(errorsOf('addtopcategory', { href: 'abc' }).href).toEqual(['href is required!']);
    expect(errorsOf('addtopcategory', { href: 'summer-sale' }).href).toBeUndefined();
    expect(errorsOf('createSocialMediaLinkModal', { link: 'data:x' }).link).toEqual([LINK_MESSAGE]);
    expect(errorsOf('createSocialMediaLinkModal', { link: '+8801700000000' }).link).toBeUndefined();
    expect(errorsOf('addAdminMenu', { href: 'vbscript:x' }).href).toEqual([LINK_MESSAGE]);
    expect(errorsOf('addAdminMenu', { href: 'ab' }).href).toEqual(['href is required!']);
    expect(errorsOf('createFooterMenu', { href: ' JAVASCRIPT:x' }).href).toEqual([LINK_MESSAGE]);
    expect(errorsOf('createFooterMenu', { href: 'tel:+1' }).href).toBeUndefined();
  });

  it('a link is stored trimmed', () => {
    expect(rules.link('href is required!').parse('  /about  ')).toBe('/about');
  });
});
