/**
 * The support requests' hooks and their SLA job (resources/support-requests.ts): client-safe (manifests
 * load in the browser), so nothing here imports server code; reads and writes come in the context.
 *
 * - `beforeChange` on create: the product must exist; the request records what it is about as its
 *   `about` sub-record (the seller reaches it through that relation), the urgency's response targets as
 *   due times and the urgency's rank (its resolve target, in minutes: the queue's order).
 * - `beforeChange` on update: an assignee must be support staff or an admin.
 * - `breachSweep`: every minute, each open request past a due time is marked breached once, and its
 *   assignee (or, unassigned, every support account) is notified.
 */
import type { BeforeChangeArgs } from '../../manifest/hooks.ts';
import { HookRefusal } from '../../manifest/hooks.ts';
import type { JobContext } from '../../manifest/jobs.ts';
import { DEFAULT_FIRST_REPLY_MINUTES, DEFAULT_RESOLVE_MINUTES } from '../../../resources/support.ts';
import { SUPPORT_MESSAGES, SUPPORT_REQUESTS, isStaffRole, slaOf } from './contract.ts';

const minutesAfter = (from: Date, minutes: number) => new Date(from.getTime() + minutes * 60_000).toISOString();

export async function supportRequestBeforeChange(args: BeforeChangeArgs) {
  const { data, operation, find } = args;
  if (operation === 'create') {
    const product = await find('products', 'id', data.product);
    if (!product) throw new HookRefusal(SUPPORT_MESSAGES.unknownProduct, { product: [SUPPORT_MESSAGES.unknownProduct] });
    const urgency = data.urgency ? await find('supportUrgencies', 'id', data.urgency) : undefined;
    const firstReply = Number(urgency?.firstReplyMinutes ?? DEFAULT_FIRST_REPLY_MINUTES);
    const resolve = Number(urgency?.resolveMinutes ?? DEFAULT_RESOLVE_MINUTES);
    const now = new Date();
    return {
      ...data,
      about: [{ product: data.product }],
      urgencyRank: resolve,
      firstReplyDueAt: minutesAfter(now, firstReply),
      resolveDueAt: minutesAfter(now, resolve),
    };
  }
  if (data.assigneeId) {
    const assignee = await find('users', 'id', data.assigneeId);
    if (!assignee || !isStaffRole(assignee.role)) throw new HookRefusal(SUPPORT_MESSAGES.notStaff, { assigneeId: [SUPPORT_MESSAGES.notStaff] });
  }
  return data;
}

/** The SLA sweep: marks each breach once and tells the staff who should act. */
export async function breachSweep({ db, records, now }: JobContext) {
  const open = await db
    .selectFrom(SUPPORT_REQUESTS)
    .selectAll()
    .where('status', '!=', 'RESOLVED')
    .where('breachedAt', 'is', null)
    .where((eb) => eb.or([eb('resolveDueAt', '<', now.toISOString()), eb.and([eb('firstRepliedAt', 'is', null), eb('firstReplyDueAt', '<', now.toISOString())])]))
    .execute();
  if (!open.length) return;
  const staff = await db.selectFrom('users').select('id').where('role', '=', 'support').execute();
  for (const request of open) {
    const sla = slaOf(request, now);
    await records.update(SUPPORT_REQUESTS, String(request.id), { breachedAt: now.toISOString() });
    const to = request.assigneeId ? [String(request.assigneeId)] : staff.map((s) => String(s.id));
    for (const userId of to)
      await records.create('notifications', {
        title: SUPPORT_MESSAGES.breachTitle,
        message: SUPPORT_MESSAGES.breachMessage(String(request.content), sla.missed),
        type: 'warning',
        userId,
        category: 'support',
        isRead: false,
        metadata: JSON.stringify({ resource: SUPPORT_REQUESTS, recordId: String(request.id) }),
      });
  }
}
