/**
 * `POST /notifications/send` (resources/notifications.ts `sendNotificationModal`, admins): an admin's
 * message to one person or to everyone of a role. The dialog's strict body rule has judged each field;
 * here, that exactly one audience is named and that it names somebody. Sent through `notify`, so each is
 * stored (and audited) in one transaction and, once committed, delivered live to its person's sockets.
 */
import type { Handler } from '../../../server/routes/handlers.ts';
import { actorOf } from '../../../server/records/audit.ts';
import { ACCOUNTS } from '../../../server/records/ownership.ts';
import { badRequest } from '../../../server/errors.ts';
import type { NotificationWire } from '../contract.ts';
import { AUDIENCE_MESSAGE, MESSAGE_CATEGORY } from '../../../../resources/notifications.ts';
import { notify } from './notify.ts';

/** Told when the person named has no account (deleted since the form opened). */
const NO_SUCH_USER = 'User not found.';
/** Told when no active account holds the role named. */
const NOBODY_OF_ROLE = 'Nobody has this role.';

interface SendBody {
  userId?: string;
  toRole?: string;
  title: string;
  message: string;
  type?: NotificationWire['type'];
}

export const sendNotificationTo: Handler = async ({ db, registry, request, reply, body }) => {
  const { userId, toRole, title, message, type = 'info' } = body as unknown as SendBody;
  if (!userId === !toRole) throw badRequest(AUDIENCE_MESSAGE, { userId: [AUDIENCE_MESSAGE], toRole: [AUDIENCE_MESSAGE] });
  let recipients: string[];
  if (userId) {
    const account = await db.selectFrom(ACCOUNTS).select('id').where('id', '=', userId).executeTakeFirst();
    if (!account) throw badRequest(NO_SUCH_USER, { userId: [NO_SUCH_USER] });
    recipients = [userId];
  } else {
    // Every account of the role that may still sign in (a disabled one is nobody's audience).
    const accounts = await db
      .selectFrom(ACCOUNTS)
      .select('id')
      .where('role', '=', toRole!)
      .where((eb) => eb.or([eb('status', 'is', null), eb('status', '!=', 'DISABLED')]))
      .execute();
    recipients = accounts.map((a) => String(a.id));
    if (!recipients.length) throw badRequest(NOBODY_OF_ROLE, { toRole: [NOBODY_OF_ROLE] });
  }
  const sent = await notify(
    request.server,
    recipients.map((id) => ({ userId: id, title, message, type, metadata: { category: MESSAGE_CATEGORY }, ...(toRole ? { toRole } : {}) })),
    { db, registry, actor: actorOf(request) },
  );
  reply.code(201);
  return { sent: sent.length };
};
