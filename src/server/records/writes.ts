/**
 * Writing a resource's records: every write runs in one transaction that also checks what the
 * manifest implies (parents exist, slugs are unique, no children left behind on delete).
 */
import { labelOf, parentOf, referenceKey, storedFieldsOf, type FieldDef, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { firstFreeId } from '../../domain/names.ts';
import { sql } from 'kysely';
import { RECYCLE_BIN } from '../../../resources/system.ts';
import { slugify } from '../../domain/slug.ts';
import { hashPassword } from '../auth/password.ts';
import { badRequest, conflict, HttpError, notFound, VALIDATION_FAILED } from '../errors.ts';
import { audit, withDeferredAudit, type Actor } from './audit.ts';
import { newId } from '../db/id.ts';
import { likeBound, likeLiteral } from '../db/like.ts';
import { insertQuery } from '../db/compiled-queries.ts';
import { writeBehind } from '../db/write-behind.ts';
import { duplicateConflict, violatedField } from '../db/unique.ts';
import { countWhere, findBy, toRecord, toStoredBoolean, type Db, type Row } from '../db/repository.ts';
import { columnName, VERSION } from '../db/tables.ts';
import { getSetting } from '../settings/index.ts';
import { findReachable, type Reach } from './ownership.ts';
import { dropRecordJobs, scheduleRecordJobs } from './jobs/schedule.ts';
import { deleteItems, hasItems, withItemsOf } from '../db/line-items.ts';
import { writeItems } from './line-items.ts';
import { checkDependents } from './dependent.ts';
import { parentKey, parentOfField, readParents, readParentsAhead, type ParentWanted } from './parents.ts';
import { hasLabel } from '../db/labels.ts';

/**
 * A slug not yet taken: the spec's base-36 stamp, moved on while another record holds it.
 * `from` is the stamp to start at (now, or later on a retry: see `withSlugRetries`).
 * `unchecked`: a create's first attempt, whose slug (this millisecond's stamp) is almost never held, takes
 * it unread: the slug's unique index refuses the rare one that is, and `withSlugRetries` makes the write
 * again from a checked slug. One statement fewer on every create (issue 54, the create's round trips).
 */
async function freshSlug(trx: Db, r: ResourceDef, field: string, source: string, exceptId?: string, from = Date.now(), unchecked = false) {
  if (unchecked) return slugify(source, { now: from });
  for (let now = from; ; now++) {
    const slug = slugify(source, { now });
    const holder = await findBy(trx, r, field, slug);
    if (!holder || holder.id === exceptId) return slug;
  }
}

/**
 * A computed field's value on a write (`computed: { by, from }`): made from the record as it will be,
 * when it is created or one of its sources is sent; `undefined` when nothing it depends on changes.
 * A sent value other than the one made (or the one stored) is refused. A unique computed value taken by
 * another record gets the first free suffix ('R.D.M.BGD-2'); a stored one that still fits is kept.
 */
async function computedValue(trx: Db, r: ResourceDef, f: FieldDef, input: Row, current?: Row): Promise<{ value?: unknown; refused?: string }> {
  const compute = f.computed!.by;
  const touched = !current || f.computed!.from.some((from) => from in input);
  const made = touched ? compute({ ...current, ...input }) : undefined;
  const sent = input[f.name];
  const expected = made ?? current?.[f.name];
  if (sent !== undefined && sent !== null && sent !== '' && sent !== expected && sent !== current?.[f.name])
    return { refused: `${labelOf(f)} is made by the server from ${f.computed!.from.join(', ')}: it must be '${String(expected)}'.` };
  if (made === undefined || !f.unique) return { value: made };
  const base = String(made);
  const stored = current?.[f.name];
  if (typeof stored === 'string' && (stored === base || new RegExp(`^${escapeRegExp(base)}-\\d+$`).test(stored))) return { value: stored };
  // What other records hold of `base` and its suffixes, in one read.
  const held = await trx
    .selectFrom(r.name)
    .select(f.name)
    .where((eb) => eb.or([eb(f.name, '=', base), likeBound(trx, sql.ref(f.name), `${likeLiteral(base)}-%`)]))
    .where('id', '!=', String(current?.id ?? ''))
    .execute();
  return { value: firstFreeId(base, held.map((row) => String(row[f.name]))) };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Runs `work` in a transaction: a new one, or the caller's when `db` already is one (a handler that
 * writes an agent and its account commits both or neither, each through every rule of these writes).
 */
export function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  // Its audit entries, the write's and what it goes on to do (its notifications), in one statement at its end.
  return db.isTransaction ? work(db) : db.transaction().execute((trx) => withDeferredAudit(trx, () => work(trx)));
}

