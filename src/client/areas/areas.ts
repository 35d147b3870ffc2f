/**
 * Role areas (spec §2 "a link to the agent area (/agent) or the seller area (/seller)"): every role but
 * the admin has an area of its own at `/<role>`, where it lands after signing in; the admin lands on
 * the admin dashboard (`/`). Which lists a role's sidebar and area offer is read from the manifests.
 */
import { ROLES, type ResourceDef, type Role } from '../../manifest/index.ts';
import { listAccess } from '../generate/access.ts';
import { mayCall, mayList } from '../generate/access.ts';

/** The roles with an area of their own. */
export const AREA_ROLES = ROLES.filter((r): r is Exclude<Role, 'admin'> => r !== 'admin');
export type AreaRole = (typeof AREA_ROLES)[number];

/** Each area's title (the screen's heading and its menu entry). */
export const AREA_TITLES: Readonly<Record<AreaRole, string>> = {
  seller: 'Seller area',
  dealer: 'Dealer area',
  agent: 'Agent area',
  user: 'My account',
  support: 'Support area',
};

export const isAreaRole = (role: unknown): role is AreaRole => typeof role === 'string' && (AREA_ROLES as readonly string[]).includes(role);

/** Where a role lands after signing in: its area, or the admin dashboard. */
export function homeOf(role: unknown): string {
  return isAreaRole(role) ? `/${role}` : '/';
}

/**
 * Whether the role may use the resource, not only read it: its list access names the role, or the
 * role may open one of its forms (a create, update, delete or action) or row operations, or the role
 * is the admin, who runs the whole site and is offered every list it may read. Lists every signed-in
 * role may read (the catalogue, the site's content) are reference data for a seller: its forms pick
 * categories from them, its sidebar need not list them. Their screens stay reachable by address
 * (deep links), for the roles that may read them. A form another resource lends the list's rows
 * (`list.rowDialogs`: applying, on the jobs) counts as the list's own; `resources` are where it is found.
 */
export function mayUse(r: ResourceDef, role: unknown, resources: readonly ResourceDef[] = []): boolean {
  const read = listAccess(r);
  if (!mayList(r, role)) return false;
  if (read !== 'signedIn' || role === 'admin') return true;
  const forms = Object.values(r.dialogs).some((d) => d.kind !== 'details' && mayCall(role, r, { dialog: d }));
  const rowOperations = Object.values(r.operations).some((op) => op.row && mayCall(role, r, { operation: op }));
  const borrowed = (r.list?.rowDialogs ?? []).some((type) => {
    const owner = resources.find((x) => x.dialogs[type]);
    return !!owner && mayCall(role, owner, { dialog: owner.dialogs[type] });
  });
  return forms || rowOperations || borrowed;
}

/** The lists a role's sidebar and area offer, in registry order. */
export function usableLists(resources: readonly ResourceDef[], role: unknown): ResourceDef[] {
  return resources.filter((r) => r.reads.list?.kind === 'list' && mayUse(r, role, resources));
}
