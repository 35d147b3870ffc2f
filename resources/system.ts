/**
 * The admin's own records: uploaded files (the media gallery, spec §7 Uploads) and the recycle bin
 * that `/recycle` deletes fill (DESIGN.md: "deletes under /recycle go to a recycle bin that an admin
 * can restore from").
 */
import { UPLOAD_ENDPOINTS, defineResource, dialog, field, operation, read } from '../src/manifest/index.ts';

/** The table `/recycle` deletes move records into; the server's remove path writes it. */
export const RECYCLE_BIN = 'recycleBin';
/** The table every upload is recorded in; the upload route writes it. */
export const MEDIA = 'media';

export const media = defineResource({
  name: MEDIA,
  label: 'Media file',
  plural: 'Media gallery',
  access: { read: ['admin'], write: ['admin'] },
  menu: { group: 'Content', icon: 'PhotoLibrary' },
  fields: [
    field.image('url', { label: 'Preview', list: true }),
    field.text('name', { label: 'File name', list: true, searchable: true }),
    field.select('endpoint', UPLOAD_ENDPOINTS, { list: true }),
    field.text('type', { list: true, filterable: true }),
    field.number('size', { label: 'Size (bytes)', list: true, storage: 'integer' }),
    // The path after the images assets folder: what `DELETE /api/local-upload/delete?file=` names.
    field.text('path', { unique: true }),
    field.reference('uploadedBy', 'users', { label: 'Uploaded by' }),
  ],
  sort: { field: 'id', order: 'DESC' },
  reads: { list: read.list('GET /api/gallery', { paging: 'page' }) },
  list: { upload: { endpoint: 'pagefile', max: 5 } },
  operations: {
    upload: operation('POST /api/s3/upload', 'uploadFiles', { access: 'signedIn' }),
    // Any signed-in user may ask; the handler lets an admin or the file's uploader delete it.
    deleteFile: operation('DELETE /api/local-upload/delete', 'deleteUpload', { access: 'signedIn' }),
  },
  dialogs: {
    'media-gallery-image-details': dialog.details({ show: ['url', 'name', 'endpoint', 'size'], view: 'galleryImage' }),
    deleteMediaFile: dialog.remove({
      call: 'DELETE /api/gallery/{id}',
      missing: 'Media file is missing.',
      success: 'File deleted successfully.',
    }),
  },
});

export const recycleBin = defineResource({
  name: RECYCLE_BIN,
  label: 'Recycled record',
  plural: 'Recycle bin',
  access: { read: ['admin'], write: ['admin'] },
  title: 'title',
  menu: { group: 'Settings', icon: 'RestoreFromTrash' },
  fields: [
    field.text('title', { label: 'Record', list: true, searchable: true }),
    field.text('resource', { label: 'From', list: true, filterable: true }),
    field.text('recordId'),
    // The record as it was, as JSON: restoring writes it back under its own id.
    field.textarea('data'),
    field.reference('deletedBy', 'users', { label: 'Deleted by' }),
  ],
  sort: { field: 'id', order: 'DESC' },
  reads: { list: read.list('GET /recycle-bin') },
  operations: {
    restore: operation('POST /recycle-bin/{id}/restore', 'restoreFromBin', {
      row: { label: 'Restore', icon: 'RestoreFromTrash', success: 'Record restored.', failure: 'Unable to restore record!' },
    }),
  },
  dialogs: {
    deleteFromRecycleBin: dialog.remove({
      call: 'DELETE /recycle-bin/{id}',
      missing: 'Recycled record is missing.',
      success: 'Record deleted for good.',
    }),
  },
});
