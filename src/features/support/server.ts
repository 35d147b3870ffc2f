/**
 * The support feature's server part (the calls are declared in resources/support-requests.ts):
 *
 * - asking (`POST /support-panel`): the request is made through the records service, its answer
 *   carries `redirectUrl`, the request's thread page;
 * - the threads (`GET`/`POST /support-panel/{id}/reply`, `/api/chat/group/{id}/messages`): each message
 *   is a `supportReplies` record; a new one is sent live to every participant's own socket room, as is
 *   who is typing. A support reply answers the request (OPEN → PENDING, the first reply time kept); the
 *   asker's new message reopens it (PENDING or RESOLVED → OPEN);
 * - the queue, claiming, assigning and the rating.
 *
 * A record the caller may not reach is a 404 before any handler runs (the routes load it); a request the
 * caller reaches but may not write in (the product's seller) is a 403.
 */
import { userRoom } from '../notifications/contract.ts';
import { conflict, HttpError, badRequest } from '../../server/errors.ts';
import type { HandlerContext, Handlers } from '../../server/routes/handlers.ts';
import type { Row } from '../../server/records/index.ts';
import {
  CHAT_GROUPS,
  SUPPORT_EVENTS,
  SUPPORT_MESSAGES,
  SUPPORT_REPLIES,
  SUPPORT_REQUESTS,
  SUPPORT_TEAM,
  chatThread,
  isStaffRole,
  memberPath,
  requestPath,
  requestThread,
  slaOf,
  slaText,
  type ThreadMessage,
  type TypingWire,
} from './contract.ts';

/** Where a request's thread is shown in the app. */
export const requestPage = (id: string) => requestPath(id);
/** Where a chat with a representative is shown: the representative's page, the chat open. */
export const chatPage = (memberId: string, chatId: string) => memberPath(memberId, chatId);

const forbidden = (message: string) => new HttpError(403, message);
const me = (ctx: HandlerContext) => ctx.request.user!;

function emitTo(ctx: HandlerContext, userIds: Iterable<string>, event: string, payload: unknown) {
  const io = ctx.request.server.realtime?.io;
  if (!io) return;
  const rooms = [...new Set(userIds)].map(userRoom);
  if (rooms.length) io.to(rooms).emit(event, payload);
}

/** Everyone who follows a request's thread: its asker, the product's seller, its assignee and the staff. */
async function requestParticipants(ctx: HandlerContext, request: Row): Promise<string[]> {
  const product = await ctx.db.selectFrom('products').select('sellerId').where('id', '=', request.product).executeTakeFirst();
  const staff = await ctx.db.selectFrom('users').select('id').where('role', 'in', ['support', 'admin']).execute();
  return [request.askerId, product?.sellerId, request.assigneeId, ...staff.map((s: Row) => s.id)].filter(Boolean).map(String);
}

const chatParticipants = (chat: Row) => [chat.starterId, chat.userId].filter(Boolean).map(String);

function wireOf(reply: Row, thread: string): ThreadMessage {
  return {
    id: String(reply.id),
    thread,
    authorId: String(reply.authorId),
    authorName: String(reply.authorName ?? ''),
    staff: reply.staff === true || reply.staff === 1,
    content: String(reply.content),
    createdAt: String(reply.createdAt),
  };
}

async function messagesOf(ctx: HandlerContext, field: 'request' | 'chat', id: string, thread: string) {
  const rows = await ctx.db.selectFrom(SUPPORT_REPLIES).selectAll().where(field, '=', id).orderBy('createdAt').orderBy('id').execute();
  return rows.map((row: Row) => wireOf(row, thread));
}

async function writeMessage(ctx: HandlerContext, field: 'request' | 'chat', id: string, content: string, staff: boolean): Promise<Row> {
  const user = me(ctx);
  ctx.invalidate(SUPPORT_REPLIES);
  return ctx.records.create(SUPPORT_REPLIES, { [field]: id, authorId: String(user.id), authorName: String(user.name ?? user.email ?? ''), staff, content });
}

