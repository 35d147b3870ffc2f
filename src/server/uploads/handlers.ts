/**
 * The upload calls (spec §7 Uploads and downloads), as the named handlers `resources/system.ts`
 * declares: `uploadFiles` (`POST /api/s3/upload`) and `deleteUpload`
 * (`DELETE /api/local-upload/delete?file=`), plus what removing a media record must also do.
 */
import { readFile } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ASSETS_PATH, FILE_TYPES, isPrivateEndpoint } from '../../manifest/uploads.ts';
import { MEDIA, media } from '../../../resources/system.ts';
import type { RecordsService } from '../records/service.ts';
import { newId } from '../db/id.ts';
import type { Db, Row } from '../db/types.ts';
import { badRequest, HttpError, notFound } from '../errors.ts';
import { UploadLimitError, type Reservation, type UploadLimiter } from './limits.ts';
import { endpointOfStoredPath, newStoredPath, refusalOf } from './paths.ts';
import { boundaryOf, framingBytes, receive, removeFolder, temporaryFolder, type ReceivedFile } from './receive.ts';
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
  /** The request's records service: the media rows are written through it (audited as the uploader). */
  records: RecordsService;
  request: FastifyRequest;
  reply?: FastifyReply;
}

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

/** Runs a limit's check; a refusal's `Retry-After` (429) is set on the answer. */
async function refusing<T>(context: UploadContext, check: () => T | Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof UploadLimitError && error.retryAfterSeconds !== undefined)
      context.reply?.header('Retry-After', String(error.retryAfterSeconds));
    throw error;
  }
}

/** The Content-Length a request declares, when it declares a valid one. */
function declaredLength(request: FastifyRequest): number | undefined {
  const raw = request.headers['content-length'];
  const n = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Stores a received file from its temporary file: a storage that takes a file copies it, others get its bytes. */
async function putReceived(storage: Storage, path: string, file: ReceivedFile, mime: string) {
  if (storage.putFile) await storage.putFile(path, file.file, mime);
  else await storage.put(path, await readFile(file.file), mime);
}

/**
 * The URL a stored file is fetched from: the storage's own, or this host's assets path. A private
 * endpoint's files always come through this host, which decides who may have them.
 */
function urlOf(request: FastifyRequest, storage: Storage, path: string): string {
  const own = isPrivateEndpoint(endpointOfStoredPath(path)) ? undefined : storage.url(path);
  return own ?? `${request.protocol}://${request.host}${ASSETS_PATH}/${path}`;
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
  // when there is no room left at all or its Content-Length promises more files than there is room
  // for, before its body is read; then again as the files arrive, and exactly once they are in.
  const limiter = user.role === 'admin' ? undefined : request.server.uploadLimiter;
  const owner = String(user.id);
  const storedBytes = () => storedBytesOf(db, user.id);
  let reservation: Reservation | undefined;
  let dir: string | undefined;
  const stored: string[] = [];
  let recorded = false;
  try {
    if (limiter) {
      const sent = declaredLength(request);
      const framing = framingBytes(boundaryOf(request.headers['content-type']).length);
      reservation = await refusing(context, async () => {
        limiter.count(owner);
        await limiter.checkRoom(owner, storedBytes);
        return limiter.reserve(owner, Math.max(0, (sent ?? 0) - framing), storedBytes, { sent, slack: framing });
      });
    }
    dir = await temporaryFolder();
    const { endpoint, files } = await receive(request, dir, (n) => reservation?.receiving(n));
    reservation?.settle(files.reduce((sum, f) => sum + f.size, 0));

    const now = new Date().toISOString();
    const rows: Row[] = [];
    for (const file of files) {
      const type = file.type!;
      const path = newStoredPath(endpoint, type);
      await putReceived(storage, path, file, FILE_TYPES[type].mime);
      stored.push(path);
      rows.push({
        id: newId(),
        url: urlOf(request, storage, path),
        name: file.name,
        endpoint,
        type: FILE_TYPES[type].mime,
        size: file.size,
        path,
        uploadedBy: user.id,
        createdAt: now,
        updatedAt: now,
      });
    }
    await context.records.operation([MEDIA], async (trx, audit) => {
      await trx.insertInto(MEDIA).values(rows).execute();
      for (const row of rows) await audit({ resource: media, recordId: row.id as string, action: 'upload', after: row });
    });
    recorded = true;
    return rows.map((row) => row.url as string);
  } catch (error) {
    // Refused or failed: whatever of the body is still coming is dropped, and all or nothing: the
    // files stored so far go again.
    stopReading(context);
    await Promise.allSettled(stored.map((path) => storage.remove(path)));
    throw error;
  } finally {
    // Recorded (counted by `storedBytes` from now on) or given up: either way no longer pending.
    reservation?.release(recorded);
    if (dir) await removeFolder(dir);
  }
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
  await context.records.operation([MEDIA], async (trx, audit) => {
    await trx.deleteFrom(MEDIA).where('id', '=', row.id).execute();
    await audit({ resource: media, recordId: row.id as string, action: 'deleteFile', before: row });
  });
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
