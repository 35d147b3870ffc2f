/**
 * The manifests' `notify` (NotifyDef in src/manifest/types.ts), carried out by the generated routes
 * after a dialog's or operation's call succeeded: who is told, whether the record matches `when`, the
 * texts filled from the record. One declaration in a manifest is all an event needs to notify.
 */
import type { FastifyRequest } from 'fastify';
import type { NotifyDef, Registry, ResourceDef } from '../../../manifest/index.ts';
import type { Db, Row } from '../../../server/records/index.ts';
import { actorOf } from '../../../server/records/audit.ts';
import { ACCOUNTS } from '../../../server/records/ownership.ts';
import { parentKey, parentsReadIn, referenceLabels, type ReferenceLabels } from '../../../server/records/index.ts';
import { formatMoney } from '../../../domain/money.ts';
import { deliver, deliverToRole, storeBroadcast, storeNotifications, type BroadcastInput, type NotifyInput } from './notify.ts';
import type { NotificationWire } from '../contract.ts';

/** The declared notifications of a dialog or an operation, as a list. */
export function notificationsOf(declared: { notify?: NotifyDef | readonly NotifyDef[] }): readonly NotifyDef[] {
  const n = declared.notify;
  if (!n) return [];
  return Array.isArray(n) ? (n as readonly NotifyDef[]) : [n as NotifyDef];
}

/** The record a call is about: its answer, when that is a record (a call answering nothing notifies nobody). */
function recordOf(result: unknown): Row | undefined {
  return result && typeof result === 'object' && !Array.isArray(result) ? (result as Row) : undefined;
}

const isSet = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * `{field}` replaced by the record's value as people read it (issue 51 §5): the word the declaring
 * resource's `choices` give it, an amount through the one money formatter ('$55.49', never '55.49'), a
 * reference by its record's title from `labels` (`namedReferenceLabels`; its id when the record is gone).
 */
export function fill(text: string, record: Row, r: ResourceDef, labels?: ReferenceLabels): string {
  const secrets = new Set(r.fields.filter((f) => f.secret).map((f) => f.name));
  return text.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (secrets.has(name)) return '';
    const value = record[name];
    if (!isSet(value)) return '';
    const f = r.fields.find((x) => x.name === name);
    const choice = f?.choices?.find((c) => c.value === value);
    if (choice) return choice.label;
    if (f?.display === 'money' && (typeof value === 'number' || typeof value === 'string')) return formatMoney(value) || String(value);
    if (f?.kind === 'reference') return labels?.get(name)?.get(String(value)) ?? String(value);
    return String(value);
  });
}

/** The reference fields of `r` that `texts` name (`{category}`). */
function namedReferences(r: ResourceDef, texts: readonly string[]) {
  const named = new Set(texts.flatMap((t) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1])));
  return r.fields.filter((f) => f.kind === 'reference' && named.has(f.name));
}

/**
 * The reference fields `texts` name (`{category}`), by their labels for `record`: from what the write's
 * transaction read of its parents when it asked for their titles (`labelled`, parents.ts), else one
 * query per referenced resource.
 */
export async function namedReferenceLabels(db: Db, registry: Registry, r: ResourceDef, record: Row, texts: readonly string[]): Promise<ReferenceLabels> {
  const fields = namedReferences(r, texts);
  if (!fields.length) return new Map();
  const labels: ReferenceLabels = new Map();
  const read = parentsReadIn(db);
  const unread = fields.filter((f) => {
    const value = record[f.name];
    if (!read || typeof value !== 'string' || !value) return true;
    const title = registry.resource(f.reference!).title;
    const parent = read.get(parentKey(f.reference!, f.referenceBy ?? 'id', value));
    // Read, but not for its title (or not found): asked below, as before.
    if (!parent || !(title in parent)) return true;
    const label = parent[title];
    labels.set(f.name, new Map(label === null || label === undefined || label === '' ? [] : [[value, String(label)]]));
    return false;
  });
  if (unread.length) for (const [name, found] of await referenceLabels(db, registry, unread, [record])) labels.set(name, found);
  return labels;
}

function matches(when: NotifyDef['when'], record: Row): boolean {
  if (!when) return true;
  return Object.entries(when).every(([field, value]) => (record[field] ?? null) === value);
}

