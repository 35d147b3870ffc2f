/**
 * Uploads in the app: multipart parsing, the storage (a local folder or an S3-compatible bucket), the
 * handlers the media manifest names, and serving stored files under ASSETS_PATH.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { ASSETS_PATH, FILE_TYPES, isPrivateEndpoint, UPLOAD_CEILING } from '../../manifest/uploads.ts';
import type { Registry, StoredRow, UploadEndpoint } from '../../manifest/index.ts';
import { MEDIA } from '../../../resources/system.ts';
import type { UploadsConfig } from '../config.ts';
import type { Db } from '../db/types.ts';
import type { Handler, Handlers } from '../routes/handlers.ts';
import { deleteUpload, removeStoredFileOf, uploadFiles } from './handlers.ts';
import { DEFAULT_UPLOAD_LIMITS, UploadLimiter, type UploadLimits } from './limits.ts';
import { endpointOfStoredPath, refusalOf, typeOfStoredPath } from './paths.ts';
import { mayFetchPrivate } from './private.ts';
import { S3Storage } from './s3.ts';
import { LocalStorage, type Storage } from './storage.ts';

export { LocalStorage, S3Storage, type Storage };
export { DEFAULT_UPLOAD_LIMITS, UploadLimiter, type UploadLimits };
export { deleteUpload, removeStoredFileOf, uploadFiles };

// Only the upload route parses multipart bodies: the plugin's hooks would otherwise run on every request.
// The handler asks for its own limits per request; these are the ceiling.
const upload: Handler = Object.assign(uploadFiles, {
  scope: async (route: FastifyInstance) => {
    await route.register(fastifyMultipart, { limits: { fileSize: UPLOAD_CEILING.bytes, files: UPLOAD_CEILING.files, parts: 50 } });
  },
});

// The names `resources/system.ts` gives the media operations' handlers.
export const uploadsHandlers = { uploadFiles: upload, deleteUpload } satisfies Handlers;

declare module '../../manifest/hooks.ts' {
  interface HookServices {
    /** The uploads' part of what hooks may use: the media gallery's `afterRemove` removes a record's file. */
    uploads: { removeFileOf(record: StoredRow): Promise<void> };
  }
}

/** The storage the settings ask for: S3 when a bucket is configured, else the local folder. */
export function storageOf(config: UploadsConfig): Storage {
  return config.s3 ? new S3Storage(config.s3) : new LocalStorage(config.dir);
}

/** `attachment; filename=…` with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export interface UploadsPluginOptions {
  storage: Storage;
  db: Db;
  /** The manifests: which records hold the files of private endpoints, and who may read them. */
  registry: Registry;
  /** The quota and rate of users who are not admins (default `DEFAULT_UPLOAD_LIMITS`). */
  limits?: UploadLimits;
}

/**
 * Registers `GET ASSETS_PATH/*` and decorates the app with its storage and its upload limits, which the
 * upload and delete handlers and the remove hook use. Call before the manifest's routes.
 */
export async function registerUploads(app: FastifyInstance, { storage, db, registry, limits = DEFAULT_UPLOAD_LIMITS }: UploadsPluginOptions) {
  app.decorate('uploads', storage);
  app.decorate('uploadLimiter', new UploadLimiter(limits));
  app.hookServices.uploads = { removeFileOf: (record) => removeStoredFileOf(storage, record) };

  // Stored files are read-only and never overwritten. Those of public endpoints (banners, the site's
  // images) are served to anyone and cached; those of private ones only to who may read them
  // (private.ts), never cached, and to anyone else as a file that does not exist.
  app.get(`${ASSETS_PATH}/*`, async (request: FastifyRequest, reply) => {
    const path = (request.params as { '*': string })['*'];
    if (refusalOf(path)) return reply.code(404).send({ message: 'Not found.' });
    const endpoint: UploadEndpoint = endpointOfStoredPath(path);
    const isPrivate = isPrivateEndpoint(endpoint);
    if (isPrivate && !(await mayFetchPrivate(db, registry, request, endpoint, path))) return reply.code(404).send({ message: 'Not found.' });
    const file = await storage.read(path);
    if (!file) return reply.code(404).send({ message: 'Not found.' });
    const type = FILE_TYPES[typeOfStoredPath(path)];
    reply.header('Content-Type', type.mime);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Cache-Control', isPrivate ? 'private, no-store' : 'public, max-age=3600');
    if (file.size !== undefined) reply.header('Content-Length', file.size);
    // A PDF is always downloaded, never shown inline: rendered on the app's own origin, a crafted
    // document could act with the signed-in admin's session.
    if ((request.query as Record<string, unknown>).download === '1' || !type.image) {
      const row = await db.selectFrom(MEDIA).select('name').where('path', '=', path).executeTakeFirst();
      reply.header('Content-Disposition', attachment(String(row?.name ?? path.split('/').pop())));
    }
    return reply.send(file.stream);
  });
}

