import { describe, expect, it } from 'vitest';
import { slugify, SLUG_STAMP_MAX_LENGTH } from '../../src/domain/slug.ts';

describe('slugify (spec §5 Other)', () => {
  it('removes special characters, lower-cases and appends a base-36 stamp', () => {
    expect(slugify('Home & Garden!', { now: 1_700_000_000_000 })).toBe(`home-garden-${(1_700_000_000_000).toString(36)}`);
  });
  it('leaves the stamp off when uniqueness is switched off', () => {
    expect(slugify('  Café  Crème -- Deluxe ', { unique: false })).toBe('cafe-creme-deluxe');
  });
  it('still gives a slug for a name with nothing to keep', () => {
    expect(slugify('!!!', { now: 36 })).toBe('10');
  });
  it(`adds at most ${SLUG_STAMP_MAX_LENGTH} characters to its base, now and at the latest time a stamp can hold`, () => {
    const name = 'x'.repeat(255);
    for (const now of [Date.now(), Number.MAX_SAFE_INTEGER]) expect(slugify(name, { now }).length).toBeLessThanOrEqual(name.length + SLUG_STAMP_MAX_LENGTH);
    expect(slugify(name, { now: Number.MAX_SAFE_INTEGER }).length).toBe(name.length + SLUG_STAMP_MAX_LENGTH);
  });
});
