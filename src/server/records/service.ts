/**
 * The records service: every write of a record, generated or hand-written, goes through here (Directus's
 * ItemsService is the model). It carries who writes (the actor and their account), the transaction and
 * the reach, and runs, in one transaction: ownership (ownership.ts), the resource's `beforeChange`, the
 * write with its built-in steps (writes.ts: slugs, computed values, secrets, parents, unique values,
 * versions, recycle bin, audit), the resource's `afterChange` / `afterRemove`; after it, the cache of
 * every table it wrote is invalidated. Features call it and import no `db/` internals for writing.
 */
import type { ResourceDef } from '../../manifest/types.ts';
import type { Registry } from '../../manifest/registry.ts';
import { HookRefusal, type HookContext, type HookServices, type ResourceHooks } from '../../manifest/hooks.ts';
import { RECYCLE_BIN } from '../../../resources/system.ts';
import { HttpError, notFound } from '../errors.ts';
import { findBy, list, toRecord, type Db, type Narrow, type Row } from '../db/repository.ts';
import { parseListQuery } from '../db/list-query.ts';
import { recordQuery } from '../db/compiled-queries.ts';
import { isSqlite } from '../db/count.ts';
import { takeFirst } from '../db/taken-rows.ts';
import { readAhead } from '../db/write-behind.ts';
import { forgetParentsAhead } from './parents.ts';
import { audit, type Actor, type AuditEntry } from './audit.ts';
import { findReachable, ownedInput, reachOf, whereReachable, type Reach } from './ownership.ts';
import { createRecord, inTransaction, readParentsOf, removeRecord, updateRecord, type WriteContext } from './writes.ts';
import { restoreRecord } from './restore.ts';
import { checkTransitions, transitionAction } from './states.ts';
import { checkSingle } from './single.ts';

/** Who a service writes as, and what else it is given. */
export interface RecordsOptions {
  db: Db;
  registry: Registry;
  /**
   * The writer's stored account (role, team fields): ownership and reach follow from it. Left out, the
   * service is the server's own (seeding, jobs, notifications it sends): every row is within reach.
   */
  user?: Row;
  /** Kept in audit entries. Defaults to the `user`'s id, email and role, or nobody. */
  actor?: Actor;
  /** The root URL of the host the request came to (`whenEmpty: 'hostRoot'`). */
  hostRoot?: string;
  /** Drops cached reads of a table; called after each call for every table it wrote. */
  invalidate?: (table: string) => void;
  /** Server services hooks may use (see `HookServices`). */
  services?: HookServices;
}

const ALL: Reach = { kind: 'all', key: '' };
const nobody: Actor = { id: null, email: null, role: null };

/** A hook's refusal answered as the server's errors are. */
function asHttp(error: unknown): unknown {
  return error instanceof HookRefusal ? new HttpError(error.status, error.message, error.errors) : error;
}

/**
 * More of a write, in its transaction, after the record and its `afterChange`: what the call declares
 * beside the record (its notifications: declared.ts), so it commits with the write or not at all.
 */
export type WithinWrite = (trx: Db, record: Row) => Promise<void>;

/** What a create or update does besides the record: see `WithinWrite` and `WriteContext.labelled`. */
export interface WriteOptions {
  within?: WithinWrite;
  /** Reference fields whose records' titles `within` will need: read with the write's parents. */
  labelled?: readonly string[];
}

export class RecordsService {
  readonly db: Db;
  readonly registry: Registry;
  readonly user?: Row;
  readonly actor: Actor;
  /** Tables written by the call in progress (shared by nested services of one transaction). */
  private readonly written: Set<string>;
  private readonly nested: boolean;

  constructor(
    readonly options: RecordsOptions,
    shared?: { written: Set<string> },
  ) {
    this.db = options.db;
    this.registry = options.registry;
    this.user = options.user;
    const u = options.user;
    this.actor = options.actor ?? (u ? { id: String(u.id), email: (u.email as string) ?? null, role: (u.role as string) ?? null } : nobody);
    this.written = shared?.written ?? new Set();
    this.nested = !!shared;
  }

  /** This service inside the transaction `trx` (nested writes join it). */
  private within(trx: Db): RecordsService {
    return new RecordsService({ ...this.options, db: trx }, { written: this.written });
  }

  /** How far this writer reaches into `r`: the server's own service reaches every row. */
  reach(r: ResourceDef): Reach {
    return this.user ? reachOf(r, this.user) : ALL;
  }

  private resource(r: ResourceDef | string): ResourceDef {
    return typeof r === 'string' ? this.registry.resource(r) : r;
  }

  private context(): WriteContext {
    return { hostRoot: this.options.hostRoot, actor: this.actor };
  }

  /** Runs `work` in one transaction (the caller's when it is in one), then drops what it wrote from the cache. */
  async transaction<T>(work: (records: RecordsService) => Promise<T>): Promise<T> {
    try {
      return this.db.isTransaction ? await work(this) : await inTransaction(this.db, (trx) => work(this.within(trx)));
    } catch (error) {
      throw asHttp(error);
    } finally {
      this.flush();
    }
  }