/** The user ids a declaration names for a record: one or two people (everyone of a role is a `broadcast`). */
async function recipients(db: Db, r: ResourceDef, n: NotifyDef, record: Row): Promise<string[]> {
  if (n.to === 'admins') return [];
  const field = n.to === 'owner' ? r.access.owner?.field : n.to.field;
  const value = field ? record[field] : undefined;
  if (typeof value !== 'string' || !value) return [];
  // An account deleted since has nobody left to tell.
  const account = await db.selectFrom(ACCOUNTS).select('id').where('id', '=', value).executeTakeFirst();
  return account ? [value] : [];
}

/** What a write's declared notifications do: stored in a transaction, then told once it committed. */
export interface DeclaredNotices {
  /**
   * Stores the notifications about `record` in `trx`: the write's own transaction (create and update
   * dialogs, transitions), so they commit with the write, and a write costs one commit, not two.
   */
  store(trx: Db, record: Row): Promise<void>;
  /** Tells the people and roles stored for, once the transaction committed. */
  deliver(): Promise<void>;
  /**
   * The reference fields the texts name: the write reads their records' titles with its parents
   * (records/writes.ts `WriteContext.labelled`), so storing costs no statement of its own for them.
   */
  labelled: readonly string[];
}

/**
 * The declared notifications of a call on `r` (`declared`), made as the call's record is written: who is
 * told, whether the record matches `when`, the texts filled from the record. The caller is never told of
 * its own act. Undefined where nothing is declared.
 */
export function declaredNotices(request: FastifyRequest, db: Db, registry: Registry, r: ResourceDef, declared: readonly NotifyDef[]): DeclaredNotices | undefined {
  if (!declared.length) return undefined;
  const actor = actorOf(request);
  const app = request.server;
  let stored: NotificationWire[] = [];
  const toRoles: { wire: NotificationWire; input: BroadcastInput }[] = [];
  return {
    labelled: namedReferences(r, declared.flatMap((n) => [n.title, n.message])).map((f) => f.name),
    async store(trx, record) {
      // A write tried again (a slug taken meanwhile) stores them again: only the last try's are told.
      toRoles.length = 0;
      stored = [];
      const sent = declared.filter((n) => matches(n.when, record));
      if (!sent.length) return;
      const target = { db: trx, registry, actor };
      const labels = await namedReferenceLabels(trx, registry, r, record, sent.flatMap((n) => [n.title, n.message]));
      const metadataOf = (n: NotifyDef) => ({ category: n.category, resource: r.name, ...(isSet(record.id) ? { recordId: String(record.id) } : {}) });
      // Every admin: one notification to the role, whatever their number (audience.ts).
      for (const n of sent.filter((x) => x.to === 'admins')) {
        const input: BroadcastInput = {
          toRole: 'admin',
          title: fill(n.title, record, r, labels),
          message: fill(n.message, record, r, labels),
          type: n.type,
          metadata: metadataOf(n),
          exceptUserId: actor.id ?? null,
        };
        toRoles.push({ wire: await storeBroadcast(input, target), input });
      }
      const inputs: NotifyInput[] = [];
      for (const n of sent)
        for (const userId of await recipients(trx, r, n, record)) {
          if (userId === actor.id) continue;
          inputs.push({ userId, title: fill(n.title, record, r, labels), message: fill(n.message, record, r, labels), type: n.type, metadata: metadataOf(n) });
        }
      if (inputs.length) stored = await storeNotifications(target, inputs);
    },
    async deliver() {
      for (const { wire, input } of toRoles) deliverToRole(app, wire, input);
      await deliver(app, db, stored);
    },
  };
}

/** Tells what a committed write stored (`DeclaredNotices.deliver`); a failure is logged, never answered: the write has committed. */
export async function deliverAfterCommit(request: FastifyRequest, notices: DeclaredNotices): Promise<void> {
  try {
    await notices.deliver();
  } catch (error) {
    request.log.error(error);
  }
}

/**
 * Sends what `declared` says after a call on `r` succeeded and committed, about its answer `result`, in a
 * transaction of its own: for calls whose write is not one record's (an operation, an action's handler).
 * A failure here is logged, never answered: the call's write has committed, and its answer must say so.
 */
export async function notifyDeclared(
  request: FastifyRequest,
  db: Db,
  registry: Registry,
  r: ResourceDef,
  declared: readonly NotifyDef[],
  result: unknown,
): Promise<void> {
  const record = recordOf(result);
  const notices = record && declaredNotices(request, db, registry, r, declared);
  if (!notices) return;
  try {
    await db.transaction().execute((trx) => notices.store(trx, record));
    await notices.deliver();
  } catch (error) {
    request.log.error(error);
  }
}
