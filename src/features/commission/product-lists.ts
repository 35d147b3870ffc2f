/**
 * The product lists of spec §7 that a generic read cannot scope: `GET /products/role/{role}` (optional
 * `dealerId`), `GET /products/sellers` and `GET /products/agents`. Each speaks the list dialect of every
 * other list (`sort`, `range`, `filter`, `Content-Range`) and answers only rows within the caller's reach
 * (the manifest's `owner`), except the agents' catalogue, which is every approved product: what agents
 * promote, and the only products they see.
 */
import type { SelectQueryBuilder } from 'kysely';
import { ROLES, type ResourceDef } from '../../manifest/index.ts';
import type { HandlerContext } from '../../server/routes/handlers.ts';
import { ACCOUNTS } from '../../server/records/ownership.ts';
import { badRequest } from '../../server/errors.ts';

type Query = SelectQueryBuilder<any, any, any>;

/** A page of `r`'s rows the extra condition keeps, answered with its `Content-Range`. */
async function answerList(ctx: HandlerContext, keep: (query: Query) => Query, withinReach = true) {
  const { records, resource: r, reply, query } = ctx;
  const { rows, total, start } = await records.list(r, query, keep, withinReach);
  const last = rows.length ? start + rows.length - 1 : start;
  reply.header('Content-Range', `${r.name} ${start}-${last}/${total}`);
  return rows;
}

/** The condition "the product's owner is an account of `role` (working under `dealerId`, when given)". */
function ownedByRole(r: ResourceDef, role: string, dealerId?: string) {
  return (q: Query) =>
    q.where(`${r.name}.sellerId`, 'in', (eb: any) => {
      let accounts = eb.selectFrom(ACCOUNTS).select(`${ACCOUNTS}.id`).where(`${ACCOUNTS}.role`, '=', role);
      if (dealerId !== undefined) accounts = accounts.where(`${ACCOUNTS}.dealerId`, '=', dealerId);
      return accounts;
    }) as Query;
}

/** An optional text query parameter, refused when it is anything else (repeated, too long). */
function optionalParam(value: unknown, name: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || value.length > 64) throw badRequest(`'${name}' must be an id.`);
  return value;
}

/**
 * `GET /products/role/{role}`: the products whose seller's account has the role; `?dealerId=` (the
 * dealer's account id, as `users.dealerId` holds it) keeps those of the accounts working under it.
 */
export async function productsByRole(ctx: HandlerContext) {
  const role = ctx.params.role;
  if (!(ROLES as readonly string[]).includes(role)) throw badRequest(`Role must be one of ${ROLES.join(', ')}.`);
  return answerList(ctx, ownedByRole(ctx.resource, role, optionalParam(ctx.query.dealerId, 'dealerId')));
}

/** `GET /products/sellers`: the products of seller accounts, within the caller's reach. */
export async function productsOfSellers(ctx: HandlerContext) {
  return answerList(ctx, ownedByRole(ctx.resource, 'seller', optionalParam(ctx.query.dealerId, 'dealerId')));
}

/** `GET /products/agents`: every product whose commission is approved (agents own no products). */
export async function productsForAgents(ctx: HandlerContext) {
  const r = ctx.resource;
  return answerList(ctx, (q) => q.where(`${r.name}.comissionStatus`, '=', 'APPROVED'), false);
}
