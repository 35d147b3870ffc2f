/**
 * Appending to the audit log (`resources/system.ts`, AUDIT_LOG). Every write calls `audit` with the
 * transaction it writes in, so the entry commits or rolls back with the write itself.
 */
import type { FastifyRequest } from 'fastify';
import type { ResourceDef } from '../../manifest/index.ts';
import { AUDIT_LOG } from '../../../resources/system.ts';
import { newId } from '../db/id.ts';
import { insertQuery, insertRowsQuery } from '../db/compiled-queries.ts';
import { writeBehind } from '../db/write-behind.ts';
import type { Db, Row } from '../db/types.ts';
import { columnName } from '../db/tables.ts';

/** Who made a write, as it is kept: a snapshot of the user at the time. */
export interface Actor {
  id: string | null;
  email: string | null;
  role: string | null;
}

/** The signed-in user behind a request (every write route has one; a missing one is kept as nobody). */
export function actorOf(request: FastifyRequest | undefined): Actor {
  const user = request?.user;
  return {
    id: typeof user?.id === 'string' ? user.id : null,
    email: typeof user?.email === 'string' ? user.email : null,
    role: typeof user?.role === 'string' ? user.role : null,
  };
}

/** `create`, `update`, `delete`, `recycle`, `restore`, or the name of the operation that wrote. */
export type AuditAction = string;

export interface AuditEntry {
  actor: Actor;
  resource: ResourceDef;
  recordId: string;
  action: AuditAction;
  /** The record before the write (absent for a create). Stored rows: secrets are dropped here. */
  before?: Row;
  /** The record after the write (absent for a delete). */
  after?: Row;
  /** What changed, when it is not the record's own fields (a setting naming the record). */
  changes?: Record<string, { before: unknown; after: unknown }>;
}

/** Columns that are the record's bookkeeping, not its content. */
const BOOKKEEPING = new Set(['id', 'createdAt', 'updatedAt', 'version']);

/**
 * The changed fields as `{ field: { before, after } }`. Only declared, non-secret fields count: a
 * password's hash (or any column a secret is stored in) never reaches the log.
 */
export function changesOf(r: ResourceDef, before: Row | undefined, after: Row | undefined): Record<string, { before: unknown; after: unknown }> {
  const secret = new Set(r.fields.filter((f) => f.secret).flatMap((f) => [f.name, columnName(f)]));
  const out: Record<string, { before: unknown; after: unknown }> = {};
  for (const f of r.fields) {
    if (secret.has(f.name) || BOOKKEEPING.has(f.name)) continue;
    const was = before?.[f.name] ?? null;
    const now = after?.[f.name] ?? null;
    if (!sameValue(was, now)) out[f.name] = { before: was, after: now };
  }
  return out;
}

// Stored booleans come back as 0/1 from SQLite and true/false from a record: compare them as equal.
function sameValue(a: unknown, b: unknown): boolean {
  // An `items` field's lists (line-items.ts): equal when they hold the same items in the same order.
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a) === JSON.stringify(b);
  const norm = (v: unknown) => (v === true ? 1 : v === false ? 0 : typeof v === 'bigint' ? Number(v) : v);
  return norm(a) === norm(b);
}

/** Appends one entry, in `trx`. An update that changed nothing is not an event worth keeping. */
export async function audit(trx: Db, entry: AuditEntry): Promise<void> {
  const changes = entry.changes ?? changesOf(entry.resource, entry.before, entry.after);
  if (entry.action === 'update' && Object.keys(changes).length === 0) return;
  const now = new Date().toISOString();
  const row = {
    id: newId(),
    at: now,
    user: entry.actor.email,
    userId: entry.actor.id,
    role: entry.actor.role,
    resource: entry.resource.name,
    recordId: entry.recordId,
    action: entry.action,
    changes: JSON.stringify(changes),
    createdAt: now,
    updatedAt: now,
  };
  const pending = deferred.get(trx);
  if (pending) pending.push(row);
  else await trx.executeQuery(insertQuery(trx, AUDIT_LOG, row));
}

/** Audit rows per insert statement: 11 columns each, 880 bound values, far below either engine's limit. */
const AUDIT_ROWS_PER_INSERT = 80;

/** The audit entries of transactions run by `withDeferredAudit`, not yet written. */
const deferred = new WeakMap<object, Row[]>();

/**
 * Runs `work` in `trx` (a transaction just begun) with the audit entries it appends written together, in
 * one statement, when it is done: a product's create appends two (the product's, the notification's), one
 * round trip each before (issue 54: a create's round trips). Nothing is lost: they are written in the same
 * transaction, before its commit; a failure rolls them back with the rest. No write reads its own
 * transaction's audit entries back.
 */
export async function withDeferredAudit<T>(trx: Db, work: () => Promise<T>): Promise<T> {
  const rows: Row[] = [];
  deferred.set(trx, rows);
  try {
    const result = await work();
    // Sent with the commit on PostgreSQL (db/write-behind.ts). A transaction that audits thousands of rows
    // (a bulk delete) writes them a bounded statement at a time.
    for (let i = 0; i < rows.length; i += AUDIT_ROWS_PER_INSERT) await writeBehind(trx, insertRowsQuery(trx, AUDIT_LOG, rows.slice(i, i + AUDIT_ROWS_PER_INSERT)));
    return result;
  } finally {
    deferred.delete(trx);
  }
}
