/**
 * Lifecycle hooks of a resource (Payload's collection hooks are the model): typed functions a manifest
 * references as values (`hooks: productHooks`), run by the records service (src/server/records/) inside
 * the write's transaction, so what a hook reads and writes commits or rolls back with the write.
 *
 * Manifests load in the browser too, so a hook module imports no server code: everything it needs (reads,
 * nested writes through the same service, the actor, server-side extras such as the upload storage) comes
 * in its context, declared here with types only.
 */
import type { ResourceDef } from './types.ts';

/** A record as stored (field name → value), `id` included. */
export type StoredRow = Record<string, unknown>;

/** Who writes: the signed-in user (or nobody, for the server's own work), as the audit log keeps it. */
export interface HookActor {
  id: string | null;
  email: string | null;
  role: string | null;
}

/**
 * Services of the server a hook may use besides records, filled in by the server (each module that
 * offers one adds its member to this interface by declaration merging: the uploads add `storage`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface HookServices {}

/**
 * What every hook is given: reads and nested writes inside the write's transaction, through the same
 * records service (so nested writes are audited, owned and hooked as any other).
 */
export interface HookContext {
  /** The resource whose record is written. */
  resource: ResourceDef;
  /** Who writes. */
  actor: HookActor;
  /** The stored account of the writer (its role, its team fields), or undefined for the server's own work. */
  user?: StoredRow;
  /** One record of `resource` (by name) whose `field` holds `value`, read in the transaction; reach is not applied. */
  find(resource: string, field: string, value: unknown): Promise<StoredRow | undefined>;
  /** Creates a record of another resource in this transaction, as the same actor. */
  create(resource: string, input: StoredRow): Promise<StoredRow>;
  /** Updates a record of another resource in this transaction, as the same actor. */
  update(resource: string, id: string, input: StoredRow): Promise<StoredRow>;
  /** Marks a table as written, so cached reads of it are dropped after the commit. */
  invalidate(table: string): void;
  /** Server services (see `HookServices`). */
  services: HookServices;
}

/** What `beforeChange` is told: the input about to be written, and the record as it is (on update). */
export interface BeforeChangeArgs extends HookContext {
  operation: 'create' | 'update';
  /** The validated input, owner filled in: the hook answers it, changed or not. */
  data: StoredRow;
  /** The stored record before the change (update only). */
  previous?: StoredRow;
}

/** What `afterChange` is told: the record as written, and as it was (update only). */
export interface AfterChangeArgs extends HookContext {
  operation: 'create' | 'update';
  record: StoredRow;
  previous?: StoredRow;
}

/** What `afterRemove` is told: the stored row that was deleted for good (not recycled). */
export interface AfterRemoveArgs extends HookContext {
  record: StoredRow;
}

/**
 * A resource's hooks. Each runs inside the write's transaction; throwing an HTTP-shaped error (an object
 * with `status` and `message`, such as the server's `badRequest`) refuses the write with that answer.
 */
export interface ResourceHooks {
  /**
   * Before a create or update is written, after the body was validated and ownership applied: answers the
   * data to write (fill values, normalise empties, refuse with a 400 by field). Not called for recycling.
   */
  beforeChange?: (args: BeforeChangeArgs) => Promise<StoredRow> | StoredRow;
  /** After a create or update was written, in its transaction (write related records, check invariants). */
  afterChange?: (args: AfterChangeArgs) => Promise<void> | void;
  /**
   * After a record was deleted for good (also when its recycle-bin entry is purged), in the delete's
   * transaction: remove what only it held (a stored file).
   */
  afterRemove?: (args: AfterRemoveArgs) => Promise<void> | void;
}

/**
 * A refusal a hook can throw without importing the server's errors: answered with `status` and
 * `{ message, errors }` (400 by default).
 */
export class HookRefusal extends Error {
  constructor(
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly status = 400,
  ) {
    super(message);
  }
}
