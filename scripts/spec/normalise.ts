/** How the check compares calls and texts: shared by the catalogue's self-checks and the spec check. */

/** The admin base, written out in full by one §7 call (`POST /api/admin/v1/affiliate`). */
const ADMIN_BASE = '/api/admin/v1';

/**
 * A call's comparison key: `'GET /categories/{}'`. Parameter names, query strings, a trailing slash
 * and a written-out admin base do not make two calls different (§7 writes `/agents/` and
 * `/agents/{id}`, `/social-links` and `/social-links/`).
 */
export function callKey(call: string): string {
  const [method, rawPath = ''] = call.trim().split(/\s+/, 2);
  let path = rawPath.replace(/[?#].*$/, '');
  if (path === ADMIN_BASE || path.startsWith(`${ADMIN_BASE}/`)) path = path.slice(ADMIN_BASE.length);
  path = path.replace(/\{\w*\}/g, '{}').replace(/\/+$/, '');
  return `${method.toUpperCase()} ${path || '/'}`;
}

/** The path part of a call key. */
export function keyPath(key: string): string {
  return key.slice(key.indexOf(' ') + 1);
}

/** A label or entity name reduced for comparison: 'Sub-child category' ≡ 'sub child category' ≡ 'SubChildCategory'. */
export function labelKey(label: string): string {
  return label.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Whether `actual` is the spec text `expected`. A standalone `N` in a spec text stands for a number
 * ('Total files cannot exceed N.'), so it matches digits or a `{placeholder}` too.
 */
export function sameText(expected: string, actual: string): boolean {
  if (expected === actual) return true;
  if (!/\bN\b/.test(expected)) return false;
  const pattern = expected
    .split(/\bN\b/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('(?:\\d+|N|\\{\\w+\\}|\\$\\{\\w+\\})');
  return new RegExp(`^${pattern}$`).test(actual);
}
