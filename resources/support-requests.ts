/**
 * Support requests, their live threads, the support team and chats with a representative (issue 53
 * points 3 and 4; spec §2 the support widget and createChatGroup, §3 Ticket, Support chat request,
 * Support team member, Chat group, §5 "Support chat", §7 `/support-panel`, `/support-team`,
 * `/api/chat/group`).
 *
 * A request (§3 "Ticket": type, urgency, reply) is asked about a product (`POST /support-panel`
 * {product, content}; the answer carries `redirectUrl`, the request's thread). Who sees it: its asker
 * (the owner), the product's seller (through the relation: the request's `about` sub-record points at the
 * product, whose `sellerId` is the seller), support staff and admins; nobody else (404).
 * States: OPEN → PENDING (support answered, waiting for the asker) → RESOLVED; a new message from the
 * asker reopens it (PENDING or RESOLVED → OPEN). Staff work from `GET /support-panel/queue` (urgency
 * first, then age, each with its SLA clock), claim or assign; the `breach` job marks a missed target
 * once and notifies. Replies are read with `GET /support-panel/{id}/reply` and sent with `POST` on the
 * same path; each reaches the open threads live over the socket, as does who is typing. After the
 * resolution the asker may rate it once, 1 to 5.
 */
import { z } from 'zod';
import { defineResource, dialog, field, operation, read, rules } from '../src/manifest/index.ts';
import { breachSweep, supportRequestBeforeChange } from '../src/features/support/hooks.ts';
import { ASKER_ROLES, SUPPORT_MESSAGES, STAFF_ROLES } from '../src/features/support/contract.ts';

const STATUSES = ['OPEN', 'PENDING', 'RESOLVED'] as const;
const staff = [...STAFF_ROLES];
const askers = [...ASKER_ROLES];
const readers = [...staff, ...askers, 'seller' as const];

/** §5: content 1 to 255 characters. */
export const contentRule = rules.text(1, SUPPORT_MESSAGES.contentRequired, { length: 255, message: SUPPORT_MESSAGES.content });
/**
 * The storage's bound on a message, above the rule's 255: a message of 256 characters is told the
 * spec's text alone, not the storage's 'at most 255' beside it. Never sorted or filtered.
 */
const CONTENT_STORAGE = 1000;

export const replyBody = z.strictObject({ content: contentRule });
export const typingBody = z.strictObject({ typing: z.boolean() });
export const assignBody = z.strictObject({ assigneeId: rules.hex24(SUPPORT_MESSAGES.notStaff) });
export const rateBody = z.strictObject({ rating: z.number({ error: SUPPORT_MESSAGES.rating }).int(SUPPORT_MESSAGES.rating).min(1, SUPPORT_MESSAGES.rating).max(5, SUPPORT_MESSAGES.rating) });

const datetime = (name: string, label: string) => field.text(name, { label, readOnly: true, display: 'datetime', sortable: false, filterable: false });