  /** Invalidates every table written, once the outermost call is over (committed or not). */
  private flush() {
    if (this.nested) return;
    for (const table of this.written) this.options.invalidate?.(table);
    this.written.clear();
  }

  private wrote(...tables: string[]) {
    for (const table of tables) this.written.add(table);
  }

  /** What a resource's hooks are given, bound to the transaction `trx`. */
  private hookContext(r: ResourceDef, trx: Db): HookContext {
    const inner = this.within(trx);
    return {
      resource: r,
      actor: this.actor,
      user: this.user,
      // A lookup before the write (the site commission a product starts with) goes with the reads of its turn (`readAhead`).
      find: async (name, field, value) => takeFirst((await readAhead(trx, recordQuery(trx, this.registry.resource(name).name, field, value))).rows),
      // A hook's write may change what a read ahead of its record's parents found (parents.ts): read again.
      create: (name, input) => (forgetParentsAhead(trx), inner.create(name, input)),
      update: (name, id, input) => (forgetParentsAhead(trx), inner.update(name, id, input)),
      invalidate: (table) => this.wrote(table),
      services: this.options.services ?? ({} as HookServices),
    };
  }

  private hooksOf(r: ResourceDef): ResourceHooks {
    return r.hooks ?? {};
  }

  /**
   * The record whose `field` is `value` within this writer's reach (or `reach`), as answered (booleans,
   * items), or undefined.
   */
  async find(resource: ResourceDef | string, field: string, value: unknown, reach?: Reach): Promise<Row | undefined> {
    const r = this.resource(resource);
    const within = reach ?? this.reach(r);
    const row = within.kind === 'all' ? await findBy(this.db, r, field, value) : await findReachable(this.db, this.registry, r, within, field, value);
    return toRecord(r, row);
  }

  /**
   * A page of `r`'s records as a list read answers it, from the request's `query` (`sort`, `range`,
   * `filter`), within this writer's reach unless `withinReach` is false, further kept by `keep` (a
   * hand-written list's own condition). Answers the rows, the total and the first row's position.
   */
  async list(
    resource: ResourceDef | string,
    query: Record<string, unknown>,
    keep: (q: Parameters<Narrow>[0]) => Parameters<Narrow>[0] = (q) => q,
    withinReach = true,
  ): Promise<{ rows: Row[]; total: number; start: number }> {
    const r = this.resource(resource);
    const parsed = parseListQuery(r, query);
    const reach = this.reach(r);
    const narrow = ((q: Parameters<Narrow>[0]) => keep(withinReach ? whereReachable(this.registry, r, reach, q) : q)) as Narrow;
    const { rows, total } = await list(this.db, r, parsed, undefined, undefined, narrow);
    return { rows, total, start: parsed.start };
  }

  /** One record by id within this writer's reach, or a 404 `<Label> not found.`. */
  async reachable(resource: ResourceDef | string, id: unknown): Promise<Row> {
    const r = this.resource(resource);
    const row = typeof id === 'string' ? await findReachable(this.db, this.registry, r, this.reach(r), 'id', id) : undefined;
    if (!row) throw notFound(`${r.label} not found.`);
    return row;
  }

  /**
   * Creates a record from validated input: the owner filled in or checked for the writer's role, then
   * `beforeChange`, the insert and its steps, then `afterChange`, all in one transaction.
   */
  async create(resource: ResourceDef | string, input: Row, options: WriteOptions = {}): Promise<Row> {
    const r = this.resource(resource);
    const hooks = this.hooksOf(r);
    const within = options.within;
    this.wrote(r.name);
    try {
      return await createRecord(this.db, this.registry, r, input, { ...this.context(), labelled: options.labelled }, {
        before: async (trx, data) => {
          const owned = this.user ? await ownedInput(trx, this.registry, r, this.user, data, true) : data;
          // Its parents read with whatever the hook looks up (one round trip on PostgreSQL: readAhead), in a
          // transaction of its own that has written nothing; the write reads only what the hook changed.
          if (hooks.beforeChange && !this.db.isTransaction && !isSqlite(this.db)) readParentsOf(this.db, trx, this.registry, r, owned, options.labelled);
          const changed = hooks.beforeChange ? await hooks.beforeChange({ ...this.hookContext(r, trx), operation: 'create', data: owned }) : owned;
          // Declared states (states.ts): a record created in other than its initial state is a transition from it.
          checkTransitions(r, changed, undefined, this.user);
          // One record per owner and value while it holds what `single` declares (one pending document per kind).
          await checkSingle(trx, r, changed, true);
          return changed;
        },
        after: (hooks.afterChange || within) && (async (trx, record) => {
          if (hooks.afterChange) await hooks.afterChange({ ...this.hookContext(r, trx), operation: 'create', record });
          if (within) await within(trx, record);
        }),
      });
    } catch (error) {
      throw asHttp(error);
    } finally {
      this.flush();
    }
  }

