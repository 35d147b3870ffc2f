/** File types judged by content (spec §5 Upload, §8 File validation), and the stored-path checks. */
import { describe, expect, it } from 'vitest';
import { sniffFileType } from '../../src/domain/file-type.ts';
import { ENDPOINT_TYPES, acceptOf } from '../../src/manifest/uploads.ts';
import { insideRoot, newStoredPath, refusalOf, sanitiseName } from '../../src/server/uploads/paths.ts';

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)));

describe('sniffFileType', () => {
  it('knows PNG, JPEG, WEBP and PDF by their first bytes', () => {
    expect(sniffFileType(bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13]))).toBe('png');
    expect(sniffFileType(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF'))).toBe('jpg');
    expect(sniffFileType(bytes([0xff, 0xd8, 0xff, 0xdb]))).toBe('jpg');
    expect(sniffFileType(bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '))).toBe('webp');
    expect(sniffFileType(bytes('%PDF-1.7\n'))).toBe('pdf');
  });

  it('refuses everything else, whatever it claims to be', () => {
    expect(sniffFileType(bytes('<!doctype html><script>alert(1)</script>'))).toBeUndefined();
    expect(sniffFileType(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(sniffFileType(bytes('GIF89a'))).toBeUndefined();
    // A RIFF that is not WEBP (a WAV), and a cut-off PNG signature.
    expect(sniffFileType(bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt '))).toBeUndefined();
    expect(sniffFileType(bytes([0x89], 'PNG'))).toBeUndefined();
    expect(sniffFileType(bytes('%PDF'))).toBeUndefined();
    expect(sniffFileType(new Uint8Array())).toBeUndefined();
    // Magic bytes count only at the start.
    expect(sniffFileType(bytes(' %PDF-1.4'))).toBeUndefined();
  });

  it('agrees with what each endpoint takes', () => {
    expect(ENDPOINT_TYPES.banners).not.toContain('pdf');
    expect(ENDPOINT_TYPES.pagefile).toContain('pdf');
    expect(acceptOf('banners')).toBe('.webp,image/webp,.png,image/png,.jpg,.jpeg,image/jpeg');
  });
});

describe('stored paths', () => {
  it('are named by the server: endpoint, 24 hex, type', () => {
    const path = newStoredPath('banners', 'png');
    expect(path).toMatch(/^banners\/[0-9a-f]{24}\.png$/);
    expect(refusalOf(path)).toBeUndefined();
    expect(newStoredPath('banners', 'png')).not.toBe(path);
  });

  it.each([
    ['', 'No file named.'],
    ['../x', 'File paths cannot leave the uploads folder.'],
    ['banners/../../x', 'File paths cannot leave the uploads folder.'],
    ['..%2Fx', 'File paths cannot leave the uploads folder.'],
    ['%2e%2e/x', 'File paths cannot leave the uploads folder.'],
    ['%252e%252e%252fx', 'File paths cannot leave the uploads folder.'],
    ['/etc/passwd', 'File paths must be relative.'],
    ['C:/Windows/win.ini', 'File paths must be relative.'],
    ['C:\\Windows\\win.ini', 'File paths cannot contain backslashes.'],
    ['a\\..\\..\\x', 'File paths cannot contain backslashes.'],
    ['banners/x.png\0.txt', 'File paths cannot contain NUL.'],
    ['banners%00.png', 'File paths cannot contain NUL.'],
    ['....//', 'Not a stored file path.'],
    ['banners/abc.png', 'Not a stored file path.'],
    ['%E0%A4%A', 'Malformed file path.'],
  ])('refuses %j', (raw, why) => {
    expect(refusalOf(raw)).toBe(why);
  });

  it('never resolve outside the root', () => {
    expect(insideRoot('/srv/up', 'banners/a.png')).toBe('/srv/up/banners/a.png');
    expect(() => insideRoot('/srv/up', '../up2/a.png')).toThrow(/outside/);
    expect(() => insideRoot('/srv/up', '/etc/passwd')).toThrow(/outside/);
  });

  it('keep the original name only for display, without path parts or control characters', () => {
    expect(sanitiseName('C:\\Users\\me\\photo "1".png', 'file')).toBe('photo 1.png');
    expect(sanitiseName('../../etc/passwd', 'file')).toBe('passwd');
    expect(sanitiseName('a\u0000b\nc.pdf', 'file')).toBe('abc.pdf');
    expect(sanitiseName('..', 'file')).toBe('file');
    expect(sanitiseName(undefined, 'file')).toBe('file');
  });
});
