/**
 * `POST /notifications/send` (resources/notifications.ts `sendNotificationModal`, admins): an admin's
 * message to one person or to everyone of a role. The dialog's strict body rule has judged each field;
 * here, that exactly one audience is named and that it names somebody. To one person through `notify`;
 * to a role as one notification to the role (`broadcast`: stored and audited once, each person's read
 * state apart), delivered live to the role's sockets. Answers how many people it reaches.
 */
import type { Handler } from '../../../server/routes/handlers.ts';
import { actorOf } from '../../../server/records/audit.ts';
import { ACCOUNTS } from '../../../server/records/ownership.ts';
import { badRequest } from '../../../server/errors.ts';
import type { NotificationWire } from '../contract.ts';
import { AUDIENCE_MESSAGE, MESSAGE_CATEGORY } from '../../../../resources/notifications.ts';
import { broadcast, notify } from './notify.ts';

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
  const metadata = { category: MESSAGE_CATEGORY };
  const actor = actorOf(request);
  let sent: number;
  if (userId) {
    const account = await db.selectFrom(ACCOUNTS).select('id').where('id', '=', userId).executeTakeFirst();
    if (!account) throw badRequest(NO_SUCH_USER, { userId: [NO_SUCH_USER] });
    sent = (await notify(request.server, { userId, title, message, type, metadata }, { db, registry, actor })).length;
  } else {
    // Every account of the role that may still sign in (a disabled one is nobody's audience): counted,
    // and told by one notification to the role (audience.ts), whatever their number.
    const { n } = await db
      .selectFrom(ACCOUNTS)
      .select((eb) => eb.fn.countAll().as('n'))
      .where('role', '=', toRole!)
      .where((eb) => eb.or([eb('status', 'is', null), eb('status', '!=', 'DISABLED')]))
      .executeTakeFirstOrThrow();
    sent = Number(n);
    if (!sent) throw badRequest(NOBODY_OF_ROLE, { toRole: [NOBODY_OF_ROLE] });
    await broadcast(request.server, { toRole: toRole!, title, message, type, metadata }, { db, registry, actor });
  }
  reply.code(201);
  return { sent };
};
