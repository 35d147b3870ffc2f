/**
 * What the admin's update of an account (`updateUser` in resources/people.ts, a generic update route)
 * needs beyond a plain update, attached to that route as it is registered:
 * - before: an admin cannot disable or demote itself (no admin could be left to undo it), and the
 *   dealer a seller or agent is put under must be a dealer's account;
 * - after: disabling an account ends its sessions at once (its next request answers 401).
 *
 * The generic layers have no "after update" hook (the records service now runs `afterChange` hooks); once they
 * do, the second half belongs there.
 */
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler, preSerializationAsyncHookHandler } from 'fastify';
import { parseCall, routerPath, urlOf, type Registry } from '../../manifest/index.ts';
import { badRequest, VALIDATION_FAILED } from '../errors.ts';
import type { Db } from '../db/types.ts';
import { endSessionsOf } from '../auth/sessions.ts';

/** The refusals of `checkAccountUpdate`. */
export const ACCOUNT_UPDATE_MESSAGES = {
  ownStatus: 'You cannot disable your own account.',
  ownRole: 'You cannot take the admin role from your own account.',
  notDealer: 'Dealer must be a dealer account.',
} as const;

type Body = Record<string, unknown> | undefined;

/** The before-half: throws a 400 for an update the admin may not make. */
async function checkAccountUpdate(db: Db, request: FastifyRequest) {
  const id = (request.params as { id?: string }).id;
  const body = (request.body ?? {}) as Body;
  if (!body || typeof body !== 'object') return; // the route's own validation answers it
  const errors: Record<string, string[]> = {};
  if (id && id === request.user?.id) {
    if (body.status === 'DISABLED') errors.status = [ACCOUNT_UPDATE_MESSAGES.ownStatus];
    if (typeof body.role === 'string' && body.role !== 'admin') errors.role = [ACCOUNT_UPDATE_MESSAGES.ownRole];
  }
  const dealerId = body.dealerId;
  if (typeof dealerId === 'string' && dealerId.trim()) {
    const dealer = await db.selectFrom('users').select('role').where('id', '=', dealerId.trim()).executeTakeFirst();
    // A dealer id that names no account is the reference check's to answer ('Dealer does not exist.').
    if (dealer && dealer.role !== 'dealer') errors.dealerId = [ACCOUNT_UPDATE_MESSAGES.notDealer];
  }
  if (Object.keys(errors).length) throw badRequest(VALIDATION_FAILED, errors);
}

const asArray = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/**
 * Attaches both halves to the route of the users resource's update dialog. Must run before the
 * manifest's routes are registered (registerAuth does, in app.ts).
 */
export function watchAccountUpdates(app: FastifyInstance, db: Db, registry: Registry) {
  const update = Object.values(registry.resource('users').dialogs).find((d) => d.kind === 'update');
  if (!update || !('call' in update)) return;
  const { method, path } = parseCall(update.call);
  const url = routerPath(urlOf(path));
  const before: preHandlerAsyncHookHandler = async (request) => checkAccountUpdate(db, request);
  const after: preSerializationAsyncHookHandler<unknown> = async (request, reply, payload) => {
    const answered = payload as { id?: unknown; status?: unknown } | null;
    if (reply.statusCode === 200 && answered?.status === 'DISABLED' && typeof answered.id === 'string') await endSessionsOf(db, answered.id);
    return payload;
  };
  app.addHook('onRoute', (route) => {
    const methods = asArray(route.method);
    if (route.url !== url || !methods.includes(method)) return;
    // After the route's own (the role guard): only an admin's request is looked at.
    route.preHandler = [...asArray(route.preHandler), before];
    route.preSerialization = [...asArray(route.preSerialization), after];
  });
}
