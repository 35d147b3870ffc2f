/**
 * Ownership (the manifest's `owner`, see OwnerDef in src/manifest/types.ts): which rows of a resource
 * the signed-in user reaches, as a condition every read and write of the generic layers adds to its
 * query. A row out of reach is answered as one that does not exist (404), so ids cannot be probed.
 *
 * The team of a dealer is read from `users` (`users.<team> = the dealer's id`) inside the query, so a
 * seller moved to another dealer is out of the first dealer's reach at once, with no copy to keep in step.
 */
import { sql, type ExpressionBuilder, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { labelOf, type FieldDef, type OwnerDef, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { badRequest, notFound } from '../errors.ts';
import type { Db, Row } from './repository.ts';
import { recordQuery, recordSelect } from './compiled-queries.ts';
import { isBlobRefusal, JSON_COLUMN, recordJsonOf } from './json-records.ts';
import { VERSION } from './tables.ts';
import { readInTurn } from './group-commit.ts';
import { takeFirst } from './taken-rows.ts';
import { batchesRecords, recordInTurn } from './record-batches.ts';

/** The accounts table: owners are its ids, and teams are read from it. */
export const ACCOUNTS = 'users';

/**
 * How far one user reaches into one resource:
 * - `all`: every row (no owner declared, or a role declared `'all'`);
 * - `none`: no row (a role the owner declaration does not name, or no user);
 * - `own` / `team`: the rows owned by `userId` (and, for a team, by the accounts whose `team` field
 *   names `userId`). `key` tells cached answers of different reaches apart.
 */
export type Reach =
  | { kind: 'all'; key: '' }
  | { kind: 'none'; key: 'none' }
  | { kind: 'own'; userId: string; key: string }
  | { kind: 'team'; userId: string; team: string; key: string };

const ALL: Reach = { kind: 'all', key: '' };
const NONE: Reach = { kind: 'none', key: 'none' };

/** The reach of `user` (a stored users row, or undefined) into `r`. */
export function reachOf(r: ResourceDef, user: Row | undefined): Reach {
  const owner = r.owner;
  if (!owner) return ALL;
  if (!user || typeof user.id !== 'string') return NONE;
  const declared = owner.roles[user.role as keyof OwnerDef['roles']];
  if (declared === 'all') return ALL;
  if (declared === 'own') return { kind: 'own', userId: user.id, key: `own:${user.id}` };
  if (declared && typeof declared === 'object') return { kind: 'team', userId: user.id, team: declared.team, key: `team:${declared.team}:${user.id}` };
  return NONE;
}

/** The tables a reach reads besides the resource's own: a cached answer is stale when they change. */
export function reachTables(registry: Registry, r: ResourceDef, reach: Reach): string[] {
  if (reach.kind === 'all' || reach.kind === 'none' || !r.owner) return [];
  const via = r.owner.via ? [targetOf(registry, r, r.owner.via).name] : [];
  return reach.kind === 'team' ? [...via, ACCOUNTS] : via;
}

function targetOf(registry: Registry, r: ResourceDef, via: string): ResourceDef {
  const f = r.fields.find((x) => x.name === via);
  return registry.resource(f!.reference!);
}

/** The ids of the accounts whose `field` is `value` (a dealer's team: `dealerId` = the dealer's id). */
export function accountsWhere(eb: { selectFrom(table: string): SelectQueryBuilder<any, any, any> }, field: string, value: unknown) {
  return eb.selectFrom(ACCOUNTS).select(`${ACCOUNTS}.id`).where(`${ACCOUNTS}.${field}`, '=', value);
}

/** The condition "the value of `column` is an owner within reach", for an `own` or `team` reach. */
function ownedBy(eb: ExpressionBuilder<any, any>, column: string, reach: Extract<Reach, { kind: 'own' | 'team' }>) {
  if (reach.kind === 'own') return eb(column, '=', reach.userId);
  return eb.or([
    eb(column, '=', reach.userId),
    eb(column, 'in', accountsWhere(eb, reach.team, reach.userId)),
  ]);
}

/**
 * Narrows a query of `r`'s table (selected from `r.name`, unaliased) to the rows within reach. Through
 * `via`, a row is within reach when the record it points at is owned within reach.
 */
export function whereReachable<QB extends SelectQueryBuilder<any, any, any>>(
  registry: Registry,
  r: ResourceDef,
  reach: Reach,
  query: QB,
): QB {
  if (reach.kind === 'all') return query;
  if (reach.kind === 'none') return query.where(sql<boolean>`1 = 0`) as QB;
  const owner = r.owner!;
  // One's own rows without a callback: a `where` given one makes an expression builder per request.
  if (!owner.via && reach.kind === 'own') return query.where(`${r.name}.${owner.field}`, '=', reach.userId) as QB;
  if (!owner.via) return query.where((eb) => ownedBy(eb, `${r.name}.${owner.field}`, reach)) as QB;
  const viaField = r.fields.find((f) => f.name === owner.via)!;
  const target = targetOf(registry, r, owner.via);
  const held = viaField.referenceBy ?? 'id';
  return query.where((eb) =>
    eb(`${r.name}.${owner.via}`, 'in', eb.selectFrom(target.name).select(`${target.name}.${held}`).where((inner) => ownedBy(inner, `${target.name}.${owner.field}`, reach))),
  ) as QB;
}

/** One row by `field`, if it exists and is within reach. */
export async function findReachable(db: Db, registry: Registry, r: ResourceDef, reach: Reach, field: string, value: unknown): Promise<Row | undefined> {
  // Every row reachable: the query is the same for every value, compiled once (compiled-queries.ts).
  // Read with the others of this turn (group-commit.ts `readInTurn`).
  const query =
    reach.kind === 'all'
      ? recordQuery(db, r.name, field, value)
      : whereReachable(registry, r, reach, db.selectFrom(r.name).selectAll(r.name).where(`${r.name}.${field}`, '=', value)).compile();
  return takeFirst(await readInTurn<Row>(db, query));
}

/** A record as the database writes it (json-records.ts) and its version, the ETag. */
export interface WrittenRecord {
  record: string;
  version: unknown;
}

/**
 * `findReachable`, the record as its JSON text written by the database (json-records.ts) with its
 * version: null when there is none within reach, undefined where only `findReachable` answers (a
 * table too wide, a SQLite row holding a BLOB). The row is never made into an object (`toRecord`
 * copies it and walks its fields) nor that object into text again.
 */
export async function findReachableJson(db: Db, registry: Registry, r: ResourceDef, reach: Reach, field: string, value: unknown): Promise<WrittenRecord | null | undefined> {
  const asJson = await recordJsonOf(db, r);
  if (!asJson) return undefined;
  try {
    // Every row reachable, on PostgreSQL: in one statement with the others asked for this turn (record-batches.ts).
    const row =
      reach.kind === 'all' && batchesRecords(db)
        ? await recordInTurn(db, r.name, field, value, asJson)
        : takeFirst(await readInTurn<Row>(db, recordJsonQuery(db, registry, r, reach, field, value, asJson)));
    return row ? { record: row[JSON_COLUMN] as string, version: row[VERSION] } : null;
  } catch (error) {
    if (isBlobRefusal(error)) return undefined;
    throw error;
  }
}

/** The query of a record's JSON text and version by `field` within `reach`: compiled once where every row is reachable. */
const recordJsonQuery = (db: Db, registry: Registry, r: ResourceDef, reach: Reach, field: string, value: unknown, asJson: RawBuilder<string>) =>
  reach.kind === 'all'
    ? recordQuery(db, r.name, field, value, asJson)
    : whereReachable(registry, r, reach, recordSelect(db, r.name, asJson).where(`${r.name}.${field}`, '=', value)).compile();

/**
 * The row with `id` as `user` may see it, or a 404 (`<Label> not found.`) when it does not exist or is
 * out of the user's reach. For handlers that act on one record (`PATCH /products/{id}/commission`).
 */
export async function reachableRow(db: Db, registry: Registry, r: ResourceDef, user: Row | undefined, id: unknown): Promise<Row> {
  const row = typeof id === 'string' ? await findReachable(db, registry, r, reachOf(r, user), 'id', id) : undefined;
  if (!row) throw notFound(`${r.label} not found.`);
  return row;
}

const fieldOf = (r: ResourceDef, name: string): FieldDef | undefined => r.fields.find((f) => f.name === name);

/**
 * What a write may say about ownership, checked before it is carried out (input already validated):
 * - a role reaching only its own rows writes as the owner: on create the owner is set to it, and an
 *   owner it names that is not itself is refused;
 * - a team role may name itself or one of its team (else refused), and is the owner when it names none;
 * - through `via`, the record pointed at must be within reach (else refused as not existing);
 * - `all` names anyone (the reference's own check finds whether the account exists).
 * Answers the input to write (with the owner filled in where the role implies it).
 */
export async function ownedInput(
  db: Db,
  registry: Registry,
  r: ResourceDef,
  user: Row | undefined,
  input: Row,
  creating: boolean,
): Promise<Row> {
  const owner = r.owner;
  if (!owner) return input;
  const reach = reachOf(r, user);
  if (reach.kind === 'all') return input;
  if (reach.kind === 'none') throw notFound(`${r.label} not found.`);
  if (owner.via) {
    const value = input[owner.via];
    if (value === undefined || value === null || value === '') return input;
    const target = targetOf(registry, r, owner.via);
    const held = fieldOf(r, owner.via)!.referenceBy ?? 'id';
    const found = await db
      .selectFrom(target.name)
      .select(`${target.name}.id`)
      .where(`${target.name}.${held}`, '=', value)
      .where((eb) => ownedBy(eb, `${target.name}.${owner.field}`, reach))
      .executeTakeFirst();
    if (!found) throw badRequest(`${labelOf(fieldOf(r, owner.via)!)} does not exist.`, { [owner.via]: [`${labelOf(fieldOf(r, owner.via)!)} does not exist.`] });
    return input;
  }
  const named = input[owner.field];
  const label = labelOf(fieldOf(r, owner.field)!);
  if (named === undefined || named === null || named === '') return creating ? { ...input, [owner.field]: reach.userId } : input;
  if (named === reach.userId) return input;
  if (reach.kind === 'team') {
    const member = await accountsWhere(db, reach.team, reach.userId).where(`${ACCOUNTS}.id`, '=', named).executeTakeFirst();
    if (member) return input;
  }
  const message = reach.kind === 'team' ? `${label} must be you or one of your team.` : `${label} must be you.`;
  throw badRequest(message, { [owner.field]: [message] });
}
