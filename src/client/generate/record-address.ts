/**
 * Where a reference to a record leads (a child category's parent, a currency's country): the record's
 * own dialog, by its address (`/categories?dialog=updateCategory&id=…`: the list opens and shows it),
 * the row's Edit dialog when the role may use one (list-dialogs.ts), else its details; a record no
 * dialog shows opens its list filtered to it, by a unique field the list filters by (a country's
 * code), else by its id.
 * Nowhere when the role may not read the target's list.
 */
import { listFields, listOptions, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { withDialog } from '../dialogs/address.ts';
import { listDialogs } from './list-dialogs.ts';
import { mayList } from './access.ts';

type Target = Record<string, unknown> & { id?: unknown };

/** The in-app path (for react-admin's router) of `record` of `target`, or undefined when none is open to `role`. */
export function recordAddress(registry: Registry, target: ResourceDef, record: Target | undefined, role: unknown): string | undefined {
  if (!record || record.id === undefined || record.id === null || record.id === '') return undefined;
  if (target.reads.list?.kind !== 'list' || !mayList(target, role)) return undefined;
  const offered = listDialogs(registry, target, role);
  const dialog = offered.edit ?? offered.details;
  if (dialog) return `/${target.name}${withDialog('', dialog.type, record.id)}`;
  const filters = listOptions(target).filters;
  const by = listFields(target).find((f) => f.unique && filters.includes(f.name) && record[f.name] !== undefined)?.name ?? 'id';
  return `/${target.name}?${new URLSearchParams({ filter: JSON.stringify({ [by]: record[by] }) })}`;
}