export const supportRequests = defineResource({
  name: 'supportRequests',
  label: 'Ticket',
  plural: 'Support requests',
  title: 'content',
  access: {
    read: readers,
    write: staff,
    owner: {
      field: 'askerId',
      roles: {
        admin: 'all',
        support: 'all',
        user: 'own',
        dealer: 'own',
        agent: 'own',
        seller: { through: { items: 'about', via: 'product', field: 'sellerId' } },
      },
    },
  },
  menu: { group: 'Support', icon: 'Help' },
  empty: 'No support requests yet',
  fields: [
    field.reference('product', 'products', { rule: rules.hex24(SUPPORT_MESSAGES.product), list: true, setOnce: true }),
    field.textarea('content', { label: 'Message', rule: contentRule, maxLength: CONTENT_STORAGE, list: true, sortable: false, setOnce: true }),
    field.reference('type', 'supportTypes', { rule: rules.hex24('Choose a support type.'), list: true, setOnce: true }),
    field.reference('urgency', 'supportUrgencies', { rule: rules.hex24('Choose an urgency level.'), list: true, setOnce: true }),
    // §3 Ticket's reply: the latest message of the thread, kept by the server.
    field.textarea('reply', { label: 'Last reply', readOnly: true, maxLength: 255 }),
    field.select('status', STATUSES, {
      createdWith: 'OPEN',
      readOnly: true,
      list: true,
      choices: [
        { value: 'OPEN', label: 'Open' },
        { value: 'PENDING', label: 'Waiting for the asker' },
        { value: 'RESOLVED', label: 'Resolved' },
      ],
      states: {
        transitions: [
          { name: 'answer', label: 'Answer', from: ['OPEN'], to: 'PENDING', roles: staff },
          { name: 'resolve', label: 'Resolve', from: ['OPEN', 'PENDING'], to: 'RESOLVED', roles: staff, success: 'Request resolved.' },
          { name: 'reopen', label: 'Reopen', from: ['PENDING', 'RESOLVED'], to: 'OPEN', roles: askers },
        ],
      },
    }),
    field.reference('askerId', 'users', { label: 'Asked by', readOnly: true, setOnce: true, list: true }),
    field.reference('assigneeId', 'users', { label: 'Assigned to', readOnly: true, list: true }),
    // The product the request is about, as a sub-record: the seller reaches the request through it.
    field.items('about', { readOnly: true, max: 1, fields: [field.reference('product', 'products')] }),
    field.number('urgencyRank', { label: 'Urgency (resolve target, minutes)', storage: 'integer', readOnly: true, sortable: true }),
    datetime('firstReplyDueAt', 'First reply due'),
    datetime('resolveDueAt', 'Resolution due'),
    datetime('firstRepliedAt', 'First replied'),
    datetime('breachedAt', 'SLA breached'),
    field.number('rating', { storage: 'integer', readOnly: true, sortable: false }),
  ],
  sort: { field: 'urgencyRank', order: 'ASC' },
  reads: {
    list: read.list('GET /support-panel/'),
    one: read.one('GET /support-panel/{id}'),
  },
  dialogs: {
    // §7 POST /support-panel {product, content}; type and urgency may be chosen too.
    createSupportRequest: dialog.action({
      title: 'Ask support',
      pick: ['product', 'content', 'type', 'urgency'],
      optional: ['type', 'urgency'],
      call: 'POST /support-panel',
      handler: 'supportAsk',
      access: askers,
      success: 'Your request was sent to support.',
      failure: SUPPORT_MESSAGES.chatFailed,
    }),
  },
  operations: {
    queue: operation('GET /support-panel/queue', 'supportQueue', { access: staff }),
    thread: operation('GET /support-panel/{id}/reply', 'supportThread', { access: readers }),
    reply: operation('POST /support-panel/{id}/reply', 'supportReply', { access: readers, body: replyBody }),
    typing: operation('POST /support-panel/{id}/typing', 'supportTyping', { access: readers, body: typingBody }),
    claim: operation('POST /support-panel/{id}/claim', 'supportClaim', { access: staff }),
    assign: operation('PATCH /support-panel/{id}/assign', 'supportAssign', { access: staff, body: assignBody }),
    rate: operation('POST /support-panel/{id}/rate', 'supportRate', { access: askers, body: rateBody }),
  },
  hooks: { beforeChange: supportRequestBeforeChange },
  jobs: { breach: { every: 60, retries: 2, run: breachSweep } },
});

/**
 * The messages of the live threads: a support request's replies, or a chat's messages. Written by the
 * thread handlers only (src/features/support/server.ts); read through the threads' calls.
 */
export const supportReplies = defineResource({
  name: 'supportReplies',
  label: 'Support reply',
  plural: 'Support replies',
  title: 'content',
  access: { read: ['admin'], write: ['admin'] },
  timestamps: 'shown',
  fields: [
    field.reference('request', 'supportRequests', { readOnly: true }),
    field.reference('chat', 'chatGroups', { readOnly: true }),
    field.reference('authorId', 'users', { label: 'Author', readOnly: true, filterable: false }),
    field.text('authorName', { readOnly: true, filterable: false, sortable: false }),
    field.boolean('staff', { readOnly: true, filterable: false }),
    field.textarea('content', { rule: contentRule, maxLength: CONTENT_STORAGE }),
  ],
});

