import { describe, expect, it } from 'vitest';
import { slugify } from '../../src/domain/slug.ts';

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
});
