/**
 * The four scenarios, each spoken in every server's own dialect: a sorted page, a filtered and sorted
 * page, one record by id, and a create. Ours in ra-data-simple-rest under the manifest's paths,
 * json-server 0.17 in `_sort/_order/_start/_end`, the ceiling as constant answers of the same size.
 */
import { SHOP_SEARCH_PATH } from '../../src/features/cart/shop-query.ts';
import type { FieldDef } from '../../src/manifest/index.ts';
import { API_BASE, fillPath, isFilterable, listOptions, parseCall, type Registry, type ResourceDef } from '../../src/manifest/index.ts';
import { createSampler, prng } from '../../src/domain/sample.ts';
import type { RequestSpec } from './measure.ts';
import { sortField, type Seeded } from './seed.ts';
import { containing, platformaticCreate, platformaticPage } from './peers/platformatic.ts';

export type ScenarioKey = 'sorted' | 'deep' | 'filtered' | 'search' | 'one' | 'create' | 'shopSearch';
/** The servers every run measures, and the peers a run may add (`--peers platformatic`). */
export type ServerKey = 'ours' | 'jsonServer' | 'ceiling' | 'platformatic';
export const SERVERS: ServerKey[] = ['ours', 'jsonServer', 'ceiling'];
export const SERVER_LABELS: Record<ServerKey, string> = { ours: 'ours', jsonServer: 'json-server', ceiling: 'ceiling', platformatic: 'Platformatic' };

export interface Scenario {
  key: ScenarioKey;
  /** What is asked, in words. */
  label: string;
  ours: RequestSpec;
  jsonServer: RequestSpec;
  /** The ceiling's request; its answer is set from ours' after the preflight. */
  ceiling: RequestSpec;
  /** The ceiling's route (Fastify syntax) and the status it answers. */
  ceilingRoute: { method: 'GET' | 'POST'; url: string; status: number };
  /** Checks what both answered is the same thing (same page, same total). */
  compare?: 'page' | 'one' | 'created';
  /** Platformatic DB's request (`--peers platformatic`), where it has one: compared with ours' by `compare`. */
  platformatic?: RequestSpec;
}

export interface ScenarioContext {
  registry: Registry;
  resource: ResourceDef;
  seeded: Seeded;
  cookie: string;
  /** The session creates are made with: a role the create dialog allows (a seller's, for products). */
  createCookie?: string;
  seed: number;
  /**
   * Make every read's URL unique with a `_=<n>` parameter (jQuery's cache buster, which json-server
   * ignores by design and ours ignores as unknown): a server that caches answers by URL then shows what
   * its database path costs, not its cache. Ours keys its cache by the query it runs, so the parameter
   * does not get past it: a cold run starts ours with its cache off (index.ts).
   */
  cold?: boolean;
  /**
   * Ask Platformatic DB too (scripts/bench/peers/platformatic.ts), and search the title (scenario
   * `search`, which only a peer run adds): `ownerId` is the id of the account creates are made as (ours
   * makes it their owner; Platformatic is sent it).
   */
  platformatic?: { ownerId?: string };
}

/** The same request with `_=<n>` appended, n counting up, on top of any variation it has. */
function bust(spec: RequestSpec): RequestSpec {
  let n = 0;
  const inner = spec.next;
  return {
    ...spec,
    next: () => {
      const change = inner?.() ?? {};
      const path = change.path ?? spec.path;
      return { ...change, path: `${path}${path.includes('?') ? '&' : '?'}_=${++n}` };
    },
  };
}

