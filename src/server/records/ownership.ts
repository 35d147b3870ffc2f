/**
 * Ownership (the manifest's `access.owner`, see OwnerDef in src/manifest/types.ts): which rows of a resource
 * the signed-in user reaches, as a condition every read and write of the generic layers adds to its
 * query. A row out of reach is answered as one that does not exist (404), so ids cannot be probed.
 *
 * The team of a dealer is read from `users` (`users.<team> = the dealer's id`) inside the query, so a
 * seller moved to another dealer is out of the first dealer's reach at once, with no copy to keep in step.
 */
import { sql, type ExpressionBuilder, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { itemsTableOf, labelOf, reachOf, type FieldDef, type Reach, type Registry, type ResourceDef, type ThroughItems } from '../../manifest/index.ts';
import { badRequest, notFound } from '../errors.ts';
import type { Db, Row } from '../db/types.ts';
import { recordQuery, recordSelect } from '../db/compiled-queries.ts';
import { isBlobRefusal, JSON_COLUMN, recordJsonOf } from '../db/json-records.ts';
import { VERSION } from '../db/tables.ts';
import { batchesRecords, readInTurn, recordInTurn } from '../db/turn-reads.ts';
import { takeFirst } from '../db/taken-rows.ts';

/** The accounts table: owners are its ids, and teams are read from it. */
export const ACCOUNTS = 'users';

export { reachOf, type Reach };

/** The tables a reach reads besides the resource's own: a cached answer is stale when they change. */
export function reachTables(registry: Registry, r: ResourceDef, reach: Reach): string[] {
  if (reach.kind === 'all' || reach.kind === 'none' || !r.access.owner) return [];
  // The sub-records are written with their parent (its table's writes drop them); the owned records are not.
  if (reach.kind === 'through') return [throughTarget(registry, r, reach.through).name];
  if (reach.kind === 'party') return [];
  const via = r.access.owner.via ? [targetOf(registry, r, r.access.owner.via).name] : [];
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

/** The resource a `through` reach's items point at (`via`, a reference sub-field of the `items` field). */
function throughTarget(registry: Registry, r: ResourceDef, through: ThroughItems): ResourceDef {
  const items = r.fields.find((f) => f.name === through.items)!;
  const via = items.items!.fields.find((f) => f.name === through.via)!;
  return registry.resource(via.reference!);
}

/**
 * The condition "one of the row's sub-records points at a record the user owns", for a `through` reach:
 * `<r>.id in (select parentId from <r>_<items> where <via> in (select <held> from <target> where <field> = user))`.
 */
function heldThrough(eb: ExpressionBuilder<any, any>, registry: Registry, r: ResourceDef, reach: Extract<Reach, { kind: 'through' }>) {
  const { items, via, field } = reach.through;
  const itemsField = r.fields.find((f) => f.name === items)!;
  const child = itemsTableOf(r, itemsField);
  const target = throughTarget(registry, r, reach.through);
  const held = itemsField.items!.fields.find((f) => f.name === via)!.referenceBy ?? 'id';
  return eb(
    `${r.name}.id`,
    'in',
    eb
      .selectFrom(child)
      .select(`${child}.parentId`)
      .where(`${child}.${via}`, 'in', eb.selectFrom(target.name).select(`${target.name}.${held}`).where(`${target.name}.${field}`, '=', reach.userId)),
  );
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
  if (reach.kind === 'through') return query.where((eb) => heldThrough(eb, registry, r, reach)) as QB;
  if (reach.kind === 'party') return query.where(`${r.name}.${reach.field}`, '=', reach.userId) as QB;
  const owner = r.access.owner!;
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
  const owner = r.access.owner;
  if (!owner) return input;
  const reach = reachOf(r, user);
  if (reach.kind === 'all') return input;
  if (reach.kind === 'none') throw notFound(`${r.label} not found.`);
  // Reached through sub-records: the user may change what it is part of, never make one or move its owner.
  if (reach.kind === 'through') {
    if (creating) throw notFound(`${r.label} not found.`);
    if (owner.field in input) {
      const message = `${labelOf(fieldOf(r, owner.field)!)} cannot be changed.`;
      throw badRequest(message, { [owner.field]: [message] });
    }
    return input;
  }
  // A party to the records: the same, and the field that makes it one stays as it is.
  if (reach.kind === 'party') {
    if (creating) throw notFound(`${r.label} not found.`);
    for (const name of [owner.field, reach.field])
      if (name in input) {
        const message = `${labelOf(fieldOf(r, name)!)} cannot be changed.`;
        throw badRequest(message, { [name]: [message] });
      }
    return input;
  }
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
