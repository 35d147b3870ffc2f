/**
 * The stored video lists (spec §3 "A stored video list record holds a JSON string of data", §7 "Server-side
 * helper", §9 "Video fetch max 9999"; issue 53, point 6). The server searches the video provider named by
 * the site settings (src/domain/videos.ts `VIDEO_SETTINGS`) the first time the storefront asks
 * (`GET /api/front/videos`, src/server/front/videos.ts) and keeps the answer here; later asks are answered
 * from the stored record. Only the server writes a list; the admin sees them, fetches one again, or
 * deletes one (the next ask then fetches anew).
 */
import { defineResource, dialog, field, operation, read } from '../src/manifest/index.ts';

export const VIDEO_LISTS = 'videoLists';

export const videoLists = defineResource({
  name: VIDEO_LISTS,
  label: 'Video list',
  plural: 'Video lists',
  access: { read: ['admin'], write: ['admin'] },
  title: 'source',
  menu: { group: 'Content', icon: 'VideoLibrary' },
  // The storefront's first ask for videos fetches one.
  empty: 'No video lists yet',
  timestamps: 'shown',
  fields: [
    // What the list was searched for: the provider's address and the channel (`sourceKey`).
    field.text('source', { list: true, searchable: true, unique: true, sortable: false }),
    field.number('count', { label: 'Videos', list: true, storage: 'integer', sortable: false }),
    // §3: the videos, latest first, as a JSON string.
    field.textarea('data', { label: 'Videos (JSON)' }),
  ],
  sort: { field: 'id', order: 'DESC' },
  reads: {
    list: read.list('GET /videos'),
    one: read.one('GET /videos/{id}'),
  },
  operations: {
    // Asks the provider again for this record's source and replaces its videos (kept as they were when it fails).
    refresh: operation('POST /videos/{id}/refresh', 'refreshVideoList', {
      access: ['admin'],
      row: { label: 'Fetch again', icon: 'Refresh', success: 'Video list fetched again.', failure: 'Unable to fetch the video list!' },
    }),
  },
  dialogs: {
    deleteVideoList: dialog.remove({
      call: 'DELETE /videos/{id}',
      missing: 'Video list is missing.',
      success: 'Video list deleted successfully.',
    }),
    videoListDetails: dialog.details({ show: ['source', 'count', 'data', 'createdAt', 'updatedAt'] }),
  },
});
