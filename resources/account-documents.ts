/**
 * The documents sellers, dealers and agents file to be verified (spec §3 names "seller documents, dealer
 * documents, agent documents" without fields; §7 reads them). Designed as a marketplace verifies its
 * people: each document is one kind of proof (a national id, a trade licence …) uploaded as a PDF or an
 * image, and an admin approves or rejects it, with a note saying why. The account that uploaded it owns
 * it: it sees and may withdraw its own; a dealer sees its sellers'; an admin sees and reviews them all.
 *
 * Three resources of one shape rather than one table with a role column: each is read under its own
 * paths (`GET /sellers/documents` lists sellers' documents only), has its own owner rule and its own
 * review queue in the menu. The reads of one person's documents (`GET /agents/documents/{email}`,
 * `GET /dealers/documents/id/{id}`) are declared on the agents and dealers (resources/accounts.ts): they
 * name an agent or a dealer, and that person must be within the caller's reach.
 */
import { z } from 'zod';
import { defineResource, dialog, field, read, rules, type NotifyDef, type OwnerDef, type ReadDef, type Role, type StatesDef } from '../src/manifest/index.ts';

/** What a document proves. */
export const DOCUMENT_KINDS = ['NATIONAL_ID', 'PASSPORT', 'TRADE_LICENCE', 'TAX_CERTIFICATE', 'BANK_STATEMENT', 'ADDRESS_PROOF'] as const;
const KIND_LABELS: Record<(typeof DOCUMENT_KINDS)[number], string> = {
  NATIONAL_ID: 'National ID card',
  PASSPORT: 'Passport',
  TRADE_LICENCE: 'Trade licence',
  TAX_CERTIFICATE: 'Tax certificate',
  BANK_STATEMENT: 'Bank statement',
  ADDRESS_PROOF: 'Proof of address',
};

/** Where a document stands in its review; a new one waits for an admin. */
export const DOCUMENT_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;

/** The most characters a review note may have. */
export const MAX_NOTE = 1000;

const fields = (owner: Role) => [
  field.select('kind', DOCUMENT_KINDS, {
    label: 'Document',
    rule: z.enum(DOCUMENT_KINDS, { error: 'Please choose what the document is.' }),
    choices: DOCUMENT_KINDS.map((value) => ({ value, label: KIND_LABELS[value] })),
    list: true,
  }),
  // Filed under `documents`, a private endpoint: the file is served only to who may read this record.
  field.file('file', { rule: rules.webUrl('Please upload the document.'), list: true, upload: { endpoint: 'documents' } }),
  field.select('status', DOCUMENT_STATUSES, {
    rule: z.enum(DOCUMENT_STATUSES, { error: 'Status must be PENDING, APPROVED or REJECTED.' }),
    choices: [
      { value: 'PENDING', label: 'Pending', tone: 'warning' },
      { value: 'APPROVED', label: 'Approved', tone: 'success' },
      { value: 'REJECTED', label: 'Rejected', tone: 'error' },
    ],
    default: 'PENDING',
    createdWith: 'PENDING',
    list: true,
    states: reviewStates(owner),
  }),
  field.textarea('note', {
    label: 'Review note',
    rule: rules.optionalText(),
    maxLength: MAX_NOTE,
    hint: 'Why it was rejected, or what to send instead. The owner reads it.',
  }),
  // The owner: set to the uploader by the server, never sent.
  field.reference('userId', 'users', { label: 'Account', list: true }),
];

/** A document waiting for review: the admins are told. */
const toReview: NotifyDef = {
  to: 'admins',
  title: 'Document to review',
  message: 'A {kind} was sent and waits for review.',
  type: 'info',
  category: 'documents',
};

/** A review: its owner is told how it went (the note says why it was rejected). */
const reviewed: NotifyDef[] = [
  { to: 'owner', when: { status: 'APPROVED' }, title: 'Document approved', message: 'Your {kind} was approved.', type: 'success', category: 'documents' },
  { to: 'owner', when: { status: 'REJECTED' }, title: 'Document rejected', message: 'Your {kind} was rejected. {note}', type: 'error', category: 'documents' },
];

/**
 * The review as states: an admin approves or rejects (saying why), the owner sends a rejected or an
 * approved (expired) document again and it waits for review. The review dialog's and the resubmit's
 * writes are these transitions too; any other change of the status is refused (409).
 */
