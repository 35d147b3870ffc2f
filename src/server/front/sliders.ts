/**
 * `GET /api/front/sliders?type=ADMINS|AGENTS|DEALERS|SELLERS&page&limit` (spec §7, §9): the people the
 * storefront's sliders show, `{ data: [...] }`, each entry with §9's fallbacks (src/domain/sliders.ts).
 *
 * Public, unlike every admin route: the storefront shows the sliders to visitors who are not signed in.
 * That is safe because an entry holds only what a slider shows (names, places, images, the public
 * agent and dealer ids): `fillSliderEntry` keeps nothing else, and only those columns are read, so an
 * email, a phone or a hash never leaves the database. Any origin may read it (no cookie is involved).
 */
import type { FastifyInstance } from 'fastify';
import type { Registry, ResourceDef } from '../../manifest/index.ts';
import { fillSliderEntry, parseSliderQuery, type SliderType } from '../../domain/sliders.ts';
import type { Db, Row } from '../db/types.ts';
import { badRequest } from '../errors.ts';

/** Where the route is served. */
export const SLIDERS_PATH = '/api/front/sliders';
const ACCOUNTS = 'users';

/**
 * Where each type's entries are read from: a profile resource of resources/accounts.ts when it is
 * declared (agents, dealers, sellers), else the accounts of that role. `columns` are what the slider
 * shows (§3); a seller's image is its account's (`userImage`: the profile's owner field, users.id).
 */
interface Source {
  table: string;
  role?: string;
  columns: string[];
  userImage?: string;
}

const SHOWN: Record<SliderType, { profile?: string; role: string; columns: string[] }> = {
  ADMINS: { role: 'admin', columns: ['name', 'country', 'image'] },
  AGENTS: { profile: 'agents', role: 'agent', columns: ['name', 'image', 'country', 'city', 'district', 'agentId'] },
  DEALERS: { profile: 'dealers', role: 'dealer', columns: ['name', 'city', 'country', 'district', 'image', 'dealerId'] },
  SELLERS: { profile: 'sellers', role: 'seller', columns: ['shopname', 'name', 'country', 'image'] },
};

const declared = (r: ResourceDef, names: string[]) => names.filter((n) => r.fields.some((f) => f.name === n && !f.secret));

function profileOf(registry: Registry, name: string | undefined): ResourceDef | undefined {
  return name ? registry.resources.find((r) => r.name === name) : undefined;
}

/** The source of a type's entries, from what the manifests declare today. */
export function sliderSource(registry: Registry, type: SliderType): Source {
  const shown = SHOWN[type];
  const profile = profileOf(registry, shown.profile);
  if (!profile) return { table: ACCOUNTS, role: shown.role, columns: declared(registry.resource(ACCOUNTS), shown.columns) };
  const owner = profile.access.owner && !profile.access.owner.via ? profile.access.owner.field : undefined;
  // §3: a seller's slider shows its account's image, not one of the shop's.
  const userImage = type === 'SELLERS' && owner ? owner : undefined;
  return {
    table: profile.name,
    columns: declared(profile, userImage ? shown.columns.filter((c) => c !== 'image') : shown.columns),
    userImage,
  };
}

/** One page of a type's entries, filled. */
async function entries(db: Db, source: Source, type: SliderType, page: number, limit: number) {
  const t = source.table;
  let query = db
    .selectFrom(t)
    .select(source.columns.map((c) => `${t}.${c}`))
    .orderBy(`${t}.id`)
    .limit(limit)
    .offset((page - 1) * limit);
  if (source.role) query = query.where(`${t}.role`, '=', source.role);
  if (source.userImage)
    query = query.leftJoin(`${ACCOUNTS} as account`, 'account.id', `${t}.${source.userImage}`).select('account.image as userImage');
  const rows = (await query.execute()) as Row[];
  return rows.map((row) => fillSliderEntry(type, { ...row, user: { image: row.userImage } }));
}

/** The tables a type's answer is read from: a write to any of them makes a kept answer stale. */
const tablesOf = (source: Source) => (source.table === ACCOUNTS || !source.userImage ? [source.table] : [source.table, ACCOUNTS]);

export function registerSliders(app: FastifyInstance, db: Db, registry: Registry) {
  app.get(SLIDERS_PATH, async (request, reply) => {
    const parsed = parseSliderQuery(request.query as Record<string, unknown>);
    if (!parsed.ok) throw badRequest(parsed.message, parsed.errors);
    const { type, page, limit } = parsed.value;
    const source = sliderSource(registry, type);
    const data = await app.readCache.get(`sliders ${type} ${page} ${limit}`, tablesOf(source), () => entries(db, source, type, page, limit));
    reply.header('Access-Control-Allow-Origin', '*');
    return { data };
  });
}
