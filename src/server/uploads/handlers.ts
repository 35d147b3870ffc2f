/**
 * The upload calls (spec §7 Uploads and downloads), as the named handlers `resources/system.ts`
 * declares: `uploadFiles` (`POST /api/s3/upload`) and `deleteUpload`
 * (`DELETE /api/local-upload/delete?file=`), plus what removing a media record must also do.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UPLOAD_ENDPOINTS, type UploadEndpoint } from '../../manifest/index.ts';
import {
  ASSETS_PATH,
  DEFAULT_MAX_FILES,
  ENDPOINT_TYPES,
  FILE_TYPES,
  MAX_FILE_BYTES,
  uploadMessages,
  type FileType,
} from '../../manifest/uploads.ts';
import { sniffFileType } from '../../domain/file-type.ts';
import { MEDIA, media } from '../../../resources/system.ts';
import { actorOf, audit } from '../db/audit.ts';
import { newId } from '../db/id.ts';
import type { Db, Row } from '../db/repository.ts';
import { badRequest, HttpError, notFound } from '../errors.ts';
import { UploadLimitError, type UploadLimiter } from './limits.ts';
import { newStoredPath, refusalOf, sanitiseName } from './paths.ts';
import type { Storage } from './storage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where this app keeps uploaded files (see `registerUploads`). */
    uploads: Storage;
    /** The upload quota and rate of users who are not admins, with their counters (see `registerUploads`). */
    uploadLimiter: UploadLimiter;
  }
}

/** What the upload handlers need of a handler's context (`src/server/routes/handlers.ts`). */
export interface UploadContext {
  db: Db;
  request: FastifyRequest;
  reply?: FastifyReply;
  invalidate(table: string): void;
}

const fileErrors = (status: number, message: string) =>
  new HttpError(status, uploadMessages.validationTitle, { files: [message] });
const noFiles = () => new HttpError(400, uploadMessages.noFilesTitle, { files: [uploadMessages.noFiles] });
const tooMany = () => fileErrors(400, uploadMessages.totalExceeded(DEFAULT_MAX_FILES));
const unknownEndpoint = (name: string) =>
  badRequest(uploadMessages.unknownEndpoint(name), { endpoint: [uploadMessages.unknownEndpoint(name)] });
const isEndpoint = (name: unknown): name is UploadEndpoint => UPLOAD_ENDPOINTS.includes(name as UploadEndpoint);
/** A body that says it is multipart but is not (no boundary, cut short, broken part headers). */
const malformed = () =>
  badRequest('Malformed upload: the body is not valid multipart/form-data.', {
    files: ['The upload could not be read. Send the files as multipart/form-data.'],
  });

/**
 * A refused upload is answered at once; the rest of the request body is read and dropped (never
 * kept), and the connection is closed after the answer, so a client still sending learns early.
 */
function stopReading(context: UploadContext) {
  const raw = context.request.raw;
  context.reply?.header('connection', 'close');
  if (!raw.complete) {
    raw.unpipe();
    raw.resume();
  }
}

interface Received {
  name: string;
  bytes: Buffer;
  type: FileType | undefined;
}

/** Judges a received file against the endpoint: its content must be a type the endpoint takes. */
function judge(file: Received, endpoint: UploadEndpoint) {
  const allowed = ENDPOINT_TYPES[endpoint];
  if (!file.type || !allowed.includes(file.type)) throw fileErrors(400, uploadMessages.badType(file.name, allowed));
}

/** Reads the multipart request: every file in memory (at most 5 of at most 5 MB), and the endpoint. */
async function receive(context: UploadContext): Promise<{ endpoint: UploadEndpoint; files: Received[] }> {
  const { request } = context;
  if (!request.isMultipart()) throw noFiles();
  const files: Received[] = [];
  let endpoint: string | undefined;
  let parts: ReturnType<typeof request.parts>;
  try {
    parts = request.parts({
      limits: {
        fileSize: MAX_FILE_BYTES,
        files: DEFAULT_MAX_FILES + 1,
        fields: 10,
        fieldSize: 1024,
        fieldNameSize: 100,
        parts: DEFAULT_MAX_FILES + 11,
        headerPairs: 100,
      },
    });
  } catch {
    // The parser refuses the content type itself (a multipart type without a boundary).
    stopReading(context);
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
      if (files.length >= DEFAULT_MAX_FILES) throw tooMany();
      const bytes = await part.toBuffer();
      // A file input left empty still sends a part: no name, no bytes.
      if (!part.filename && bytes.length === 0) continue;
      const file: Received = {
        name: sanitiseName(part.filename, 'file'),
        bytes,
        type: sniffFileType(bytes.subarray(0, 16)),
      };
      if (endpoint && isEndpoint(endpoint)) judge(file, endpoint);
      files.push(file);
    }
  } catch (error) {
    stopReading(context);
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      const name = sanitiseName((error as { part?: { filename?: string } }).part?.filename, 'file');
      throw fileErrors(413, uploadMessages.tooLarge(name));
    }
    if (code === 'FST_FILES_LIMIT') throw tooMany();
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw badRequest('Too many form fields.');
    if (error instanceof HttpError || ((error as { statusCode?: number }).statusCode ?? 500) < 500) throw error;
    // Anything else came from the multipart parser (busboy's plain Errors: "Unexpected end of
    // multipart data", "Malformed part header", …): the body is broken, not the server.
    throw malformed();
  }
  if (files.length === 0) throw noFiles();
  if (!isEndpoint(endpoint)) throw unknownEndpoint(endpoint ?? '');
  for (const file of files) judge(file, endpoint);
  return { endpoint, files };
}

