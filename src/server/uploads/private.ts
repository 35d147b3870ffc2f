/**
 * Who may fetch a file of a private upload endpoint (src/manifest/uploads.ts): its uploader, and whoever
 * may read a record that holds it. A record holds a file when one of its fields that upload to that
 * endpoint names the file's URL (`/sellers/documents` records' `file`), and the media record of the
 * upload holds it by its path. "May read" is the record's own decision: its resource's read roles and
 * its owner rule (`whereReachable`, as every read of the record applies it), so a dealer reads its
 * sellers' documents and not another dealer's. Everyone else is answered as if the file did not exist.
 */
import type { FastifyRequest } from 'fastify';
import { allows, type Registry, type ResourceDef, type UploadEndpoint } from '../../manifest/index.ts';
import { ASSETS_PATH } from '../../manifest/uploads.ts';
import { MEDIA } from '../../../resources/system.ts';
import type { Db, Row } from '../db/types.ts';
import { likeBound, likeLiteral } from '../db/like.ts';
import { reachOf, whereReachable } from '../records/ownership.ts';

/** A resource and its fields whose value names a stored file of an endpoint (the media table by its path). */
interface Holder {
  resource: ResourceDef;
  fields: string[];
  /** `path`: the value is the stored path itself; `url`: it is a URL that ends with ASSETS_PATH/<path>. */
  by: 'path' | 'url';
}

/** The resources whose records may hold a file of `endpoint`, from the manifests' upload declarations. */
export function holdersOf(registry: Registry, endpoint: UploadEndpoint): Holder[] {
  const holders: Holder[] = [{ resource: registry.resource(MEDIA), fields: ['path'], by: 'path' }];
  for (const r of registry.resources) {
    const fields = r.fields.filter((f) => f.upload?.endpoint === endpoint).map((f) => f.name);
    if (fields.length && r.name !== MEDIA) holders.push({ resource: r, fields, by: 'url' });
  }
  return holders;
}

/**
 * Whether the signed-in user of `request` may fetch the stored file at `path` of the private
 * `endpoint`: they uploaded it, or a record holding it is within their read.
 */
export async function mayFetchPrivate(db: Db, registry: Registry, request: FastifyRequest, endpoint: UploadEndpoint, path: string): Promise<boolean> {
  const user = request.user as Row | undefined;
  if (!user || typeof user.id !== 'string') return false;
  const uploaded = await db.selectFrom(MEDIA).select('id').where('path', '=', path).where('uploadedBy', '=', user.id).executeTakeFirst();
  if (uploaded) return true;
  // The URL a record keeps may name this host or another (a proxy's): what it ends with is the file.
  const pattern = `%${likeLiteral(`${ASSETS_PATH}/${path}`)}`;
  for (const { resource, fields, by } of holdersOf(registry, endpoint)) {
    if (!allows(resource.access.read, user.role)) continue;
    const reach = reachOf(resource, user);
    if (reach.kind === 'none') continue;
    const query = db
      .selectFrom(resource.name)
      .select(`${resource.name}.id`)
      .where((eb) => eb.or(fields.map((f) => (by === 'path' ? eb(`${resource.name}.${f}`, '=', path) : likeBound(db, eb.ref(`${resource.name}.${f}`), pattern)))));
    if (await whereReachable(registry, resource, reach, query).executeTakeFirst()) return true;
  }
  return false;
}
