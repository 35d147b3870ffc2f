/**
 * Documents' handlers (resources/account-documents.ts).
 *
 * `resubmitDocument` (`PATCH …/documents/{id}/resubmit`): the owner sends a document again; whatever it
 * was, it waits for review again (PENDING, the old review note cleared).
 *
 * The reads of one person's documents (resources/account-documents.ts), named by the person:
 * `GET /agents/documents/{email}` (an agent, by its email) and `GET /dealers/documents/id/{id}` (a
 * dealer, by its id). The person must be within the caller's reach (an agent reaches only itself),
 * else 404 as if there were none; the documents answered are narrowed by the documents' own owner rule
 * too. Newest first, at most MAX_DOCUMENTS.
 */
import type { FastifyRequest } from 'fastify';
import type { Registry, ResourceDef } from '../../manifest/index.ts';
import { findReachable, reachableRow, reachOf, whereReachable } from '../records/ownership.ts';
import { toRecord, type Db, type Row } from '../db/repository.ts';
import { notFound } from '../errors.ts';
import type { Handler } from '../routes/handlers.ts';

/** The most documents one person's read answers (people file a handful). */
export const MAX_DOCUMENTS = 100;

async function documentsOf(db: Db, registry: Registry, documents: ResourceDef, request: FastifyRequest, person: Row): Promise<Row[]> {
  if (typeof person.userId !== 'string') return [];
  const query = db.selectFrom(documents.name).selectAll(documents.name).where(`${documents.name}.userId`, '=', person.userId);
  const rows = await whereReachable(registry, documents, reachOf(documents, request.user), query)
    .orderBy(`${documents.name}.id`, 'desc')
    .limit(MAX_DOCUMENTS)
    .execute();
  return rows.map((row) => toRecord(documents, row)!);
}

export const documentsOfAgent: Handler = async ({ db, registry, resource: agents, request, params }) => {
  const email = String(params.email ?? '').trim().toLowerCase();
  const agent = email ? await findReachable(db, registry, agents, reachOf(agents, request.user), 'email', email) : undefined;
  if (!agent) throw notFound(`${agents.label} not found.`);
  return documentsOf(db, registry, registry.resource('agentDocuments'), request, agent);
};

export const documentsOfDealer: Handler = async ({ db, registry, resource: dealers, request, params, record }) => {
  const dealer = record ?? (await reachableRow(db, registry, dealers, request.user, params.id));
  return documentsOf(db, registry, registry.resource('dealerDocuments'), request, dealer);
};

export const resubmitDocument: Handler = async ({ records, resource: documents, params, body, record, ifMatch }) => {
  // Within reach (the route loaded it): the owner's own, else 404.
  const current = record ?? (await records.reachable(documents, params.id));
  return records.update(documents, String(current.id), { ...body, status: 'PENDING', note: null }, { ifMatch });
};
