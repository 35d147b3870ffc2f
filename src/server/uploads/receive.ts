/**
 * Reading an upload's multipart body without holding it: each file part is streamed to a temporary
 * file as it arrives, with the per-file byte limit and the sender's quota (`onBytes`) judged on every
 * chunk, so a refused body stops being written at once and memory stays a few chunks per upload
 * whatever the files weigh. The temporary folder is the caller's to remove (`Received.discard`).
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { UPLOAD_CEILING, isUploadEndpoint, uploadEndpointOf, uploadMessages, type FileType, type UploadEndpoint } from '../../manifest/uploads.ts';
import { SNIFF_BYTES, sniffFileType } from '../../domain/file-type.ts';
import { badRequest, HttpError } from '../errors.ts';
import { sanitiseName } from './paths.ts';

/**
 * The multipart parser's limits for an upload body (busboy's names): those of the most generous
 * endpoint. Each endpoint's own (src/manifest/uploads.ts) are judged as the files arrive.
 */
export const PART_LIMITS = {
  fileSize: UPLOAD_CEILING.bytes,
  files: UPLOAD_CEILING.files + 1,
  fields: 10,
  fieldSize: 1024,
  fieldNameSize: 100,
  parts: UPLOAD_CEILING.files + 11,
  headerPairs: 100,
  /** Bytes of one part's headers: a file name is cut to 200 characters anyway (`sanitiseName`). */
  headerSize: 8 * 1024,
} as const;

/**
 * The most bytes a body within PART_LIMITS carries besides its files' bytes: every part's headers and
 * its boundary line (`--` + boundary + CRLFs), and the fields' values. A body of `n` bytes so holds at
 * least `n - framingBytes(…)` bytes of files, which lets its Content-Length be judged against the quota
 * before any of it is read. (A body padded beyond this, in a preamble or an epilogue, is judged by its length.)
 */
export function framingBytes(boundaryLength: number): number {
  return PART_LIMITS.parts * (PART_LIMITS.headerSize + boundaryLength + 8) + PART_LIMITS.fields * PART_LIMITS.fieldSize + boundaryLength + 8;
}

/** The boundary of a multipart content type (RFC 2046: at most 70 characters; longer ones count as sent). */
export function boundaryOf(contentType: string | undefined): string {
  const match = /boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  return match?.[1] ?? match?.[2] ?? '';
}

export interface ReceivedFile {
  /** The sanitised original name (for display and downloads only). */
  name: string;
  /** The temporary file holding its bytes. */
  file: string;
  size: number;
  type: FileType | undefined;
}

export interface Received {
  endpoint: UploadEndpoint;
  files: ReceivedFile[];
}

export const fileErrors = (status: number, message: string) => new HttpError(status, uploadMessages.validationTitle, { files: [message] });
export const noFiles = () => new HttpError(400, uploadMessages.noFilesTitle, { files: [uploadMessages.noFiles] });
/** More files than `max` (the endpoint's, or the ceiling's while the endpoint is not yet known): the widget's two texts (§5). */
const tooMany = (max: number) =>
  new HttpError(400, uploadMessages.validationTitle, { files: [uploadMessages.totalExceeded(max), uploadMessages.tooMany(max)] });
const tooLarge = (name: string, maxBytes: number) => fileErrors(413, uploadMessages.tooLarge(name, maxBytes));
const unknownEndpoint = (name: string) => badRequest(uploadMessages.unknownEndpoint(name), { endpoint: [uploadMessages.unknownEndpoint(name)] });
const isEndpoint = isUploadEndpoint;
/** The limits a file is held to: its endpoint's once the endpoint is known, else the ceiling's. */
const limitsOf = (endpoint: string | undefined) =>
  isEndpoint(endpoint) ? uploadEndpointOf(endpoint) : { maxBytes: UPLOAD_CEILING.bytes, maxFiles: UPLOAD_CEILING.files };
/** A body that says it is multipart but is not (no boundary, cut short, broken part headers). */
export const malformed = () =>
  badRequest('Malformed upload: the body is not valid multipart/form-data.', {
    files: ['The upload could not be read. Send the files as multipart/form-data.'],
  });