/** §3 "Support team member" (id, name, role, avatar, number): the representatives the widget lists. */
export const supportTeam = defineResource({
  name: 'supportTeam',
  label: 'Support team member',
  plural: 'Support team',
  access: { read: 'signedIn', write: ['admin'] },
  menu: { group: 'Support', icon: 'Help' },
  empty: 'No support team members yet',
  fields: [
    field.text('name', { rule: rules.text(1, 'Name is required.'), list: true, searchable: true }),
    field.text('role', { rule: rules.text(1, 'Role is required.'), list: true }),
    field.image('avatar', { rule: rules.optionalText(), list: true, sortable: false, upload: { endpoint: 'profilepics' } }),
    field.text('number', { label: 'Phone number', rule: rules.optionalText(), list: true, sortable: false }),
    // The representative's account: chats go to it, and its presence shows 'Online'.
    field.reference('userId', 'users', { label: 'Account', rule: rules.hex24('Choose the representative’s account.'), list: true, unique: true }),
  ],
  sort: { field: 'name', order: 'ASC' },
  reads: {
    list: read.list('GET /support-team'),
    one: read.one('GET /support-team/{id}'),
  },
  dialogs: {
    createSupportTeamMember: dialog.create({
      pick: ['name', 'role', 'avatar', 'number', 'userId'],
      optional: ['avatar', 'number'],
      call: 'POST /support-team',
      success: 'Team member added.',
      failure: 'Unable to add team member!',
    }),
    updateSupportTeamMember: dialog.update({
      pick: ['name', 'role', 'avatar', 'number', 'userId'],
      optional: ['avatar', 'number'],
      call: 'PATCH /support-team/{id}',
      success: 'Team member updated.',
      failure: 'Unable to update team member!',
    }),
  },
  operations: {
    online: operation('GET /support-team/online', 'supportTeamOnline', { access: 'signedIn' }),
  },
});

/**
 * §3 "Chat group" (name, userId): a conversation a signed-in person starts with a representative
 * (`userId`, the representative's account) from /support-team/{id}. Its starter and the representative
 * read it and write in it; admins read every one.
 */
export const chatGroups = defineResource({
  name: 'chatGroups',
  label: 'Chat group',
  plural: 'Chat groups',
  access: {
    read: 'signedIn',
    write: 'signedIn',
    owner: { field: 'starterId', roles: { admin: 'all', support: 'all', user: 'own', seller: 'own', dealer: 'own', agent: 'own' } },
  },
  menu: { group: 'Support', icon: 'Forum' },
  empty: 'No chats yet',
  fields: [
    field.text('name', { rule: rules.text(1, 'Name is required.'), list: true }),
    field.reference('userId', 'users', { label: 'Representative', rule: rules.hex24(SUPPORT_MESSAGES.notRepresentative), list: true, setOnce: true }),
    field.reference('starterId', 'users', { label: 'Started by', readOnly: true, setOnce: true }),
  ],
  reads: {
    list: read.list('GET /api/chat/group'),
    one: read.one('GET /api/chat/group/{id}'),
  },
  dialogs: {
    // §2/§7: createChatGroup POST /api/chat/group {name, userId}; the answer carries redirectUrl.
    createChatGroup: dialog.action({
      pick: ['name', 'userId'],
      call: 'POST /api/chat/group',
      handler: 'chatStart',
      access: 'signedIn',
      success: 'Chat started.',
      failure: SUPPORT_MESSAGES.chatFailed,
    }),
  },
  operations: {
    messages: operation('GET /api/chat/group/{id}/messages', 'chatMessages', { access: 'signedIn' }),
    send: operation('POST /api/chat/group/{id}/messages', 'chatSend', { access: 'signedIn', body: replyBody }),
    typing: operation('POST /api/chat/group/{id}/typing', 'chatTyping', { access: 'signedIn', body: typingBody }),
  },
});
