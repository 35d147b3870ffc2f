/**
 * Dialog builders. The key a dialog is declared under in `dialogs` is its specification type name,
 * the name `openDialog(type, data)` opens it by.
 */
import type { ActionDialog, CreateDialog, DetailsDialog, RemoveDialog, UpdateDialog } from './types.ts';
import { messages } from './messages.ts';
import { parseCall } from './call.ts';

type Without<T, K extends keyof T> = Omit<T, K | 'kind'>;

export const dialog = {
  /** A form that creates a record from the picked fields. */
  create: (d: Without<CreateDialog, never>): CreateDialog => ({ kind: 'create', ...d }),
  /** A form opened with a record that changes its picked fields. */
  update: (d: Without<UpdateDialog, never>): UpdateDialog => ({ kind: 'update', ...d }),
  /** A form whose call a named server handler carries out. */
  action: (d: Without<ActionDialog, never>): ActionDialog => ({ kind: 'action', ...d }),
  /**
   * A delete confirmation; `failure` defaults to the specification's 'Someting went wrong.', and
   * `recycle` to whether the call's path ends in `/recycle`.
   */
  remove: (d: Without<RemoveDialog, 'failure'> & { failure?: string }): RemoveDialog => ({
    kind: 'remove',
    failure: messages.deleteFailed,
    recycle: /\/recycle$/.test(parseCall(d.call).path),
    ...d,
  }),
  /** A read-only view of the fields in `show`. */
  details: (d: Without<DetailsDialog, never>): DetailsDialog => ({ kind: 'details', ...d }),
};

/** The text of a form dialog's submit button: its own `submit`, else 'Create' on a create dialog, else 'Save'. */
export function submitLabel(d: { kind: string; submit?: string }): string {
  return d.submit ?? (d.kind === 'create' ? 'Create' : 'Save');
}