/** What a write knows of the request beyond its body. */
export interface WriteContext {
  /** The root URL of the host the request came to (`http://shop.example/`), for `whenEmpty: 'hostRoot'`. */
  hostRoot?: string;
  /** Who writes: kept in the audit entry the write appends. */
  actor?: Actor;
  /**
   * For an update: the version the writer last saw (`If-Match`). When the record has moved on since,
   * nothing is written and the update fails with a `StaleVersion` (412) carrying the current record.
   */
  ifMatch?: number;
  /** The writer's reach (ownership.ts): an update of a row out of it fails as not found. */
  reach?: Reach;
  /** An update's audit action when it is more than an update (a declared state's `transition:<name>`). */
  action?: string;
  /**
   * Reference fields whose records' titles the write reads with its parents (parents.ts), for what it
   * goes on to say in its transaction: the declared notifications naming them (declared.ts `labelled`).
   */
  labelled?: readonly string[];
}

/**
 * What the records service (service.ts) runs inside a create's or update's transaction around the
 * write itself: ownership and the resource's `beforeChange` before, `afterChange` after.
 */
export interface WriteSteps {
  /** Answers the input to write; `current` is the stored row on update. */
  before?: (trx: Db, input: Row, current?: Row) => Promise<Row>;
  /** Runs after the row was written (`record` as answered, `current` the stored row before an update). */
  after?: (trx: Db, record: Row, current?: Row) => Promise<void>;
  /** For an update: the record's row, already read in this transaction within the writer's reach. */
  current?: Row;
}

const nobody: Actor = { id: null, email: null, role: null };

/** An update sent with a version the record no longer has: answered 412 with the record as it is now. */
export class StaleVersion extends HttpError {
  constructor(
    readonly current: Row,
    resource: ResourceDef,
  ) {
    super(412, `This ${resource.label.toLowerCase()} was changed by someone else since you opened it.`);
  }
}

/** A resource's reference fields and dependent fields with their parents, worked out once (every write asks). */
const referencesOf = (() => {
  const known = new WeakMap<ResourceDef, { references: FieldDef[]; dependents: { f: FieldDef; parent: FieldDef }[] }>();
  return (r: ResourceDef) => {
    let found = known.get(r);
    if (!found) {
      found = {
        references: storedFieldsOf(r).filter((f) => f.kind === 'reference' && !f.computed),
        dependents: r.fields.flatMap((f) => {
          const parent = parentOf(f, r.fields);
          return parent ? [{ f, parent }] : [];
        }),
      };
      known.set(r, found);
    }
    return found;
  };
})();

/**
 * The parents a write's checks will look up: each reference the input sets (does it exist?), and each
 * dependent reference as the record will hold it (is it under its parent? `checkDependents`).
 */
function parentsWanted(registry: Registry, r: ResourceDef, input: Row, current: Row | undefined, labelled: readonly string[] = []): ParentWanted[] {
  const wanted: ParentWanted[] = [];
  const { references, dependents } = referencesOf(r);
  for (const f of references) {
    // Its title, where the write will name the record it points at (`WriteContext.labelled`).
    const titled = labelled.includes(f.name) && hasLabel(registry, f) ? [registry.resource(f.reference!).title] : [];
    const key = f.name in input ? input[f.name] : titled.length ? current?.[f.name] : undefined;
    if (!key) continue;
    // A reference the write sets is checked to exist; one it keeps is read only for its title.
    if (f.name in input || titled.length) wanted.push({ ...parentOfField(f, key), columns: titled });
  }
  for (const { f, parent } of dependents) {
    if (current && !(f.name in input) && !(parent.name in input)) continue;
    const key = referenceKey(f.name in input ? input[f.name] : current?.[f.name]);
    if (key !== undefined) wanted.push({ ...parentOfField(f, key), columns: [f.dependsOn!.via] });
  }
  return wanted;
}

/**
 * Starts reading the parents `input` references (a create's, in `trx`, a transaction of its own that has
 * written nothing yet), by `db` outside it, so that they go out with the lookups of the steps before the
 * write (parents.ts `readParentsAhead`); `toColumns` reads whatever the steps changed.
 */