/** The bytes of the files `userId` has stored, as the media table records them. */
async function storedBytesOf(db: Db, userId: unknown): Promise<number> {
  const row = await db
    .selectFrom(MEDIA)
    .select((eb) => eb.fn.sum<number | string | null>('size').as('total'))
    .where('uploadedBy', '=', userId as string)
    .executeTakeFirst();
  // PostgreSQL sums integers as bigint, which arrives as a string.
  return Number(row?.total ?? 0);
}

/** Runs a limit's check; a refusal is answered at once (429 with `Retry-After`), any body still unread dropped. */
async function refusing<T>(context: UploadContext, check: () => T | Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof UploadLimitError) {
      stopReading(context);
      if (error.retryAfterSeconds !== undefined) context.reply?.header('Retry-After', String(error.retryAfterSeconds));
    }
    throw error;
  }
}

/** The URL a stored file is fetched from: the storage's own, or this host's assets path. */
function urlOf(request: FastifyRequest, storage: Storage, path: string): string {
  return storage.url(path) ?? `${request.protocol}://${request.host}${ASSETS_PATH}/${path}`;
}

/**
 * `POST /api/s3/upload`: multipart `files` (1 to 5) and `endpoint`. Every file's type is judged by its
 * content; if any file is refused, nothing is kept. Answers the stored files' URLs in order.
 */
export async function uploadFiles(context: UploadContext): Promise<string[]> {
  const { db, request } = context;
  const storage = request.server.uploads;
  const user = request.user;
  if (!user) {
    stopReading(context);
    throw new HttpError(401, 'Please sign in.');
  }
  // Users who are not admins have a rate and a quota (limits.ts): the request is counted, and refused
  // when there is no room left at all, before its body is read.
  const limiter = user.role === 'admin' ? undefined : request.server.uploadLimiter;
  const owner = String(user.id);
  const storedBytes = () => storedBytesOf(db, user.id);
  if (limiter)
    await refusing(context, async () => {
      limiter.count(owner);
      await limiter.checkRoom(owner, storedBytes);
    });
  const { endpoint, files } = await receive(context);
  // The bytes are reserved before the slow part (storage, insert), so parallel uploads see each other.
  const release = limiter
    ? await refusing(context, () => limiter.reserve(owner, files.reduce((sum, f) => sum + f.bytes.length, 0), storedBytes))
    : undefined;

  const stored: string[] = [];
  let recorded = false;
  const now = new Date().toISOString();
  const rows: Row[] = [];
  try {
    for (const file of files) {
      const type = file.type!;
      const path = newStoredPath(endpoint, type);
      await storage.put(path, file.bytes, FILE_TYPES[type].mime);
      stored.push(path);
      rows.push({
        id: newId(),
        url: urlOf(request, storage, path),
        name: file.name,
        endpoint,
        type: FILE_TYPES[type].mime,
        size: file.bytes.length,
        path,
        uploadedBy: user.id,
        createdAt: now,
        updatedAt: now,
      });
    }
    await db.transaction().execute(async (trx) => {
      await trx.insertInto(MEDIA).values(rows).execute();
      const actor = actorOf(request);
      for (const row of rows) await audit(trx, { actor, resource: media, recordId: row.id as string, action: 'upload', after: row });
    });
    recorded = true;
  } catch (error) {
    // All or nothing: the files stored so far go again.
    await Promise.allSettled(stored.map((path) => storage.remove(path)));
    throw error;
  } finally {
    // Recorded (counted by `storedBytes` from now on) or given up: either way no longer pending.
    release?.(recorded);
  }
  context.invalidate(MEDIA);
  return rows.map((row) => row.url as string);
}

/**
 * `DELETE /api/local-upload/delete?file=<path after the assets folder>`: only the uploader or an admin
 * may delete; the file and its media record both go.
 */
export async function deleteUpload(context: UploadContext): Promise<{ message: string }> {
  const { db, request } = context;
  const file = (request.query as Record<string, unknown> | undefined)?.file;
  const refusal = refusalOf(file);
  if (refusal) throw badRequest(refusal, { file: [refusal] });
  const path = file as string;
  const row = await db.selectFrom(MEDIA).selectAll().where('path', '=', path).executeTakeFirst();
  if (!row) throw notFound('File not found.');
  const user = request.user;
  if (!user) throw new HttpError(401, 'Please sign in.');
  if (user.role !== 'admin' && row.uploadedBy !== user.id) throw new HttpError(403, 'Only the uploader or an admin may delete this file.');
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom(MEDIA).where('id', '=', row.id).execute();
    await audit(trx, { actor: actorOf(request), resource: media, recordId: row.id as string, action: 'deleteFile', before: row });
  });
  context.invalidate(MEDIA);
  await request.server.uploads.remove(path);
  return { message: 'File deleted.' };
}

/**
 * After a media record is removed (the gallery's remove dialog, `DELETE /api/gallery/{id}`): its stored
 * file goes too. A path that is not one the server stored is left alone.
 */
export async function removeStoredFileOf(storage: Storage, record: Row | undefined): Promise<void> {
  const path = record?.path;
  if (typeof path !== 'string' || refusalOf(path)) return;
  await storage.remove(path);
}
