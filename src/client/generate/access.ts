/** Who may see what, derived from the manifests' access declarations (spec §6). */
import type { Access, DialogDef, DialogKind, Registry, ResourceDef } from '../../manifest/index.ts';

import { accessOf, allows, dialogAccess, mayCall } from '../../manifest/index.ts';

export { allows, dialogAccess, mayCall };

/** Who may see a resource's list screen (`authorize`'s access for its `list` read). */
export function listAccess(resource: ResourceDef): Access {
  const list = resource.reads.list;
  return list ? accessOf(resource, { read: list }) : accessOf(resource, 'read');
}

/** Whether `role` may see the resource's list screen: the same decision the server's guard makes. */
export function mayList(resource: ResourceDef, role: unknown): boolean {
  const list = resource.reads.list;
  return mayCall(role, resource, list ? { read: list } : 'read');
}

/**
 * Whether `role` may read the records a reference field points at: a column, filter or details line of
 * a reference the role cannot read would only fetch a refusal (a seller's products name their seller's
 * account). An unknown role (`undefined`: permissions not loaded, no auth provider) is not judged.
 */
export function readsReference(registry: Registry, f: { kind: string; reference?: string }, role: unknown): boolean {
  return role === undefined || f.kind !== 'reference' || mayList(registry.resource(f.reference!), role);
}

/** The first dialog of `kind` the resource declares that `role` may open, as `[type, dialog]`. */
export function dialogFor(resource: ResourceDef, kind: DialogKind, role: unknown): [string, DialogDef] | undefined {
  return Object.entries(resource.dialogs).find(([, d]) => d.kind === kind && mayCall(role, resource, { dialog: d }));
}