export function readParentsOf(db: Db, trx: Db, registry: Registry, r: ResourceDef, input: Row, labelled?: readonly string[]): void {
  readParentsAhead(db, trx, registry, parentsWanted(registry, r, input, undefined, labelled));
}

/**
 * Turns validated input into column values: hashes secrets, fills slugs and empty host-root links,
 * stores booleans as 0/1, checks parents (by the field a reference holds).
 */
async function toColumns(
  trx: Db,
  registry: Registry,
  r: ResourceDef,
  input: Row,
  current?: Row,
  context: WriteContext = {},
  slugFrom?: number,
  /** A create's first attempt that `withSlugRetries` may make again: its generated slugs go unread (`freshSlug`). */
  slugsUnchecked = false,
): Promise<Row> {
  const values: Row = {};
  const errors: Record<string, string[]> = {};
  const generated = new Set<string>();
  // Every parent the checks below look up, read in one statement (parents.ts).
  const parents = await readParents(trx, registry, parentsWanted(registry, r, input, current, context.labelled));
  // `items` fields have no column: `writeItems` (line-items.ts) writes them after the row.
  for (const f of storedFieldsOf(r)) {
    let given = input[f.name];
    if (f.whenEmpty === 'hostRoot' && context.hostRoot) {
      // Create: sent empty or not sent. Update: only when sent empty (not sending it keeps it).
      const empty = given === undefined || given === null || (typeof given === 'string' && given.trim() === '');
      if (empty && (current ? f.name in input : true)) {
        input = { ...input, [f.name]: context.hostRoot };
        given = context.hostRoot;
      }
    }
    if (f.computed) {
      const made = await computedValue(trx, r, f, input, current);
      if (made.refused) (errors[f.name] ??= []).push(made.refused);
      else if (made.value !== undefined) values[f.name] = made.value;
      continue;
    }
    if (f.kind === 'slug') {
      const wanted = typeof given === 'string' ? given.trim() : '';
      if (wanted) values[f.name] = slugify(wanted, { unique: false });
      else if (!current || f.name in input) {
        const source = String(input[f.from!] ?? current?.[f.from!] ?? '');
        values[f.name] = await freshSlug(trx, r, f.name, source, current?.id as string | undefined, slugFrom, slugsUnchecked && f.unique === true);
        generated.add(f.name);
      }
      continue;
    }
    if (!(f.name in input)) continue;
    if (f.secret) {
      values[columnName(f)] = given ? await hashPassword(String(given)) : current?.[columnName(f)];
      continue;
    }
    if (f.kind === 'reference' && given) {
      const { resource, by, key } = parentOfField(f, given);
      const known = parents.get(parentKey(resource, by, key));
      const parent = known === undefined ? await findBy(trx, registry.resource(resource), by, key) : known;
      if (!parent) (errors[f.name] ??= []).push(`${labelOf(f)} does not exist.`);
    }
    values[f.name] = f.kind === 'boolean' ? toStoredBoolean(given) : (given ?? null);
  }
  // A reference declared to depend on another must point under it (`dependsOn`).
  await checkDependents(trx, registry, r, input, current, errors, parents);
  if (Object.keys(errors).length) throw badRequest(VALIDATION_FAILED, errors);
  for (const f of r.fields)
    // A generated slug was checked free by `freshSlug`; one taken since is the index's to catch
    // (and `withSlugRetries` makes another), not the writer's conflict.
    if (f.unique && !generated.has(f.name) && values[columnName(f)] !== undefined && values[columnName(f)] !== null) {
      const holder = await findBy(trx, r, columnName(f), values[columnName(f)]);
      if (holder && holder.id !== current?.id)
        throw duplicateConflict(r, f);
    }
  return values;
}

