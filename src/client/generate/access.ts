/** Who may see what, derived from the manifests' access declarations (spec §6). */
import type { Access, DialogDef, DialogKind, ResourceDef } from '../../manifest/index.ts';

import { allows, dialogAccess } from '../../manifest/index.ts';

export { allows, dialogAccess };

/** Who may see a resource's list screen. */
export function listAccess(resource: ResourceDef): Access {
  const list = resource.reads.list;
  return (list && list.access) ?? resource.access.read;
}

/** The first dialog of `kind` the resource declares that `role` may open, as `[type, dialog]`. */
export function dialogFor(resource: ResourceDef, kind: DialogKind, role: unknown): [string, DialogDef] | undefined {
  return Object.entries(resource.dialogs).find(([, d]) => d.kind === kind && allows(dialogAccess(resource, d), role));
}
