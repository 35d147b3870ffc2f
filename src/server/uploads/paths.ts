/**
 * Stored paths: the server names every stored file `<endpoint>/<24 hex>.<type>` and accepts nothing
 * else from a request. The checks are spelled out one by one (traversal, encodings, separators) so a
 * refusal says why, and the shape check behind them refuses whatever they did not think of.
 */
import { randomBytes } from 'node:crypto';
import { isAbsolute, resolve, sep, win32 } from 'node:path';
import { UPLOAD_ENDPOINTS, type UploadEndpoint } from '../../manifest/index.ts';
import { FILE_TYPES, type FileType } from '../../manifest/uploads.ts';

const STORED = new RegExp(
  `^(?:${UPLOAD_ENDPOINTS.join('|')})/[0-9a-f]{24}\\.(?:${Object.keys(FILE_TYPES).join('|')})$`,
);

/** A fresh stored path for a file of `type` uploaded to `endpoint`. */
export function newStoredPath(endpoint: UploadEndpoint, type: FileType): string {
  return `${endpoint}/${randomBytes(12).toString('hex')}.${type}`;
}

/** The endpoint a stored path is filed under (its first segment). */
export function endpointOfStoredPath(path: string): UploadEndpoint {
  return path.slice(0, path.indexOf('/')) as UploadEndpoint;
}

/** The file type a stored path's extension names (the server chose it from the content). */
export function typeOfStoredPath(path: string): FileType {
  return path.slice(path.lastIndexOf('.') + 1) as FileType;
}

/**
 * Why `raw` (a path after the assets folder, as a request gave it) is refused, or undefined when it is
 * a path the server could have stored. Percent-encodings are undone repeatedly, so `%2e%2e` and
 * `%252e%252e` are judged as the `..` they stand for.
 */
export function refusalOf(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return 'No file named.';
  const layers = [raw];
  for (let i = 0; i < 5; i++) {
    const last = layers[layers.length - 1];
    let decoded: string;
    try {
      decoded = decodeURIComponent(last);
    } catch {
      return 'Malformed file path.';
    }
    if (decoded === last) break;
    layers.push(decoded);
  }
  for (const p of layers) {
    if (p.includes('\0')) return 'File paths cannot contain NUL.';
    if (p.includes('\\')) return 'File paths cannot contain backslashes.';
    if (p.startsWith('/') || isAbsolute(p) || win32.isAbsolute(p) || /^[a-z]:/i.test(p)) return 'File paths must be relative.';
    if (p.split('/').some((segment) => segment === '..' || segment === '.')) return 'File paths cannot leave the uploads folder.';
  }
  if (layers.length > 1 || !STORED.test(raw)) return 'Not a stored file path.';
  return undefined;
}

/** The absolute path of a stored file under `root`; throws if it would land outside `root`. */
export function insideRoot(root: string, path: string): string {
  const base = resolve(root);
  const full = resolve(base, path);
  if (!full.startsWith(base + sep)) throw new Error(`Path '${path}' is outside the uploads folder`);
  return full;
}

/**
 * The original file name, kept for display and downloads only (never for storing): path parts,
 * control characters and quotes dropped, at most 200 characters.
 */
export function sanitiseName(name: unknown, fallback: string): string {
  const base = String(name ?? '')
    .split(/[\\/]/)
    .pop()!
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"<>|*?:]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
  return base && base !== '.' && base !== '..' ? base : fallback;
}