/** Judges a received file against the endpoint: its size and content must be what the endpoint takes. */
function judge(file: ReceivedFile, endpoint: UploadEndpoint) {
  const { types: allowed, maxBytes } = uploadEndpointOf(endpoint);
  if (file.size > maxBytes) throw tooLarge(file.name, maxBytes);
  if (!file.type || !allowed.includes(file.type)) throw fileErrors(400, uploadMessages.badType(file.name, allowed));
}

/** A temporary folder for one upload's files. */
export const temporaryFolder = () => mkdtemp(join(tmpdir(), 'marketplace-upload-'));
export const removeFolder = (dir: string) => rm(dir, { recursive: true, force: true });

/**
 * Writes one part's bytes to `path`, telling `onBytes` of each chunk before it is written (it throws to
 * refuse). Answers the bytes written and the first SNIFF_BYTES of them.
 */
async function spool(source: Readable, path: string, name: string, maxBytes: number, onBytes: (n: number) => void) {
  let size = 0;
  let head = Buffer.alloc(0);
  const counting = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        size += chunk.length;
        // busboy stops a part at `fileSize` bytes and marks it truncated: one byte more means too large.
        if (size > maxBytes) throw tooLarge(name, maxBytes);
        onBytes(chunk.length);
        if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
        done(null, chunk);
      } catch (error) {
        done(error as Error);
      }
    },
  });
  await pipeline(source, counting, createWriteStream(path, { flags: 'wx' }));
  if ((source as Readable & { truncated?: boolean }).truncated) throw tooLarge(name, maxBytes);
  return { size, head };
}

/**
 * Reads the multipart request into `dir`: the endpoint and at most as many files, of at most as many
 * bytes each, as the endpoint declares (the widget sends the endpoint first; files sent before it are
 * held to the ceiling, then judged once it is known).
 * Throws the answer to give (400, 413, or whatever `onBytes` threw); the caller stops reading the body.
 */
export async function receive(request: FastifyRequest, dir: string, onBytes: (n: number) => void): Promise<Received> {
  if (!request.isMultipart()) throw noFiles();
  const files: ReceivedFile[] = [];
  let endpoint: string | undefined;
  let parts: ReturnType<typeof request.parts>;
  try {
    parts = request.parts({ limits: PART_LIMITS });
  } catch {
    // The parser refuses the content type itself (a multipart type without a boundary).
    throw malformed();
  }
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname === 'endpoint') {
          endpoint = String(part.value);
          if (!isEndpoint(endpoint)) throw unknownEndpoint(endpoint);
        }
        continue;
      }
      if (part.fieldname !== 'files') throw badRequest(`Unexpected file field '${part.fieldname}': files are sent as 'files'.`);
      const { maxBytes, maxFiles } = limitsOf(endpoint);
      if (files.length >= maxFiles) throw tooMany(maxFiles);
      const name = sanitiseName(part.filename, 'file');
      const path = join(dir, String(files.length));
      const { size, head } = await spool(part.file, path, name, maxBytes, onBytes);
      // A file input left empty still sends a part: no name, no bytes.
      if (!part.filename && size === 0) continue;
      const file: ReceivedFile = { name, file: path, size, type: sniffFileType(head) };
      if (endpoint && isEndpoint(endpoint)) judge(file, endpoint);
      files.push(file);
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw tooLarge(sanitiseName((error as { part?: { filename?: string } }).part?.filename, 'file'), limitsOf(endpoint).maxBytes);
    if (code === 'FST_FILES_LIMIT') throw tooMany(limitsOf(endpoint).maxFiles);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw badRequest('Too many form fields.');
    if (error instanceof HttpError || ((error as { statusCode?: number }).statusCode ?? 500) < 500) throw error;
    // The temporary file could not be written (a full disk): the server's failure, not the body's.
    if (typeof (error as { path?: unknown }).path === 'string') throw error;
    // Anything else came from the multipart parser (busboy's plain Errors: "Unexpected end of
    // multipart data", "Malformed part header", …): the body is broken, not the server.
    throw malformed();
  }
  if (files.length === 0) throw noFiles();
  if (!isEndpoint(endpoint)) throw unknownEndpoint(endpoint ?? '');
  if (files.length > uploadEndpointOf(endpoint).maxFiles) throw tooMany(uploadEndpointOf(endpoint).maxFiles);
  for (const file of files) judge(file, endpoint);
  return { endpoint, files };
}
