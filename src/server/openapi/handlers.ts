/**
 * What a named server handler takes and answers beyond what its manifest declares. An `operation`
 * without `body` reads its input its own way (a multipart body, a query parameter), which only the
 * handler knows; this says it for the document. A handler not listed here is described generically
 * (any JSON answer, or 204), so a new one is documented, only less precisely, until it is added.
 */
import { UPLOAD_CEILING, UPLOAD_ENDPOINTS, uploadEndpointOf } from '../../manifest/index.ts';
import { answer } from './schemas.ts';
import type { Parameter, Ref, RequestBody, Response } from './types.ts';

/** What the document says of a handler's call, on top of what its manifest declares. */
export interface HandlerDoc {
  /** A short title; the operation's or dialog's name otherwise. */
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: RequestBody;
  /** Answers besides the ones every route of its kind gets (401, 403, 404 for `{id}` paths). */
  responses: Record<string, Response | Ref>;
}

const MB = (bytes: number) => bytes / 1024 / 1024;
// Each endpoint as its declaration says (src/manifest/uploads.ts).
const accepted = UPLOAD_ENDPOINTS.map((e) => {
  const { types, maxFiles, maxBytes, visibility } = uploadEndpointOf(e);
  return `\`${e}\`: ${types.join(', ')}; up to ${maxFiles} file${maxFiles === 1 ? '' : 's'} of ${MB(maxBytes)} MB; ${visibility}`;
}).join('. ');
const messageSchema = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] };

/** Handler docs by the handler's name in the server's map (src/server/handlers.ts). */
export const handlerDocs: Record<string, HandlerDoc> = {
  uploadFiles: {
    summary: 'Upload files',
    description:
      `Stores the files under the endpoint named, judged by their content against what it takes. ` +
      `The endpoints: ${accepted}. If any file is refused, none is kept.`,
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: {
              files: {
                type: 'array',
                minItems: 1,
                maxItems: UPLOAD_CEILING.files,
                items: { type: 'string', contentMediaType: 'application/octet-stream' },
              },
              endpoint: { enum: [...UPLOAD_ENDPOINTS] },
            },
            required: ['files', 'endpoint'],
          },
        },
      },
    },
    responses: {
      200: {
        description: 'The stored files’ URLs, in the order sent.',
        content: { 'application/json': { schema: { type: 'array', items: { type: 'string', format: 'uri' } } } },
      },
      400: answer('BadRequest'),
      413: answer('PayloadTooLarge'),
      429: answer('TooManyRequests'),
    },
  },
  deleteUpload: {
    summary: 'Delete a stored file',
    description: 'Deletes a stored file and its gallery record. Only its uploader or an admin may.',
    parameters: [
      {
        name: 'file',
        in: 'query',
        required: true,
        description: 'The stored path after the assets folder (`banners/<24 hex>.png`).',
        schema: { type: 'string' },
      },
    ],
    responses: {
      200: { description: 'Deleted.', content: { 'application/json': { schema: messageSchema } } },
      400: answer('BadRequest'),
      404: answer('NotFound'),
    },
  },
  restoreFromBin: {
    summary: 'Restore a recycled record',
    description: 'Writes the recycled record back into its table under its own id.',
    responses: {
      200: { description: 'The restored record.', content: { 'application/json': { schema: { type: 'object' } } } },
      404: answer('NotFound'),
      409: answer('Conflict'),
    },
  },
};
