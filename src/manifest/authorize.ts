/**
 * The one access decision: `authorize(user, resource, action, record?)` answers whether `user` may do
 * `action` on `resource` and how far into its rows they reach. It is read from the resource's one access
 * declaration (`access`: `read` and `write` for who may call what, `owner` for which rows each role
 * reaches; see ResourceAccess in types.ts) and asked by both sides: the server's guard and records service (once per request, the reach
 * applied inside the write's transaction), and the client, to show only what the server will allow.
 */
import type { Access, DefaultRecord, DialogDef, OperationDef, OwnerDef, ReadDef, ResourceDef, Role, ThroughItems } from './types.ts';

/** Whether a signed-in user with `role` passes `access`. Without a role nobody does, `signedIn` included. */
export function allows(access: Access, role: unknown): boolean {
  if (typeof role !== 'string' || !role) return false;
  return access === 'signedIn' || (access as readonly string[]).includes(role);
}

/** A dialog's access: its own; else a details dialog reads (`read` access) and the others write. */
export function dialogAccess(resource: ResourceDef, dialog: DialogDef): Access {
  return dialog.access ?? (dialog.kind === 'details' ? resource.access.read : resource.access.write);
}

/**
 * What is asked: a generic action (`'read'`: the resource's records; `'write'`: its generic writes), or a
 * declared call: a dialog, a read or an operation by itself (each may narrow the resource's access), the
 * default-record setting.
 */
export type Action =
  | 'read'
  | 'write'
  | { dialog: DialogDef }
  | { read: ReadDef }
  | { operation: OperationDef }
  | { defaultRecord: DefaultRecord; write: boolean };

/**
 * How far one user reaches into one resource's rows:
 * - `all`: every row (no owner declared, or a role declared `'all'`);
 * - `none`: no row (a role `access.owner` does not name, or no user);
 * - `own` / `team`: the rows owned by `userId` (and, for a team, by the accounts whose `team` field names
 *   `userId`);
 * - `through`: the rows whose sub-records point at a record `userId` owns (`ThroughItems`);
 * - `party`: the rows whose `field` names `userId`.
 * `key` tells cached answers of different reaches apart.
 */
export type Reach =
  | { kind: 'all'; key: '' }
  | { kind: 'none'; key: 'none' }
  | { kind: 'own'; userId: string; key: string }
  | { kind: 'team'; userId: string; team: string; key: string }
  | { kind: 'through'; userId: string; through: ThroughItems; key: string }
  | { kind: 'party'; userId: string; field: string; key: string };

const ALL: Reach = { kind: 'all', key: '' };
const NONE: Reach = { kind: 'none', key: 'none' };

/** The part of an account the decision reads: its id and role. */
export interface Principal {
  id?: unknown;
  role?: unknown;
}

/** The reach of `user` into `r`'s rows (see `Reach`). */
export function reachOf(r: ResourceDef, user: Principal | undefined): Reach {
  const owner = r.access.owner;
  if (!owner) return ALL;
  if (!user || typeof user.id !== 'string') return NONE;
  const declared = owner.roles[user.role as keyof OwnerDef['roles']];
  if (declared === 'all') return ALL;
  if (declared === 'own') return { kind: 'own', userId: user.id, key: `own:${user.id}` };
  if (declared && typeof declared === 'object' && 'through' in declared) {
    const t = declared.through;
    return { kind: 'through', userId: user.id, through: t, key: `through:${t.items}.${t.via}.${t.field}:${user.id}` };
  }
  if (declared && typeof declared === 'object' && 'party' in declared) return { kind: 'party', userId: user.id, field: declared.party, key: `party:${declared.party}:${user.id}` };
  if (declared && typeof declared === 'object') return { kind: 'team', userId: user.id, team: declared.team, key: `team:${declared.team}:${user.id}` };
  return NONE;
}

/** Who may call `action` on `r`. */
export function accessOf(r: ResourceDef, action: Action): Access {
  if (action === 'read') return r.access.read;
  if (action === 'write') return r.access.write;
  if ('dialog' in action) return dialogAccess(r, action.dialog);
  if ('read' in action) return action.read.access ?? r.access.read;
  if ('operation' in action) return action.operation.access ?? r.access.write;
  return action.defaultRecord.access ?? (action.write ? r.access.write : r.access.read);
}

/** The answer: may the user call it at all, and which rows they reach. */
export interface Decision {
  allowed: boolean;
  reach: Reach;
}

/**
 * Whether `user` may do `action` on `r` and how far they reach. With `record` (as stored), the record
 * must also be within reach where that can be told from the record alone: a role reaching its own rows
 * is refused another's record. A team's or a related record's owner (`via`) is the server's to tell: it
 * reads the rows within reach only, so a record the client holds passed that test already.
 */
export function authorize(user: Principal | undefined, r: ResourceDef, action: Action, record?: Record<string, unknown>): Decision {
  const reach = reachOf(r, user);
  let allowed = !!user && allows(accessOf(r, action), user.role);
  // Owning through sub-records, or being a party to a record, is reading and changing what one is part of, never making it.
  if (allowed && (reach.kind === 'through' || reach.kind === 'party') && typeof action === 'object' && 'dialog' in action && action.dialog.kind === 'create') allowed = false;
  if (allowed && record && reach.kind === 'none') allowed = false;
  const owner = r.access.owner;
  if (allowed && record && reach.kind === 'own' && owner && !owner.via) allowed = record[owner.field] === reach.userId;
  return { allowed, reach };
}

/** The role's permission alone, for callers that hold only a role (the client's `permissions`). */
export const mayCall = (role: unknown, r: ResourceDef, action: Action): boolean => authorize({ id: '', role }, r, action).allowed;

export type { Role };
