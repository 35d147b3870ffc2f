/**
 * Which dialogs a list screen offers a role, and where (spec §2: every screen is a dialog opened by its
 * type). Read from the manifests, for every resource alike:
 *
 * - Toolbar: its create dialogs, and every action whose call is a `POST` without a path parameter (it
 *   makes a record as a create does: `createAgent` is `POST /agents`). The create dialog comes first
 *   (the list's main Create), then those actions in declaration order, each labelled by its title
 *   ('Create agent'). An action without a path parameter that is not a POST (`PATCH /users`, the
 *   signed-in user's own profile) makes nothing and is not offered here.
 * - Each row's Edit (and a click on the row): the first update or action dialog declared whose call has
 *   `{id}` and that the role may open. Declaration order is the rule, so a manifest puts the dialog
 *   that edits the whole record first (`updateAgent` before `agentCommissionModel`). A hand-written
 *   dialog (`component`) counts like any other.
 * - Each row's "More actions" menu: every other such dialog the role may open, then the dialogs of
 *   other resources the list names in `list.rowDialogs`, in that order. A form another list borrows
 *   so acts on that list's rows (`replaceAgentModal`'s `{id}` is an agent's): the rows of the resource
 *   that declares it (the replacements kept) do not offer it.
 * - Details and Delete: the first details and remove dialog the role may open. A details dialog the
 *   manifest did not declare (`implicit`: made so every list's rows open) only where the row has no Edit.
 *
 * Only what the role may open (`dialogAccess`, the same rule the server applies to the calls).
 */
import { parseCall, type DialogDef, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { dialogTitle } from '../dialogs/titles.ts';
import { mayCall } from './access.ts';

/** A dialog offered on a list: its type, its declaration and the resource that declares it. */
export interface Offered {
  type: string;
  dialog: DialogDef;
  resource: ResourceDef;
  /** What the button or menu item reads. */
  label: string;
}

/** What a list offers one role. */
export interface ListDialogs {
  /** Toolbar buttons, the main Create first. */
  creates: Offered[];
  /** A row's Edit, and what a click on a row opens (before `details`). */
  edit?: Offered;
  /** A row's "More actions" menu. */
  more: Offered[];
  details?: Offered;
  remove?: Offered;
}

const pathParams = (d: DialogDef) => ('call' in d ? parseCall(d.call).params : []);

/** An action that makes a record: a POST with no path parameter. */
const makesRecord = (d: DialogDef) => d.kind === 'action' && pathParams(d).length === 0 && parseCall(d.call).method === 'POST';

/** An update or action that changes the record whose id fills its `{id}`. */
export const actsOnRow = (d: DialogDef) => (d.kind === 'update' || d.kind === 'action') && pathParams(d).includes('id');

/** The update and action dialogs some list borrows (`list.rowDialogs`): they act on that list's rows. */
function borrowedForms(registry: Registry): Set<string> {
  const lent = new Set<string>();
  for (const r of registry.resources)
    for (const type of r.list?.rowDialogs ?? []) {
      const found = registry.dialog(type);
      if (found && actsOnRow(found.dialog)) lent.add(type);
    }
  return lent;
}

/** What `role` may open of `resource`'s list, as the module comment says. */
export function listDialogs(registry: Registry, resource: ResourceDef, role: unknown): ListDialogs {
  const offer = (owner: ResourceDef, type: string, dialog: DialogDef, label = dialogTitle(type, owner, dialog)): Offered => ({
    type,
    dialog,
    resource: owner,
    label,
  });
  const own = Object.entries(resource.dialogs).filter(([, d]) => mayCall(role, resource, { dialog: d }));
  const first = (kind: DialogDef['kind']) => {
    const found = own.find(([, d]) => d.kind === kind);
    return found && offer(resource, ...found);
  };

  const create = own.find(([, d]) => d.kind === 'create');
  const creates = [
    ...(create ? [offer(resource, create[0], create[1], (create[1].kind === 'create' && create[1].button) || 'Create')] : []),
    ...own.filter(([, d]) => makesRecord(d)).map(([type, d]) => offer(resource, type, d)),
  ];

  const lent = borrowedForms(registry);
  const [edit, ...others] = own.filter(([type, d]) => actsOnRow(d) && !lent.has(type)).map(([type, d]) => offer(resource, type, d));
  const borrowed = (resource.list?.rowDialogs ?? []).flatMap((type) => {
    const found = registry.dialog(type);
    return found && mayCall(role, found.resource, { dialog: found.dialog }) ? [offer(found.resource, type, found.dialog)] : [];
  });

  const details = first('details');
  const implicit = details?.dialog.kind === 'details' && details.dialog.implicit;
  return { creates, edit, more: [...others, ...borrowed], details: implicit && edit ? undefined : details, remove: first('remove') };
}

/**
 * What a row's dialog is opened with: the row, so `{id}` is the row's id. A form of another resource
 * gets the id alone and starts empty: the row's fields are not its fields, though they may share a
 * name (an agent's `name` is not the name of the person an agent's account is handed to).
 */
export function rowDialogData(offered: Pick<Offered, 'dialog' | 'resource'>, listResource: string, record: Record<string, unknown>) {
  if (offered.resource.name === listResource || offered.dialog.kind === 'details') return { ...record };
  // A borrowed form fills nothing from another resource's record: only its id, and the list its
  // `already` reads (who applied already).
  const already = 'already' in offered.dialog ? offered.dialog.already : undefined;
  return already ? { id: record.id, [already.field]: record[already.field] } : { id: record.id };
}

/**
 * The resource whose record a dialog's address (`#/agents?dialog=replaceAgentModal&id=…`) names: the
 * list's, when its rows borrow the dialog (`list.rowDialogs`), else the dialog's own. For the dialog
 * host's deep links (src/client/dialogs/deep-link.ts), which then open it with `rowDialogData`.
 */
export function addressedResource(registry: Registry, list: string | undefined, type: string): ResourceDef | undefined {
  const found = registry.dialog(type);
  if (!found) return undefined;
  const listResource = registry.resources.find((r) => r.name === list);
  return listResource?.list?.rowDialogs?.includes(type) ? listResource : found.resource;
}
