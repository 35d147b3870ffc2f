/**
 * What a resource's dialogs offer, judged over the whole declaration (issue 51: "each action means what
 * it says"): every listed resource's rows open something (a details dialog is made where none is
 * declared), and an update dialog offers what the create offers the same roles.
 */
import { allows } from './authorize.ts';
import type { Access, DetailsDialog, DialogDef, ResourceDef } from './types.ts';

/** The type name of the details dialog `implicitDetails` makes: `countriesDetails`. */
export const implicitDetailsType = (r: Pick<ResourceDef, 'name'>) => `${r.name}Details`;

/**
 * The dialogs with a details dialog added when the resource has a list screen and declares none: its
 * fields but secrets, read-only (`implicit`: a list offers it only where the row has no Edit).
 */
export function withImplicitDetails(r: Pick<ResourceDef, 'name' | 'fields' | 'reads' | 'dialogs'>): Record<string, DialogDef> {
  if (!r.reads.list || Object.values(r.dialogs).some((d) => d.kind === 'details') || implicitDetailsType(r) in r.dialogs) return r.dialogs;
  const show = r.fields.filter((f) => !f.secret).map((f) => f.name);
  const details: DetailsDialog = { kind: 'details', show, implicit: true };
  return { ...r.dialogs, [implicitDetailsType(r)]: details };
}

/** Whether two accesses share a role. */
function overlap(a: Access, b: Access): boolean {
  if (a === 'signedIn' || b === 'signedIn') return true;
  return a.some((role) => allows(b, role));
}

/**
 * The fields a create dialog offers that an update dialog of the same resource, open to some of the same
 * roles, does not: each `{ create, update, field }`. Secrets (a password is changed by its own dialog) and
 * `setOnce` fields are not counted. A review by other roles (an admin's review of a seller's upload) is
 * not that create's update and is not compared. Should be empty for every resource (tests/unit/offers.test.ts).
 */
export function updateGaps(r: ResourceDef, accessOf: (d: DialogDef) => Access): { create: string; update: string; field: string }[] {
  const entries = Object.entries(r.dialogs);
  const out: { create: string; update: string; field: string }[] = [];
  for (const [create, c] of entries) {
    if (c.kind !== 'create') continue;
    for (const [update, u] of entries) {
      if (u.kind !== 'update' || !overlap(accessOf(c), accessOf(u))) continue;
      for (const name of c.pick) {
        const f = r.fields.find((x) => x.name === name);
        if (f?.secret || f?.setOnce || u.pick.includes(name)) continue;
        out.push({ create, update, field: name });
      }
    }
  }
  return out;
}
