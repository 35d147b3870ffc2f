/** Who may do what, from the manifests' access declarations (spec §6). Client and server both ask here. */
import type { Access, DialogDef, ResourceDef } from './types.ts';

/** Whether a signed-in user with `role` passes `access`. Without a role nobody does. */
export function allows(access: Access, role: unknown): boolean {
  if (typeof role !== 'string' || !role) return false;
  return access === 'signedIn' || (access as readonly string[]).includes(role);
}

/** A dialog's access: its own; else a details dialog reads (`read` access) and the others write. */
export function dialogAccess(resource: ResourceDef, dialog: DialogDef): Access {
  return dialog.access ?? (dialog.kind === 'details' ? resource.access.read : resource.access.write);
}