const q = (params: Record<string, unknown>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`)
    .join('&');

/** The most frequent word of the records' titles that cannot also match an id or a date by accident. */
export function commonWord(rows: Record<string, unknown>[], field: string): { word: string; rows: number } {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const words = new Set(String(row[field] ?? '').toLowerCase().split(/[^a-z0-9]+/));
    for (const w of words) if (w.length >= 3 && /[g-z]/.test(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  const [word, n] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0] ?? ['a', 0];
  return { word, rows: n };
}

export function buildScenarios(ctx: ScenarioContext): { scenarios: Scenario[]; notes: string[] } {
  const { registry, resource: r, seeded, cookie } = ctx;
  const rows = seeded.rows.get(r.name)!;
  const notes: string[] = [];
  const listRead = r.reads.list;
  if (listRead?.kind !== 'list') throw new Error(`${r.name} has no 'list' read to bench`);
  const listCall = parseCall(listRead.call);
  if (listCall.params.length) throw new Error(`${r.name}: its list read ${listRead.call} needs path parameters`);
  const listPath = API_BASE + listCall.path;
  const headers = { cookie };
  const field = sortField(r);
  const page = { sort: [field, 'ASC'], range: [0, 24] };
  const jsonPage = `_sort=${encodeURIComponent(field)}&_order=asc&_start=0&_end=25`;
  const scenarios: Scenario[] = [];

  scenarios.push({
    key: 'sorted',
    label: `first page of 25 sorted by ${field}`,
    ours: { method: 'GET', path: `${listPath}?${q(page)}`, headers },
    jsonServer: { method: 'GET', path: `/${r.name}?${jsonPage}`, headers },
    ceiling: { method: 'GET', path: `/ceiling/sorted?${q(page)}`, headers },
    ceilingRoute: { method: 'GET', url: '/ceiling/sorted', status: 200 },
    compare: 'page',
    ...(ctx.platformatic && { platformatic: { method: 'GET', path: platformaticPage(r.name, { sort: field }) } }),
  });

  // Deep: a page at 90% of the sorted list (large benches only, seed.ts). Ours is asked by keyset (`after`, the
  // row before it), as a client paging on would; json-server and the ceiling by offset.
  if (seeded.deep) {
    const { offset, after } = seeded.deep;
    const deepPage = { sort: [field, 'ASC'], range: [offset, offset + 24] };
    scenarios.push({
      key: 'deep',
      label: `page of 25 sorted by ${field} at offset ${offset.toLocaleString('en')} (ours by keyset: after the row before it)`,
      ours: { method: 'GET', path: `${listPath}?${q({ ...deepPage, after })}`, headers },
      jsonServer: { method: 'GET', path: `/${r.name}?_sort=${encodeURIComponent(field)}&_order=asc&_start=${offset}&_end=${offset + 25}`, headers },
      ceiling: { method: 'GET', path: `/ceiling/deep?${q(deepPage)}`, headers },
      ceilingRoute: { method: 'GET', url: '/ceiling/deep', status: 200 },
      compare: 'page',
    });
  }

  // Filtered: by the parent with the most children when there is a parent, else a search of a common word.
  const reference = r.fields.find((f) => f.kind === 'reference' && isFilterable(f) && seeded.childCounts.has(f.name));
  const searchable = listOptions(r, registry).search;
  if (reference) {
    const [parent, children] = [...seeded.childCounts.get(reference.name)!].sort((a, b) => b[1] - a[1])[0];
    const filter = { [reference.name]: parent };
    scenarios.push({
      key: 'filtered',
      label: `page of 25 by ${field} where ${reference.name} = the parent with most children (${children} rows)`,
      ours: { method: 'GET', path: `${listPath}?${q({ ...page, filter })}`, headers },
      jsonServer: { method: 'GET', path: `/${r.name}?${reference.name}=${parent}&${jsonPage}`, headers },
      ceiling: { method: 'GET', path: `/ceiling/filtered?${q({ ...page, filter })}`, headers },
      ceilingRoute: { method: 'GET', url: '/ceiling/filtered', status: 200 },
      compare: 'page',
      ...(ctx.platformatic && { platformatic: { method: 'GET', path: platformaticPage(r.name, { sort: field, where: { [reference.name]: ['eq', parent] } }) } }),
    });
  } else if (searchable.length) {
    const { word, rows: matches } = commonWord(rows, searchable.includes(r.title) ? r.title : searchable[0]);
    const filter = { q: word };
    scenarios.push({
      key: 'filtered',
      label: `page of 25 by ${field} searching '${word}' (${matches} rows)`,
      ours: { method: 'GET', path: `${listPath}?${q({ ...page, filter })}`, headers },
      jsonServer: { method: 'GET', path: `/${r.name}?q=${encodeURIComponent(word)}&${jsonPage}`, headers },
      ceiling: { method: 'GET', path: `/ceiling/filtered?${q({ ...page, filter })}`, headers },
      ceilingRoute: { method: 'GET', url: '/ceiling/filtered', status: 200 },
      compare: 'page',
      ...(ctx.platformatic && {
        platformatic: { method: 'GET', path: platformaticPage(r.name, { sort: field, where: { [searchable.includes(r.title) ? r.title : searchable[0]]: ['ilike', containing(word)] } }) },
      }),
    });
    notes.push(
      `filtered: ${r.name} has no parent to filter by, so it searches '${word}'; json-server's q matches every field (slug too), ours the searchable ones (${searchable.join(', ')}).`,
    );
  } else notes.push(`filtered: ${r.name} has neither a parent nor a searchable field; skipped.`);

  // Search (peer runs): a page of the title's substring matches, the most common word of the titles.
  // Ours' list search (`filter={"q":…}`, its searchable fields); json-server's `<title>_like` (a regular
  // expression, case-insensitive, the title alone); Platformatic's `where.<title>.ilike=%…%`.
  if (ctx.platformatic && reference && searchable.includes(r.title)) {
    const { word, rows: matches } = commonWord(rows, r.title);
    const filter = { q: word };
    scenarios.push({
      key: 'search',
      label: `page of 25 by ${field} searching '${word}' in ${r.title} (${matches} rows)`,
      ours: { method: 'GET', path: `${listPath}?${q({ ...page, filter })}`, headers },
      jsonServer: { method: 'GET', path: `/${r.name}?${encodeURIComponent(r.title)}_like=${encodeURIComponent(word)}&${jsonPage}`, headers },
      ceiling: { method: 'GET', path: `/ceiling/search-title?${q({ ...page, filter })}`, headers },
      ceilingRoute: { method: 'GET', url: '/ceiling/search-title', status: 200 },
      compare: 'page',
      platformatic: { method: 'GET', path: platformaticPage(r.name, { sort: field, where: { [r.title]: ['ilike', containing(word)] } }) },
    });
    if (searchable.length > 1)
      notes.push(`search: ours searches ${searchable.join(', ')} for '${word}', the others ${r.title} alone; the check below says whether the pages were the same.`);
  }

  // The search modal's results (issue 53 point 5: p99 within 25 ms at 50,000 products): the public shop
  // search by a name's text, the words of the products' names in rotation, and by an exact id. json-server
  // has no such call: its `q` over every field with the status filter is the nearest (no answer compared).
  if (r.name === 'products') {
    const words = [...new Set(rows.flatMap((row) => String(row.name ?? '').toLowerCase().split(/[^a-z]+/)).filter((w) => w.length >= 4))].slice(0, 200);
    const ids = rows.slice(0, 200).map((row) => String(row.id));
    let i = 0;
    const nextQuery = () => {
      const n = i++;
      return n % 4 === 3 ? { q: ids[n % ids.length], type: 'id' } : { q: words[n % words.length], type: 'name' };
    };
    const first = nextQuery();
    i = 0;
    const ours = (p: { q: string; type: string }) => `${SHOP_SEARCH_PATH}?${q(p)}`;
    const json = (p: { q: string; type: string }) => (p.type === 'id' ? `/products/${p.q}` : `/products?q=${encodeURIComponent(p.q)}&comissionStatus=APPROVED&_start=0&_end=24`);
    scenarios.push({
      key: 'shopSearch',
      label: `search modal's results: a name's word (${words.length} in rotation), every fourth an exact id`,
      ours: { method: 'GET', path: ours(first), headers: {}, next: () => ({ path: ours(nextQuery()) }) },
      jsonServer: { method: 'GET', path: json(first), headers: {}, next: () => ({ path: json(nextQuery()) }) },
      ceiling: { method: 'GET', path: '/ceiling/search', headers: {} },
      ceilingRoute: { method: 'GET', url: '/ceiling/search', status: 200 },
    });
  }

  // One record by id, rotating through a thousand existing ids (the same order for every server).
  const one = Object.entries(r.reads).find(([name, x]) => x.kind === 'one' && (x.by ?? 'id') === 'id' && name === 'one')?.[1]
    ?? Object.values(r.reads).find((x) => x.kind === 'one' && (x.by ?? 'id') === 'id');
  if (one) {
    const rng = prng(ctx.seed + 7);
    const ids = Array.from({ length: Math.min(1000, rows.length) }, () => rows[rng.int(rows.length)].id as string);
    const rotate = (make: (id: string) => string) => {
      let i = 0;
      return () => ({ path: make(ids[i++ % ids.length]) });
    };
    const onePath = API_BASE + parseCall(one.call).path;
    const oursPath = (id: string) => fillPath(onePath, { id });
    scenarios.push({
      key: 'one',
      label: `one record by id (${ids.length} ids in rotation)`,
      ours: { method: 'GET', path: oursPath(ids[0]), headers, next: rotate(oursPath) },
      jsonServer: { method: 'GET', path: `/${r.name}/${ids[0]}`, headers, next: rotate((id) => `/${r.name}/${id}`) },
      ceiling: { method: 'GET', path: `/ceiling/one/${ids[0]}`, headers, next: rotate((id) => `/ceiling/one/${id}`) },
      ceilingRoute: { method: 'GET', url: '/ceiling/one/:id', status: 200 },
      compare: 'one',
      ...(ctx.platformatic && { platformatic: { method: 'GET', path: `/${r.name}/${ids[0]}`, next: rotate((id) => `/${r.name}/${id}`) } as RequestSpec }),
    });
  } else notes.push(`one: ${r.name} declares no read of one record by id; skipped.`);

  // Create through the resource's create dialog, a fresh valid body each request (same bodies, same order, for every server).
  const create = Object.entries(r.dialogs).find(([, d]) => d.kind === 'create');
  if (create && 'call' in create[1] && !parseCall(create[1].call).params.length) {
    const [type, d] = create;
    const parents = new Map(
      r.fields.filter((f) => f.kind === 'reference').map((f) => [f.name, seeded.rows.get(f.reference!)!.map((p) => p.id as string)]),
    );
    const bodies = () => {
      const sampler = createSampler({ seed: ctx.seed + 1000, uniqueNames: true });
      // A dependent reference (a child category) is one under the parent sampled before it, and a parent
      // one with a whole line of children below it (the category tree's four levels), so every body is valid.
      const dependents = (f: FieldDef) => r.fields.filter((g) => g.dependsOn?.field === f.name);
      const viable = new Map<string, Set<string>>();
      const viableOf = (f: FieldDef): Set<string> => {
        const known = viable.get(f.name);
        if (known) return known;
        let ids = new Set(parents.get(f.name)!);
        for (const g of dependents(f)) {
          const below = viableOf(g);
          const held = new Set(seeded.rows.get(g.reference!)!.filter((c) => below.has(c.id as string)).map((c) => String(c[g.dependsOn!.via])));
          ids = new Set([...ids].filter((id) => held.has(id)));
        }
        viable.set(f.name, ids);
        return ids;
      };
      const reference = (f: FieldDef, _target: string, values: Record<string, unknown>) => {
        let pool = [...viableOf(f)];
        if (f.dependsOn && values[f.dependsOn.field] !== undefined) {
          const parent = values[f.dependsOn.field];
          const rows = new Map(seeded.rows.get(f.reference!)!.map((c) => [c.id as string, c]));
          pool = pool.filter((id) => rows.get(id)?.[f.dependsOn!.via] === parent);
        }
        if (!pool.length) pool = parents.get(f.name)!;
        return pool[sampler.rng.int(pool.length)];
      };
      return () => ({ body: JSON.stringify(sampler.body(r, d, { reference })) });
    };
    const post = (path: string): RequestSpec => {
      const next = bodies();
      return { method: 'POST', path, headers: { cookie: ctx.createCookie ?? cookie, 'content-type': 'application/json' }, body: next().body, next };
    };
    scenarios.push({
      key: 'create',
      label: `create through ${type} (${'pick' in d ? d.pick.join(', ') : ''}), a new valid body each request`,
      ours: post(API_BASE + parseCall(d.call).path),
      jsonServer: post(`/${r.name}`),
      ceiling: post('/ceiling/create'),
      ceilingRoute: { method: 'POST', url: '/ceiling/create', status: 201 },
      compare: 'created',
      ...(ctx.platformatic && {
        platformatic: platformaticCreate(r.name, post(`/${r.name}`), {
          ownerField: r.access?.owner && !r.access.owner.via ? r.access.owner.field : undefined,
          ownerId: ctx.platformatic.ownerId,
          // A slug ours makes from its source field when left empty (spec §5): sent to Platformatic, unique.
          uniques: r.fields.filter((f) => f.kind === 'slug').map((f) => ({ field: f.name, from: f.from ?? r.title })),
        }),
      }),
    });
  } else notes.push(`create: ${r.name} declares no create dialog with a plain path; skipped.`);

  if (ctx.cold) {
    for (const s of scenarios)
      if (s.ours.method === 'GET') {
        for (const k of ['ours', 'jsonServer', 'ceiling'] as const) s[k] = bust(s[k]);
        if (s.platformatic) s.platformatic = bust(s.platformatic);
      }
    notes.push('cold: every read carried a unique `_=<n>` parameter, so no answer could come from a cache keyed by URL (ours ignores it: see its read cache below).');
  }
  return { scenarios, notes };
}
