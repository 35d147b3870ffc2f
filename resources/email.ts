/**
 * Email history (spec §7 "GET /email-history (page, pageSize), /email-history/stats, /email-history/{id}";
 * §3 lists it among the entities whose fields are not shown). Every email the system sends is recorded
 * here by `sendEmail` (src/server/email/send.ts), whether it was handed to an SMTP server or not: the
 * admin can see what went to whom and what failed. Only the server writes it; only the admin reads it.
 */
import { defineResource, dialog, field, operation, read } from '../src/manifest/index.ts';

/** The table `sendEmail` records into. */
export const EMAIL_HISTORY = 'emailHistory';

/**
 * What became of an email: `sent` (an SMTP server accepted it), `recorded` (no SMTP server is configured:
 * kept here only), `failed` (the SMTP server refused it or could not be reached; `error` says why).
 */
export const EMAIL_STATUS = ['sent', 'recorded', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUS)[number];

export const emailHistory = defineResource({
  name: EMAIL_HISTORY,
  label: 'Email history',
  plural: 'Email history',
  empty: 'No emails sent yet',
  access: { read: ['admin'], write: [] },
  title: 'subject',
  menu: { group: 'Settings', icon: 'Email' },
  fields: [
    // When it was recorded, to the millisecond and in the order of sending (see `sendEmail`).
    field.text('sentAt', { label: 'When', list: true, display: 'datetime' }),
    field.email('to', { label: 'To', list: true, searchable: true, filterable: true }),
    field.text('subject', { list: true, searchable: true }),
    // Why it was sent ('one-time-password', 'account-replaced'): a name the sender chooses.
    field.text('kind', { list: true, filterable: true }),
    field.select('status', EMAIL_STATUS, {
      list: true,
      choices: [
        { value: 'sent', label: 'Sent', tone: 'success' },
        { value: 'recorded', label: 'Recorded only', tone: 'info' },
        { value: 'failed', label: 'Failed', tone: 'error' },
      ],
    }),
    // The body as sent, except secrets (a one-time password) masked: see `sendEmail`.
    field.textarea('text', { label: 'Message' }),
    field.textarea('error', { maxLength: 2000 }),
  ],
  sort: { field: 'sentAt', order: 'DESC' },
  reads: {
    list: read.list('GET /email-history', { paging: 'page' }),
    one: read.one('GET /email-history/{id}'),
  },
  operations: {
    stats: operation('GET /email-history/stats', 'emailHistoryStats', { access: ['admin'] }),
  },
  dialogs: {
    emailDetails: dialog.details({ show: ['sentAt', 'to', 'subject', 'kind', 'status', 'error', 'text'] }),
  },
});
