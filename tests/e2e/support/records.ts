/** What browser tests open dialogs on: the first record of each list, read through the API as a role. */
import type { ResourceDef, Role } from '../../../src/manifest/index.ts';
import { listPath, pagesByNumber } from '../../../src/client/providers/data.ts';
import type { TestServer } from '../../support/server.ts';

/**
 * The id of the first row of each resource's list as `role` reads it (by default the admin): with
 * ownership, another role's first row may be out of reach. Resources with an empty list are left out.
 */
export async function firstRecordIds(server: TestServer, resources: readonly ResourceDef[], role: Role = 'admin'): Promise<Map<string, string>> {
  const admin = await server.login(role);
  const ids = new Map<string, string>();
  for (const r of resources) {
    const query = pagesByNumber(r) ? { page: '1', limit: '1' } : { range: [0, 0] };
    const res = await server.api('GET', `/${listPath(r)}`, { cookie: admin, query });
    const rows = Array.isArray(res.body) ? res.body : res.body?.data;
    if (rows?.[0]?.id) ids.set(r.name, String(rows[0].id));
  }
  return ids;
}
