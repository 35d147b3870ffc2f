/**
 * The generic route of every declared state transition (src/manifest/states.ts):
 * `POST <the resource's list path>/{id}/transitions/<name>`, for the transition's roles, its body the
 * transition's required fields only (the strict rule `transitionForm` makes, the same the client's form
 * uses). It updates the record through the records service, which checks the transition (409 when it
 * does not leave from the record's state, or a guard refuses) and audits it; the transition's `notify`
 * is sent after the commit. Answers the updated record.
 */
import type { FastifyInstance } from 'fastify';
import { bodySchema, parseCall, routerPath, transitionForm, transitionsOf, urlOf, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { guardFor } from '../auth/guard.ts';
import type { Db } from '../db/types.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { StaleVersion } from '../records/writes.ts';
import { etagOf, ifMatchOf } from './versions.ts';
import { validBody } from './handlers.ts';
import { recordsOf } from './records-of.ts';
import { declaredNotices, deliverAfterCommit, notificationsOf } from '../../features/notifications/server/declared.ts';

export function registerTransitions(app: FastifyInstance, db: Db, registry: Registry, r: ResourceDef, cache: ReadCache) {
  for (const ft of transitionsOf(r)) {
    const { field, transition: t } = ft;
    const { resource, dialog } = transitionForm(r, ft);
    const schema = bodySchema(resource, dialog);
    app.route({
      method: 'POST',
      url: routerPath(urlOf(parseCall(dialog.call).path)),
      preHandler: guardFor(r, { dialog }),
      handler: async (request, reply) => {
        const { id } = request.params as { id: string };
        let result: Record<string, unknown>;
        // Its notifications are stored in the update's own transaction, told once it committed.
        const notices = t.notify ? declaredNotices(request, db, registry, r, notificationsOf(t)) : undefined;
        try {
          // The body is judged once the record is found: out of reach is a 404, not a 400 telling it exists.
          result = await recordsOf(request, db, registry).update(r, id, () => ({ ...validBody(schema, request.body), ...t.set, [field.name]: t.to }), {
            ifMatch: ifMatchOf(request),
            transition: t.name,
            within: notices?.store,
            labelled: notices?.labelled,
          });
        } catch (error) {
          if (error instanceof StaleVersion)
            return reply.code(412).header('ETag', etagOf(error.current.version)).send({ message: error.message, current: error.current });
          throw error;
        } finally {
          cache.invalidate(r.name);
        }
        if (notices) await deliverAfterCommit(request, notices);
        if (result.version !== undefined) reply.header('ETag', etagOf(result.version));
        return result;
      },
    });
  }
}
