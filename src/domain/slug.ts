/**
 * Slug generation (spec §5 Other): special characters removed, lower-cased, words joined by '-',
 * and a base-36 timestamp appended unless uniqueness is switched off.
 */
/**
 * The most a unique slug adds to its base: '-' and the stamp, a time in milliseconds in base 36 (8
 * characters today; never more than the largest safe integer's 11).
 */
export const SLUG_STAMP_MAX_LENGTH = 1 + Number.MAX_SAFE_INTEGER.toString(36).length;

export function slugify(text: string, options: { unique?: boolean; now?: number } = {}): string {
  const base = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/[\s-]+/g, '-');
  if (options.unique === false) return base;
  const stamp = (options.now ?? Date.now()).toString(36);
  return base ? `${base}-${stamp}` : stamp;
}
