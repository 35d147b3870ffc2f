/**
 * What the support feature's server and client agree on: the resources' names, the texts, the socket
 * events of a live thread, and the SLA clock (pure: both sides compute it alike).
 */

export const SUPPORT_REQUESTS = 'supportRequests';
export const SUPPORT_REPLIES = 'supportReplies';
export const SUPPORT_TEAM = 'supportTeam';
export const CHAT_GROUPS = 'chatGroups';

/** The roles that work the queue: support staff and admins. */
export const STAFF_ROLES = ['support', 'admin'] as const;
/** The roles that ask (a request is owned by its asker). */
export const ASKER_ROLES = ['user', 'dealer', 'agent'] as const;
export const isStaffRole = (role: unknown) => (STAFF_ROLES as readonly unknown[]).includes(role);

export const SUPPORT_MESSAGES = {
  /** Spec §5 "Support chat". */
  content: 'Message must be less than, 255 characters.',
  contentRequired: 'Message is required.',
  product: 'Product id must be exactly 24 hex characters.',
  unknownProduct: 'No product has this id.',
  notStaff: 'Only support staff or an admin can be assigned.',
  notParticipant: 'Only the asker and support staff can reply to this request.',
  claimedByOther: 'This request is already claimed by someone else.',
  notResolved: 'A request can be rated once it is resolved.',
  ratedAlready: 'This request has already been rated.',
  notAsker: 'Only the asker can rate this request.',
  rating: 'Rating must be a whole number from 1 to 5.',
  /** Spec §8: the chat start's failure. */
  chatFailed: 'Unable to start chat!',
  notRepresentative: 'This person is not on the support team.',
  notInChat: 'You are not in this conversation.',
  breachTitle: 'Support request overdue',
  breachMessage: (content: string, missed: string) => `The request "${content.slice(0, 60)}" missed its ${missed} target.`,
} as const;

/** Spec §2's support widget texts (client/SupportWidget.tsx). */
export const WIDGET_TEXTS = { button: 'Support team', available: 'Available 24/7', online: 'Online' } as const;

/** Socket events of a live thread (sent to each participant's own room). */
export const SUPPORT_EVENTS = {
  /** A new message in a thread: `ThreadMessage`. */
  message: 'support:message',
  /** Someone is typing in a thread: `TypingWire`. */
  typing: 'support:typing',
} as const;

/** A message of a thread (a support request's reply, or a chat's message). */
export interface ThreadMessage {
  id: string;
  /** `request:<id>` or `chat:<id>`. */
  thread: string;
  authorId: string;
  authorName: string;
  staff: boolean;
  content: string;
  createdAt: string;
}

export interface TypingWire {
  thread: string;
  userId: string;
  name: string;
  typing: boolean;
}

export const requestThread = (id: string) => `request:${id}`;

/** The app's page of a support request's live thread (the `redirectUrl` asking answers). */
export const requestPath = (id: string) => `/support/requests/${id}`;
/** A representative's page; with `chat`, the conversation with them open (createChatGroup's `redirectUrl`). */
export const memberPath = (memberId: string, chatId?: string) => `/support-team/${memberId}${chatId ? `?chat=${chatId}` : ''}`;
/** The staff's queue screen, and its title. */
export const QUEUE_PATH = '/support/queue';
export const QUEUE_TITLE = 'Support queue';
export const chatThread = (id: string) => `chat:${id}`;

/** A request's SLA clock at `now`: the due time that counts, minutes until it (negative: overdue). */
export interface SlaClock {
  /** Which target counts now: the first reply until one is made, then the resolution. */
  target: 'first reply' | 'resolution';
  dueAt: string | null;
  dueInMinutes: number | null;
  overdue: boolean;
  /** The target a breach missed (the first one past due). */
  missed: string;
}

export function slaOf(request: Record<string, unknown>, now: Date): SlaClock {
  const firstDue = request.firstReplyDueAt ? String(request.firstReplyDueAt) : null;
  const resolveDue = request.resolveDueAt ? String(request.resolveDueAt) : null;
  const waitingFirst = !request.firstRepliedAt && firstDue;
  const target = waitingFirst ? 'first reply' : 'resolution';
  const dueAt = waitingFirst ? firstDue : resolveDue;
  const dueInMinutes = dueAt ? Math.floor((Date.parse(dueAt) - now.getTime()) / 60_000) : null;
  const overdue = request.status !== 'RESOLVED' && dueAt !== null && Date.parse(dueAt) < now.getTime();
  const firstMissed = waitingFirst && firstDue && Date.parse(firstDue) < now.getTime();
  return { target, dueAt, dueInMinutes, overdue, missed: firstMissed ? 'first reply' : 'resolution' };
}

/** "due in 25 min" / "overdue by 2 h 5 min", as the queue shows it. */
export function slaText(clock: SlaClock): string {
  if (clock.dueInMinutes === null) return 'No target';
  const span = (m: number) => (m >= 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m} min`);
  return clock.overdue ? `overdue by ${span(Math.abs(clock.dueInMinutes))}` : `due in ${span(clock.dueInMinutes)}`;
}