export async function createRecord(
  db: Db,
  registry: Registry,
  r: ResourceDef,
  input: Row,
  context: WriteContext = {},
  steps: WriteSteps = {},
): Promise<Row> {
  // In a caller's transaction a failed statement may have ended it (PostgreSQL): no retry there.
  return withSlugRetries(registry, input, (slugFrom) => inTransaction(db, async (trx) => {
    // A retry runs the steps again on the input as sent, not on what the failed attempt made of it.
    const data = steps.before ? await steps.before(trx, input) : input;
    const now = new Date().toISOString();
    const absent = Object.fromEntries(storedFieldsOf(r).map((f) => [columnName(f), null]));
    // A first attempt that may be made again (not in a caller's transaction) takes its slug unread.
    const columns = await toColumns(trx, registry, r, data, undefined, context, slugFrom, slugFrom === undefined && !db.isTransaction);
    const row: Row = { id: newId(), ...absent, ...columns, createdAt: now, updatedAt: now, [VERSION]: 1 };
    for (const f of r.fields)
      if (f.createdWith !== undefined && (row[f.name] === null || row[f.name] === undefined))
        row[f.name] = f.kind === 'boolean' ? toStoredBoolean(f.createdWith) : f.createdWith;
    // In a transaction of its own, the row is sent with the commit on PostgreSQL (db/write-behind.ts): its
    // unique indexes' refusal still fails the write (and `withSlugRetries` sees it). In a caller's, it runs
    // now: the caller's own handling of a refusal sees it where it made the write.
    if (db.isTransaction) await trx.executeQuery(insertQuery(trx, r.name, row));
    else await writeBehind(trx, insertQuery(trx, r.name, row));
    // The items after their parent, in its transaction: a failure after them rolls both back.
    const items = hasItems(r) ? await writeItems(trx, registry, r, row.id as string, data, true) : {};
    await audit(trx, { actor: context.actor ?? nobody, resource: r, recordId: row.id as string, action: 'create', after: { ...row, ...items } });
    if (r.jobs) await scheduleRecordJobs(trx, r, row);
    const record = toRecord(r, { ...row, ...items })!;
    if (steps.after) await steps.after(trx, record);
    return record;
  }), db.isTransaction ? 1 : undefined);
}

/**
 * Runs a write again when another writer took the slug it generated between its check and its insert
 * (two creates from one name in the same millisecond). A retry starts its stamp at a random point of a
 * window that widens with each attempt: had every loser started at the winner's stamp + 1 they would
 * collide again, one winning per round, and fifty concurrent creates of one name would run out of
 * attempts. A slug the writer sent itself is its own choice: that conflict is answered (409) as it is.
 */
async function withSlugRetries<T>(registry: Registry, input: Row, write: (slugFrom?: number) => Promise<T>, attempts = 8): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write(attempt === 1 ? undefined : Date.now() + 1 + Math.floor(Math.random() * 1000 * 2 ** attempt));
    } catch (error) {
      const field = violatedField(error, registry);
      const generated = field?.kind === 'slug' && !(typeof input[field.name] === 'string' && (input[field.name] as string).trim());
      if (!generated || attempt >= attempts) throw error;
    }
  }
}

/** Whether a stored row holds what its resource's default record requires (`defaultRecord.requires`). */
export function holdsRequired(r: ResourceDef, row: Row): boolean {
  const requires = r.defaultRecord?.requires;
  if (!requires) return true;
  const f = r.fields.find((x) => x.name === requires.field);
  const column = f ? columnName(f) : requires.field;
  // Stored booleans are 0/1 and numbers may come back as text on some engines: compare as text.
  const stored = f?.kind === 'boolean' ? toStoredBoolean(row[column]) : row[column];
  const wanted = f?.kind === 'boolean' ? toStoredBoolean(requires.value) : requires.value;
  return stored !== null && stored !== undefined && String(stored) === String(wanted);
}

