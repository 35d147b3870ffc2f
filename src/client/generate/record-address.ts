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
  return recordAddressOf(registry, target, role)(record);
}

/** `recordAddress` for many records of one target: what the role may open on it is worked out once. */
export function recordAddressOf(registry: Registry, target: ResourceDef, role: unknown): (record: Target | undefined) => string | undefined {
  if (target.reads.list?.kind !== 'list' || !mayList(target, role)) return () => undefined;
  const offered = listDialogs(registry, target, role);
  const dialog = offered.edit ?? offered.details;
  const filters = listOptions(target).filters;
  const unique = listFields(target).filter((f) => f.unique && filters.includes(f.name));
  return (record) => {
    if (!record || record.id === undefined || record.id === null || record.id === '') return undefined;
    if (dialog) return `/${target.name}${withDialog('', dialog.type, record.id)}`;
    const by = unique.find((f) => record[f.name] !== undefined)?.name ?? 'id';
    return `/${target.name}?${new URLSearchParams({ filter: JSON.stringify({ [by]: record[by] }) })}`;
  };
}