  /**
   * Updates a record within the writer's reach. `input` may be a function: it is called once the record
   * is found, so a record out of reach answers 404 before its body is judged (a 400 would tell it exists).
   * `ifMatch` is the version the writer last saw (412 when the record moved on); `reach` narrows the
   * writer's own (a person marking their own notification, though an admin reaches everyone's);
   * `transition` names the declared state transition the update must make (its route: transitions.ts);
   * `action` is the audit entry's action when the update is a named operation (a list's `reorder`).
   */
  async update(
    resource: ResourceDef | string,
    id: string,
    input: Row | (() => Row),
    options: WriteOptions & { ifMatch?: number; reach?: Reach; transition?: string; action?: string } = {},
  ): Promise<Row> {
    const r = this.resource(resource);
    const hooks = this.hooksOf(r);
    const within = options.within;
    this.wrote(r.name);
    try {
      return await this.inTransaction(async (trx) => {
        const current = await findReachable(trx, this.registry, r, options.reach ?? this.reach(r), 'id', id);
        if (!current) throw notFound(`${r.label} not found.`);
        const given = typeof input === 'function' ? input() : input;
        const context: WriteContext = { ...this.context(), ifMatch: options.ifMatch, labelled: options.labelled };
        return updateRecord(trx, this.registry, r, id, given, context, {
          current,
          before: async (inner, data, previous) => {
            const owned = this.user ? await ownedInput(inner, this.registry, r, this.user, data, false) : data;
            const changed = hooks.beforeChange ? await hooks.beforeChange({ ...this.hookContext(r, inner), operation: 'update', data: owned, previous }) : owned;
            // Declared states (states.ts): a changed states field must be an allowed transition (else 409),
            // and the update's audit entry names it. `context` is read by the audit step after this one.
            context.action = transitionAction(checkTransitions(r, changed, previous, this.user, options.transition)) ?? options.action;
            await checkSingle(inner, r, { ...previous, ...changed, id });
            return changed;
          },
          after: (hooks.afterChange || within) && (async (inner, record, previous) => {
            if (hooks.afterChange) await hooks.afterChange({ ...this.hookContext(r, inner), operation: 'update', record, previous });
            if (within) await within(inner, record);
          }),
        });
      });
    } catch (error) {
      throw asHttp(error);
    } finally {
      this.flush();
    }
  }

  /**
   * Deletes a record within the writer's reach (409 while other records point at it), or moves it into
   * the recycle bin. A record deleted for good runs its resource's `afterRemove`; purging a bin entry
   * runs the hook of the resource the record came from, with the row the bin kept.
   */
  async remove(resource: ResourceDef | string, id: string, options: { recycle?: boolean } = {}): Promise<{ id: string }> {
    const r = this.resource(resource);
    this.wrote(r.name);
    if (options.recycle) this.wrote(RECYCLE_BIN);
    try {
      return await removeRecord(this.db, this.registry, r, id, {
        recycle: options.recycle,
        actor: this.actor,
        reach: this.reach(r),
        afterRemove: (row, trx) => this.afterRemove(r, row, trx),
      });
    } catch (error) {
      throw asHttp(error);
    } finally {
      this.flush();
    }
  }

  private async afterRemove(r: ResourceDef, row: Row, trx: Db): Promise<void> {
    await this.hooksOf(r).afterRemove?.({ ...this.hookContext(r, trx), record: row });
    if (r.name !== RECYCLE_BIN) return;
    const origin = this.registry.resources.find((x) => x.name === row.resource);
    const hook = origin && this.hooksOf(origin).afterRemove;
    if (!hook) return;
    let kept: unknown;
    try {
      kept = JSON.parse(String(row.data));
    } catch {
      return; // a damaged entry has nothing left to clean up after
    }
    if (kept && typeof kept === 'object') await hook({ ...this.hookContext(origin, trx), record: kept as Row });
  }

  /** Writes a recycle-bin entry's record back into its table (restore.ts), in one transaction. */
  async restore(entryId: string): Promise<Row> {
    try {
      const { table, record } = await this.inTransaction((trx) => restoreRecord(trx, this.registry, this.actor, entryId));
      this.wrote(table, RECYCLE_BIN);
      return record;
    } catch (error) {
      throw asHttp(error);
    } finally {
      this.flush();
    }
  }

  /**
   * A write the service has no verb for: a setting naming a record (`defaultRecord`), every one of a
   * person's notifications marked read in one statement, uploaded files recorded. `work` runs in this
   * service's transaction (the caller's when it is in one) with `audit`, which keeps an entry as this
   * writer in that transaction; the `tables` it writes are dropped from the read cache once it is over.
   * It runs no hooks: a change of a record's own fields is an `update` (or `create`/`remove`), which does.
   */
  async operation<T>(tables: string[], work: (trx: Db, audit: (entry: Omit<AuditEntry, 'actor'>) => Promise<void>) => Promise<T>): Promise<T> {
    this.wrote(...tables);
    try {
      return await this.inTransaction((trx) => work(trx, (entry) => audit(trx, { ...entry, actor: this.actor })));
    } catch (error) {
      throw asHttp(error);
    } finally {
      this.flush();
    }
  }

  /** A transaction as every write's (writes.ts `inTransaction`: its audit entries written together at its end). */
  private inTransaction<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    return inTransaction(this.db, work);
  }
}
