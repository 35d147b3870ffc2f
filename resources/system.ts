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
    field.select('endpoint', UPLOAD_ENDPOINTS, {
      list: true,
      choices: [
        { value: 'payoutInvoice', label: 'Payout invoice' },
        { value: 'blogcategory', label: 'Blog category' },
        { value: 'pagefile', label: 'Page file' },
        { value: 'banners', label: 'Banner' },
        { value: 'profilepics', label: 'Profile picture' },
      ],
    }),
    field.text('type', { list: true, filterable: true }),
    field.number('size', { list: true, storage: 'integer', display: 'bytes' }),
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
    field.text('resource', { label: 'From', list: true, filterable: true, display: 'resource' }),
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

/** The table every write appends to (DESIGN.md: "Every write appends an audit entry"); only the server writes it. */
export const AUDIT_LOG = 'auditLog';

/**
 * The audit log: one entry per record a write changed, appended in the write's own transaction, so a
 * refused or rolled-back write leaves none. Who is kept as the user's id, email and role at the time
 * (a snapshot, not a reference: history must not stop a user from being deleted).
 */
export const auditLog = defineResource({
  name: AUDIT_LOG,
  label: 'Audit entry',
  plural: 'Audit log',
  access: { read: ['admin'], write: [] },
  title: 'action',
  menu: { group: 'Settings', icon: 'History' },
  // Read newest first, narrowed by filters, search and a range of when: sorted and ranged by `at` only (an
  // entry's timestamps are the same moment, shown only). Every write in the app appends an entry, and
  // each sortable column would add an index per filter that every write keeps up (with all columns
  // sortable, 40 indexes; with the timestamps, 19: an entry cost more than the record it describes;
  // see README, Performance).
  timestamps: 'shown',
  fields: [
    field.text('at', { label: 'When', list: true, display: 'datetime', filterable: true }),
    field.text('user', { label: 'Who', list: true, searchable: true, sortable: false }),
    field.text('userId', { label: 'User id', filterable: true }),
    field.text('role', { list: true, sortable: false }),
    field.text('resource', { list: true, filterable: true, display: 'resource', sortable: false }),
    field.text('recordId', { label: 'Record id', list: true, filterable: true, sortable: false }),
    field.text('action', { list: true, filterable: true, sortable: false }),
    // `{ field: { before, after } }` as JSON: only the fields the write changed, never a secret.
    field.textarea('changes'),
  ],
  sort: { field: 'at', order: 'DESC' },
  reads: { list: read.list('GET /audit-log') },
  dialogs: {
    auditEntryDetails: dialog.details({ show: ['at', 'user', 'role', 'resource', 'recordId', 'action', 'changes'] }),
  },
});
