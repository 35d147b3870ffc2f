/**
 * A file's type from its first bytes ("magic bytes"), never from its name or declared type. Pure (no
 * Node or DOM APIs): the upload route judges every stored file with it, and the upload widget judges a
 * chosen file with it before sending, so both refuse the same files.
 */
import type { FileType } from '../manifest/uploads.ts';

/** How many leading bytes `sniffFileType` needs to tell every type apart. */
export const SNIFF_BYTES = 12;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const RIFF = [0x52, 0x49, 0x46, 0x46]; // 'RIFF', then 4 bytes of length
const WEBP = [0x57, 0x45, 0x42, 0x50]; // 'WEBP' at offset 8
const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // '%PDF-'

function startsWith(bytes: Uint8Array, magic: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + magic.length) return false;
  return magic.every((b, i) => bytes[offset + i] === b);
}

/** The type the bytes start like, or undefined when they are none of the types uploads take. */
export function sniffFileType(head: Uint8Array): FileType | undefined {
  if (startsWith(head, PNG)) return 'png';
  if (startsWith(head, JPEG)) return 'jpg';
  if (startsWith(head, RIFF) && startsWith(head, WEBP, 8)) return 'webp';
  if (startsWith(head, PDF)) return 'pdf';
  return undefined;
}