export async function updateRecord(
  db: Db,
  registry: Registry,
  r: ResourceDef,
  id: string,
  input: Row,
  context: WriteContext = {},
  steps: WriteSteps = {},
) {
  return inTransaction(db, async (trx) => {
    const current =
      steps.current ?? (context.reach ? await findReachable(trx, registry, r, context.reach, 'id', id) : await findBy(trx, r, 'id', id));
    if (!current) throw notFound(`${r.label} not found.`);
    if (steps.before) input = await steps.before(trx, input, current);
    const seen = Number(current[VERSION] ?? 1);
    if (context.ifMatch !== undefined && context.ifMatch !== seen) throw new StaleVersion(toRecord(r, current)!, r);
    const values = {
      ...(await toColumns(trx, registry, r, input, current, context)),
      updatedAt: new Date().toISOString(),
      [VERSION]: seen + 1,
    };
    // Compare-and-set on the version read above: a concurrent update that committed in between makes
    // this one change no row, and it fails as stale instead of silently overwriting.
    const result = await trx.updateTable(r.name).set(values).where('id', '=', id).where(VERSION, '=', seen).executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) {
      const now = await findBy(trx, r, 'id', id);
      if (!now) throw notFound(`${r.label} not found.`);
      throw new StaleVersion(toRecord(r, now)!, r);
    }
    // With items, the record's before and after (audit, hooks, the answer) hold them: the stored ones,
    // replaced by those sent (line-items.ts).
    const before = hasItems(r) ? (await withItemsOf(trx, r, { ...current }))! : current;
    const after = { ...before, ...values, ...(hasItems(r) ? await writeItems(trx, registry, r, id, input, false) : {}) };
    // Read after the row is written (and so held): a concurrent "Make default" of it has committed
    // by now, or waits and then finds the record no longer holds what the default requires.
    const requires = r.defaultRecord?.requires;
    if (requires && !holdsRequired(r, after) && (await getSetting(trx, r.defaultRecord!.key)) === id)
      throw badRequest(requires.kept, { [requires.field]: [requires.kept] });
    await audit(trx, { actor: context.actor ?? nobody, resource: r, recordId: id, action: context.action ?? 'update', before, after });
    if (r.jobs) await scheduleRecordJobs(trx, r, after, current);
    const record = toRecord(r, after)!;
    if (steps.after) await steps.after(trx, record, current);
    return record;
  });
}

export interface RemoveOptions {
  /** Move the record into the recycle bin (RECYCLE_BIN) instead of deleting it. */
  recycle?: boolean;
  /** Who deletes: kept in the audit entry, and as the bin row's `deletedBy`. */
  actor?: Actor;
  /** Called in the transaction after the row is deleted for good (not when it is recycled). */
  afterRemove?: (row: Row, trx: Db) => Promise<void>;
  /** The remover's reach (ownership.ts): a row out of it fails as not found. */
  reach?: Reach;
}

/**
 * The records of other resources that point at `row`, counted by the field each reference holds
 * (`id`, or its `referenceBy`), as '2 child categories'.
 */
async function blockingChildren(trx: Db, registry: Registry, r: ResourceDef, row: Row): Promise<string[]> {
  const blocking: string[] = [];
  for (const child of registry.childrenOf(r.name)) {
    const by = child.resource.fields.find((f) => f.name === child.field)?.referenceBy ?? 'id';
    const value = row[by];
    if (value === null || value === undefined) continue;
    const n = await countWhere(trx, child.resource.name, child.field, value);
    if (n) blocking.push(`${n} ${(n === 1 ? child.resource.label : child.resource.plural).toLowerCase()}`);
  }
  return blocking;
}

/**
 * Deletes a record unless other records still point at it: then 409, and nothing is deleted. With
 * `recycle`, the row is moved into the recycle bin in the same transaction (restorable under its id).
 */
export async function removeRecord(db: Db, registry: Registry, r: ResourceDef, id: string, options: RemoveOptions = {}) {
  return inTransaction(db, async (trx) => {
    const found = options.reach ? await findReachable(trx, registry, r, options.reach, 'id', id) : await findBy(trx, r, 'id', id);
    if (!found) throw notFound(`${r.label} not found.`);
    // Its items go with it: kept in the bin's JSON (a restore writes them back) and the audit's before.
    const current = hasItems(r) ? (await withItemsOf(trx, r, { ...found }))! : found;
    const blocking = await blockingChildren(trx, registry, r, current);
    if (blocking.length)
      throw conflict(
        `${r.label} '${current[r.title]}' still has ${blocking.join(' and ')}. Delete or move them first.`,
      );
    if (options.recycle) {
      const now = new Date().toISOString();
      await trx
        .insertInto(RECYCLE_BIN)
        .values({
          id: newId(),
          title: String(current[r.title] ?? current.id),
          resource: r.name,
          recordId: id,
          data: JSON.stringify(current),
          deletedBy: options.actor?.id ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
    }
    await trx.deleteFrom(r.name).where('id', '=', id).execute();
    if (hasItems(r)) await deleteItems(trx, r, id);
    if (r.jobs) await dropRecordJobs(trx, r, id);
    await audit(trx, {
      actor: options.actor ?? nobody,
      resource: r,
      recordId: id,
      action: options.recycle ? 'recycle' : 'delete',
      before: current,
    });
    if (!options.recycle && options.afterRemove) await options.afterRemove(current, trx);
    return { id };
  });
}
