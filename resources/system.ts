/**
 * The admin's own records: uploaded files (the media gallery, spec §7 Uploads) and the recycle bin
 * that `/recycle` deletes fill (docs/architecture.md: "deletes under /recycle go to a recycle bin that an admin
 * can restore from").
 */
import { UPLOAD_ENDPOINTS, defineResource, dialog, field, operation, read, uploadEndpointOf } from '../src/manifest/index.ts';

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
      // Each endpoint's label is its declaration's (src/manifest/uploads.ts).
      choices: UPLOAD_ENDPOINTS.map((value) => ({ value, label: uploadEndpointOf(value).label })),
    }),
    field.text('type', { list: true, filterable: true }),
    field.number('size', { list: true, storage: 'integer', display: 'bytes' }),
    // The path after the images assets folder: what `DELETE /api/local-upload/delete?file=` names.
    field.text('path', { unique: true }),
    field.reference('uploadedBy', 'users', { label: 'Uploaded by' }),
  ],
  sort: { field: 'id', order: 'DESC' },
  reads: { list: read.list('GET /api/gallery', { paging: 'page' }) },
  // As many files an upload as `pagefile` takes (spec §9: 5).
  list: { upload: { endpoint: 'pagefile' } },
  // Removing a gallery record (`DELETE /api/gallery/{id}`) removes its stored file too, in the delete's
  // transaction: if the file cannot be removed, the record stays.
  hooks: { afterRemove: ({ record, services }) => services.uploads.removeFileOf(record) },
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

/** The table every write appends to (docs/architecture.md: "Every write appends an audit entry"); only the server writes it. */
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
  // Every write appends here and only the audit screen reads it back: no kept record beside each entry
  // (each write would pay a second row for every entry it appends, its changes twice).
  keptRecords: false,
  fields: [
    field.text('at', { label: 'When', list: true, display: 'datetime', filterable: true }),
    field.text('user', { label: 'Who', list: true, searchable: true, sortable: false }),
    field.text('userId', { label: 'User id', filterable: true }),
    field.text('role', { list: true, sortable: false }),
    field.text('resource', { list: true, filterable: true, display: 'resource', sortable: false }),
    field.text('recordId', { label: 'Record id', list: true, filterable: true, sortable: false }),
    field.text('action', { list: true, filterable: true, sortable: false }),
    // `{ field: { before, after } }` as JSON: only the fields the write changed, never a secret; shown
    // as a table of the fields' labels, before and after, read as the resource's own fields read.
    field.textarea('changes', { display: 'changes' }),
  ],
  sort: { field: 'at', order: 'DESC' },
  reads: { list: read.list('GET /audit-log') },
  dialogs: {
    auditEntryDetails: dialog.details({ show: ['at', 'user', 'role', 'resource', 'recordId', 'action', 'changes'] }),
  },
});

/** The table of scheduled jobs (src/server/records/jobs/): writes schedule into it, the runner keeps it. */
export const JOB_RUNS = 'jobRuns';
/** A job run's states, in the order a run goes through them. */
export const JOB_STATES = ['scheduled', 'running', 'done', 'failed'] as const;

/**
 * The Scheduled jobs screen: one row per declared job occurrence — a record's `at` job, or an `every` job's next
 * run — with its state, tries, last error and times. Only the server writes it.
 */
export const jobRuns = defineResource({
  name: JOB_RUNS,
  // Not 'Job' and not /jobs: the specification's jobs are job postings (spec §Jobs).
  label: 'Scheduled job',
  plural: 'Scheduled jobs',
  access: { read: ['admin'], write: [] },
  title: 'job',
  menu: { group: 'Settings', icon: 'Work' },
  // The runner updates a row at each try: timestamps and columns are shown, not sorted, but for when it is due.
  timestamps: 'shown',
  fields: [
    field.text('job', { list: true, filterable: true, sortable: false }),
    field.text('resource', { list: true, filterable: true, display: 'resource', sortable: false }),
    field.text('recordId', { label: 'Record id', list: true, filterable: true, sortable: false }),
    field.text('dueAt', { label: 'Next run', list: true, display: 'datetime' }),
    field.select('state', JOB_STATES, { list: true, sortable: false }),
    field.number('attempts', { label: 'Tries', list: true, storage: 'integer', sortable: false }),
    field.textarea('lastError', { label: 'Last error', list: true }),
    field.text('startedAt', { label: 'Started', display: 'datetime', sortable: false }),
    field.text('finishedAt', { label: 'Finished', list: true, display: 'datetime', sortable: false }),
    // Which occurrence: `<resource>.<job>.<record id>`, or `<resource>.<job>` for an `every` job.
    field.text('key', { unique: true }),
    // The occurrence's id, new at each rescheduling: a run of an older one finds it changed and does nothing.
    field.text('token'),
    // PostgreSQL: the token last handed to pg-boss (empty: not yet handed over).
    field.text('queued'),
  ],
  sort: { field: 'dueAt', order: 'ASC' },
  reads: { list: read.list('GET /scheduled-jobs') },
  dialogs: {
    jobDetails: dialog.details({ show: ['job', 'resource', 'recordId', 'dueAt', 'state', 'attempts', 'lastError', 'startedAt', 'finishedAt'] }),
  },
});