function reviewStates(owner: Role): StatesDef {
  return {
    transitions: [
      { name: 'approve', label: 'Approve', from: ['PENDING', 'REJECTED'], to: 'APPROVED', roles: ['admin'], notify: reviewed, success: 'Document approved.' },
      { name: 'reject', label: 'Reject', from: ['PENDING', 'APPROVED'], to: 'REJECTED', roles: ['admin'], requires: ['note'], notify: reviewed, success: 'Document rejected.' },
      {
        name: 'resubmit',
        label: 'Send again',
        from: ['APPROVED', 'REJECTED'],
        to: 'PENDING',
        roles: [owner],
        requires: ['file'],
        set: { note: null },
        notify: toReview,
        success: 'Document sent again. It will be reviewed soon.',
        failure: 'Unable to upload document!',
      },
    ],
  };
}

interface DocumentsOf {
  /** The resource's name. */
  name: string;
  /** The role whose documents these are. */
  role: Extract<Role, 'seller' | 'dealer' | 'agent'>;
  /** 'Seller', 'Dealer', 'Agent'. */
  who: string;
  /** The path they live under: '/sellers/documents'. */
  base: `/${string}`;
  owner: OwnerDef['roles'];
  /** Roles besides the owner's and the admin's that read them (a dealer, its sellers'). */
  readers?: readonly Role[];
  /** Reads besides the list at `base`. */
  reads?: Record<string, ReadDef>;
}

function documentsOf(d: DocumentsOf) {
  const lower = d.who.toLowerCase();
  return defineResource({
    name: d.name,
    label: `${d.who} document`,
    plural: `${d.who} documents`,
    title: 'kind',
    access: { read: ['admin', d.role, ...(d.readers ?? [])], write: ['admin', d.role], owner: { field: 'userId', roles: d.owner } },
    menu: { group: 'People', icon: 'Description' },
    fields: fields(d.role),
    // One pending document per kind and owner: a second would wait beside the first for the same review.
    single: { field: 'kind', while: { status: 'PENDING' }, message: '{kind} is already waiting for review. Wait for its review, or delete it to upload another.' },
    sort: { field: 'id', order: 'DESC' },
    reads: { list: read.list(`GET ${d.base}`), ...d.reads },
    dialogs: {
      // The owner uploads its own; it waits for review (PENDING) whatever it sends.
      [`upload${d.who}Document`]: dialog.create({
        title: `Upload ${lower} document`,
        pick: ['kind', 'file'],
        call: `POST ${d.base}`,
        access: [d.role],
        success: 'Document uploaded. It will be reviewed soon.',
        failure: 'Unable to upload document!',
        notify: toReview,
      }),
      // The owner sends a new file (a rejected scan, an expired licence): it waits for review again.
      [`resubmit${d.who}Document`]: dialog.action({
        title: `Send ${lower} document again`,
        pick: ['kind', 'file'],
        call: `PATCH ${d.base}/{id}/resubmit`,
        handler: 'resubmitDocument',
        access: [d.role],
        success: 'Document sent again. It will be reviewed soon.',
        failure: 'Unable to upload document!',
        notify: toReview,
      }),
      [`review${d.who}Document`]: dialog.update({
        title: `Review ${lower} document`,
        pick: ['status', 'note'],
        call: `PATCH ${d.base}/{id}`,
        access: ['admin'],
        success: 'Document reviewed.',
        failure: 'Unable to review document!',
        notify: reviewed,
      }),
      [`${lower}DocumentDetails`]: dialog.details({ show: ['kind', 'file', 'status', 'note', 'userId'] }),
      [`delete${d.who}Document`]: dialog.remove({
        call: `DELETE ${d.base}/{id}`,
        missing: 'Document is missing.',
        success: 'Document deleted successfully.',
      }),
    },
  });
}

export const sellerDocuments = documentsOf({
  name: 'sellerDocuments',
  role: 'seller',
  who: 'Seller',
  base: '/sellers/documents',
  owner: { admin: 'all', seller: 'own', dealer: { team: 'dealerId' } },
  readers: ['dealer'],
  reads: {
    one: read.one('GET /sellers/documents/{id}'),
    // Spec §7: the record an update form opens with.
    forUpdate: read.one('GET /sellers/documents/{id}/update'),
  },
});

export const dealerDocuments = documentsOf({
  name: 'dealerDocuments',
  role: 'dealer',
  who: 'Dealer',
  base: '/dealers/documents',
  owner: { admin: 'all', dealer: 'own' },
});

export const agentDocuments = documentsOf({
  name: 'agentDocuments',
  role: 'agent',
  who: 'Agent',
  base: '/agents/documents',
  owner: { admin: 'all', agent: 'own' },
});
