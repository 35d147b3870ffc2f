import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registry } from '../../resources/index.ts';
import { bodySchema, defineResource, dialog, field, rules } from '../../src/manifest/index.ts';
import { createSampler, fromPattern, prng } from '../../src/domain/sample.ts';

const ROWS = 500;
const parentId = (i: number) => i.toString(16).padStart(24, '0');
const ctx = { reference: () => parentId(7) };

describe('sample data from the manifests (src/domain/sample.ts)', () => {
  it.each(registry.resources.map((r) => [r.name, r] as const))(
    '%s: every value of %#500 rows passes its field rule',
    (_name, r) => {
      const sampler = createSampler({ seed: 42 });
      for (let i = 0; i < ROWS; i++) {
        const record = sampler.record(r, ctx);
        for (const f of r.fields) {
          expect(f.name in record, `${r.name}.${f.name} present`).toBe(true);
          if (f.rule) {
            const parsed = f.rule.safeParse(record[f.name]);
            expect(parsed.success, `${r.name}.${f.name} = ${JSON.stringify(record[f.name])}`).toBe(true);
          }
          if (f.kind === 'select') expect(f.options).toContain(record[f.name]);
        }
      }
    },
  );

  it('makes dialog bodies the server accepts: exactly the picked fields, valid under the strict schema', () => {
    const sampler = createSampler({ seed: 3, uniqueNames: true });
    for (const r of registry.resources)
      for (const d of Object.values(r.dialogs)) {
        if (!('pick' in d)) continue;
        for (let i = 0; i < 50; i++) {
          const body = sampler.body(r, d, ctx);
          expect(Object.keys(body).sort()).toEqual([...d.pick].sort());
          expect(bodySchema(r, d).safeParse(body).success).toBe(true);
        }
      }
  });

  it("never names a category 'general', and keeps to the rules' minimum lengths", () => {
    const sampler = createSampler({ seed: 5 });
    const categories = registry.resource('categories');
    const image = registry.resource('childCategories').fields.find((f) => f.name === 'image')!;
    for (let i = 0; i < ROWS; i++) {
      const { name, order } = sampler.record(categories);
      expect(String(name).toLowerCase()).not.toBe('general');
      expect(String(name).trim().length).toBeGreaterThanOrEqual(1);
      expect(String(order).length).toBeGreaterThanOrEqual(1);
      expect(String(sampler.value(registry.resource('childCategories'), image)).length).toBeGreaterThanOrEqual(3);
    }
  });

  it('regenerates a value its rule refuses, and gives up loudly on a rule nothing passes', () => {
    const banned = defineResource({
      name: 'things',
      label: 'Thing',
      plural: 'Things',
      title: 'short',
      access: { read: ['admin'], write: ['admin'] },
      fields: [
        field.text('kind', { rule: z.enum(['general', 'special']).refine((v) => v !== 'general', 'no general') }),
        field.text('short', { rule: rules.text(3, 'Too short', { length: 4, message: 'Too long' }) }),
        field.text('code', { rule: rules.hex24('Bad id') }),
      ],
      dialogs: {
        createThing: dialog.create({ pick: ['kind', 'short', 'code'], call: 'POST /things', success: 'ok', failure: 'no' }),
      },
    });
    const sampler = createSampler({ seed: 9 });
    for (let i = 0; i < 200; i++) {
      const record = sampler.record(banned);
      expect(record.kind).toBe('special');
      expect(String(record.short).length).toBeGreaterThanOrEqual(3);
      expect(String(record.short).length).toBeLessThanOrEqual(4);
      expect(record.code).toMatch(/^[0-9a-f]{24}$/);
    }
    const impossible = defineResource({
      name: 'nothings',
      label: 'Nothing',
      plural: 'Nothings',
      access: { read: ['admin'], write: ['admin'] },
      fields: [field.text('name', { rule: z.string().refine(() => false, 'never') })],
    });
    expect(() => createSampler({ seed: 1, maxTries: 3 }).record(impossible)).toThrow(/nothings\.name after 3 tries/);
  });

  it('gives every record a unique slug made from its name', () => {
    for (const r of registry.resources.filter((x) => x.fields.some((f) => f.kind === 'slug'))) {
      const sampler = createSampler({ seed: 11 });
      const slug = r.fields.find((f) => f.kind === 'slug')!;
      const seen = new Set<string>();
      for (let i = 0; i < 5000; i++) {
        const record = sampler.record(r, ctx);
        const value = String(record[slug.name]);
        expect(value).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(value.startsWith(String(record[slug.from!]).toLowerCase().split(' ')[0])).toBe(true);
        seen.add(value);
      }
      expect(seen.size, r.name).toBe(5000);
    }
  });

  it('has variety: names are mostly different', () => {
    const sampler = createSampler({ seed: 1 });
    const categories = registry.resource('categories');
    const names = new Set(Array.from({ length: 1000 }, () => sampler.record(categories).name));
    expect(names.size).toBeGreaterThan(800);
  });

  it('is deterministic given a seed, and a different seed gives different data', () => {
    const make = (seed: number) => {
      const sampler = createSampler({ seed });
      return registry.resources.flatMap((r) => Array.from({ length: 50 }, () => sampler.record(r, ctx)));
    };
    expect(make(1)).toEqual(make(1));
    expect(make(1)).not.toEqual(make(2));
    const a = prng(123);
    const b = prng(123);
    expect(Array.from({ length: 10 }, () => a.next())).toEqual(Array.from({ length: 10 }, () => b.next()));
  });

  it('writes strings for the patterns rules use', () => {
    const rng = prng(4);
    for (let i = 0; i < 100; i++) {
      expect(fromPattern('^[0-9a-f]{24}$', rng)).toMatch(/^[0-9a-f]{24}$/);
      expect(fromPattern('^(ab|cd)+-\\d{2,3}$', rng)).toMatch(/^(ab|cd)+-\d{2,3}$/);
      expect(fromPattern('^[A-Z][^a-z]{2}x?$', rng)).toMatch(/^[A-Z][^a-z]{2}x?$/);
    }
    expect(() => fromPattern('^(?=a)b$', rng)).toThrow(/unsupported pattern/);
  });
});