export const supportHandlers = {
  /** `POST /support-panel`: the request, with the page of its thread to go to. */
  async supportAsk(ctx) {
    const created = await ctx.records.create(SUPPORT_REQUESTS, ctx.body);
    ctx.reply.status(201);
    return { ...created, redirectUrl: requestPage(String(created.id)) };
  },

  /** `GET /support-panel/queue`: the open work, most urgent first, then oldest, each with its SLA clock. */
  async supportQueue(ctx) {
    const now = new Date();
    const rows = await ctx.db
      .selectFrom(SUPPORT_REQUESTS)
      .selectAll()
      .where('status', '!=', 'RESOLVED')
      .orderBy('urgencyRank')
      .orderBy('createdAt')
      .orderBy('id')
      .limit(500)
      .execute();
    return rows.map((row: Row) => {
      const sla = slaOf(row, now);
      const { about: _about, ...rest } = row;
      return { ...rest, sla: { ...sla, text: slaText(sla) } };
    });
  },

  /** `GET /support-panel/{id}/reply`: the thread, oldest first. */
  async supportThread(ctx) {
    const id = String(ctx.record!.id);
    return messagesOf(ctx, 'request', id, requestThread(id));
  },

  /** `POST /support-panel/{id}/reply` {content}: a message from the asker or the staff, sent live. */
  async supportReply(ctx) {
    const request = ctx.record!;
    const user = me(ctx);
    const staff = isStaffRole(user.role);
    const asker = String(request.askerId) === String(user.id);
    if (!staff && !asker) throw forbidden(SUPPORT_MESSAGES.notParticipant);
    const content = String(ctx.body.content);
    const reply = await writeMessage(ctx, 'request', String(request.id), content, staff);
    const change: Row = { reply: content };
    let transition: string | undefined;
    if (staff) {
      if (!request.firstRepliedAt) change.firstRepliedAt = String(reply.createdAt);
      if (request.status === 'OPEN') transition = 'answer';
    } else if (request.status !== 'OPEN') transition = 'reopen';
    if (transition) change.status = transition === 'answer' ? 'PENDING' : 'OPEN';
    const updated = await ctx.records.update(SUPPORT_REQUESTS, String(request.id), change, transition ? { transition } : {});
    const message = wireOf(reply, requestThread(String(request.id)));
    emitTo(ctx, await requestParticipants(ctx, request), SUPPORT_EVENTS.message, message);
    ctx.reply.status(201);
    return { message, request: updated };
  },

  /** `POST /support-panel/{id}/typing` {typing}: tells the thread's other participants. */
  async supportTyping(ctx) {
    const request = ctx.record!;
    const user = me(ctx);
    if (!isStaffRole(user.role) && String(request.askerId) !== String(user.id)) throw forbidden(SUPPORT_MESSAGES.notParticipant);
    const others = (await requestParticipants(ctx, request)).filter((id) => id !== String(user.id));
    const wire: TypingWire = { thread: requestThread(String(request.id)), userId: String(user.id), name: String(user.name ?? ''), typing: ctx.body.typing === true };
    emitTo(ctx, others, SUPPORT_EVENTS.typing, wire);
    return { ok: true };
  },

  /** `POST /support-panel/{id}/claim`: the caller takes the request, unless someone else has. */
  async supportClaim(ctx) {
    const request = ctx.record!;
    const userId = String(me(ctx).id);
    if (request.assigneeId && String(request.assigneeId) !== userId) throw conflict(SUPPORT_MESSAGES.claimedByOther);
    try {
      return await ctx.records.update(SUPPORT_REQUESTS, String(request.id), { assigneeId: userId }, { ifMatch: Number(request.version) });
    } catch (error) {
      // Another claim committed between the read and this write.
      if ((error as { status?: number }).status === 412) throw conflict(SUPPORT_MESSAGES.claimedByOther);
      throw error;
    }
  },

  /** `PATCH /support-panel/{id}/assign` {assigneeId}: hands the request to a staff member. */
  async supportAssign(ctx) {
    return ctx.records.update(SUPPORT_REQUESTS, String(ctx.record!.id), { assigneeId: ctx.body.assigneeId });
  },

  /** `POST /support-panel/{id}/rate` {rating}: once, by the asker, after the resolution. */
  async supportRate(ctx) {
    const request = ctx.record!;
    if (String(request.askerId) !== String(me(ctx).id)) throw forbidden(SUPPORT_MESSAGES.notAsker);
    if (request.rating !== null && request.rating !== undefined) throw conflict(SUPPORT_MESSAGES.ratedAlready);
    if (request.status !== 'RESOLVED') throw conflict(SUPPORT_MESSAGES.notResolved);
    try {
      return await ctx.records.update(SUPPORT_REQUESTS, String(request.id), { rating: ctx.body.rating }, { ifMatch: Number(request.version) });
    } catch (error) {
      if ((error as { status?: number }).status === 412) throw conflict(SUPPORT_MESSAGES.ratedAlready);
      throw error;
    }
  },

  /** `GET /support-team/online`: the team members whose account has a visible page open now. */
  async supportTeamOnline(ctx) {
    const members = await ctx.db.selectFrom(SUPPORT_TEAM).select(['id', 'userId']).execute();
    const realtime = ctx.request.server.realtime;
    const online: string[] = [];
    for (const m of members) if (m.userId && realtime && (await realtime.isOnline(String(m.userId)))) online.push(String(m.id));
    return { online };
  },

  /**
   * `POST /api/chat/group` {name, userId}: a conversation with a representative (`userId`, a team
   * member's account); the caller's existing one with that person is answered again.
   */
  async chatStart(ctx) {
    const userId = String(me(ctx).id);
    const member = await ctx.db.selectFrom(SUPPORT_TEAM).select(['id']).where('userId', '=', ctx.body.userId).executeTakeFirst();
    if (!member) throw badRequest(SUPPORT_MESSAGES.notRepresentative, { userId: [SUPPORT_MESSAGES.notRepresentative] });
    const existing = await ctx.db.selectFrom(CHAT_GROUPS).selectAll().where('starterId', '=', userId).where('userId', '=', ctx.body.userId).executeTakeFirst();
    const chat = existing ?? (await ctx.records.create(CHAT_GROUPS, { ...ctx.body, starterId: userId }));
    ctx.reply.status(existing ? 200 : 201);
    return { ...chat, redirectUrl: chatPage(String(member.id), String(chat.id)) };
  },

  /** `GET /api/chat/group/{id}/messages`. */
  async chatMessages(ctx) {
    const chat = ctx.record!;
    const user = me(ctx);
    if (user.role !== 'admin' && !chatParticipants(chat).includes(String(user.id))) throw forbidden(SUPPORT_MESSAGES.notInChat);
    return messagesOf(ctx, 'chat', String(chat.id), chatThread(String(chat.id)));
  },

  /** `POST /api/chat/group/{id}/messages` {content}: sent live to both sides. */
  async chatSend(ctx) {
    const chat = ctx.record!;
    const user = me(ctx);
    if (!chatParticipants(chat).includes(String(user.id))) throw forbidden(SUPPORT_MESSAGES.notInChat);
    const reply = await writeMessage(ctx, 'chat', String(chat.id), String(ctx.body.content), String(chat.userId) === String(user.id));
    const message = wireOf(reply, chatThread(String(chat.id)));
    emitTo(ctx, chatParticipants(chat), SUPPORT_EVENTS.message, message);
    ctx.reply.status(201);
    return message;
  },

  /** `POST /api/chat/group/{id}/typing` {typing}. */
  async chatTyping(ctx) {
    const chat = ctx.record!;
    const user = me(ctx);
    if (!chatParticipants(chat).includes(String(user.id))) throw forbidden(SUPPORT_MESSAGES.notInChat);
    const wire: TypingWire = { thread: chatThread(String(chat.id)), userId: String(user.id), name: String(user.name ?? ''), typing: ctx.body.typing === true };
    emitTo(ctx, chatParticipants(chat).filter((id) => id !== String(user.id)), SUPPORT_EVENTS.typing, wire);
    return { ok: true };
  },
} satisfies Handlers;
