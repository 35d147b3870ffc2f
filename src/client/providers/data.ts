/**
 * The stock ra-data-simple-rest provider, told where each resource lives: a resource's list is its
 * declared `reads.list` call (childCategories → `categories/child`), not a path made from its name.
 * A list read declared with `paging: 'page'` (`GET /api/gallery`) is asked `?page=&limit=` instead
 * of `range`, and answers `{ data, total }` in its body.
 * Writes never come through here: dialogs send their own declared calls (see dialogs/outcome.ts).
 * Reads may be cancelled (`supportAbortSignal`): react-query aborts what nobody waits for any longer.
 * The registry may be given as a loader: the app's first chunk then holds no manifest (and no zod).
 */
import simpleRestProvider from 'ra-data-simple-rest';
import {
  HttpError,
  type DataProvider,
  type GetListParams,
  type GetListResult,
  type GetManyParams,
  type GetManyReferenceParams,
  type GetOneParams,
} from 'react-admin';
import { fillPath, parseCall, urlOf, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { httpClient } from './http.ts';
import { ESTIMATED_HEADER } from '../../domain/list-total.ts';

/** The URL path of a resource's list read, without its leading slash (the provider adds it). */
export function listPath(resource: ResourceDef): string {
  const list = resource.reads.list;
  if (list?.kind !== 'list') throw new Error(`Resource '${resource.name}' declares no list read`);
  const { path, params } = parseCall(list.call);
  if (params.length) throw new Error(`Resource '${resource.name}': its list read needs '${params[0]}'`);
  return urlOf(path).slice(1);
}

/** Whether the resource's list read pages by `?page=&limit=` (answered `{ data, total }`). */
export function pagesByNumber(resource: ResourceDef): boolean {
  const list = resource.reads.list;
  return list?.kind === 'list' && list.paging === 'page';
}

type PageQuery = Pick<GetListParams, 'pagination' | 'sort' | 'filter' | 'signal'>;

/**
 * One page of a `paging: 'page'` list: `?page=1&limit=25` (1-based), with `sort` and `filter` as
 * simple-rest sends them. The body is `{ data, total, page, limit }`; a bare array is taken as the page.
 */
async function pageList(http: typeof httpClient, path: string, params: PageQuery): Promise<GetListResult> {
  const { page = 1, perPage = 25 } = params.pagination ?? {};
  const query = new URLSearchParams({ page: String(page), limit: String(perPage) });
  if (params.sort?.field) query.set('sort', JSON.stringify([params.sort.field, params.sort.order]));
  query.set('filter', JSON.stringify(params.filter ?? {}));
  const { json } = await http(`/${path}?${query}`, { signal: params.signal });
  const data = Array.isArray(json) ? json : Array.isArray(json?.data) ? json.data : undefined;
  if (!data) throw new HttpError('The list answer has no data.', 500, json);
  const total = typeof json?.total === 'number' ? json.total : Number(json?.total ?? data.length);
  return { data, total: Number.isFinite(total) ? total : data.length };
}

/** The one-record read by id, when the resource declares it. */
function oneByIdCall(resource: ResourceDef) {
  const read = Object.values(resource.reads).find((r) => r.kind === 'one' && (r.by ?? 'id') === 'id');
  return read && parseCall(read.call);
}

const writesGoThroughDialogs = (method: string) => () =>
  Promise.reject(new Error(`dataProvider.${method}: writes go through the resource's dialogs and their declared calls`));

export function createDataProvider(registry: Registry | (() => Promise<Registry>), http = httpClient): DataProvider {
  // The base is empty: each resource's path is its whole URL path (admin base or `/api/…`).
  const rest = simpleRestProvider('', http);
  // The registry once it has come, kept: asked for again at every call, its module's dynamic `import()`
  // resolved only in a later task, so every request waited for whatever the page drew meanwhile (a
  // search's, for one, went out after the list was drawn again for it: issue 51.10). Now only the first
  // call waits; the others reach `fetch` in the task that asks.
  let known = typeof registry === 'function' ? undefined : registry;
  const resourceOf = (name: string): ResourceDef | Promise<ResourceDef> =>
    known ? known.resource(name) : (registry as () => Promise<Registry>)().then((loaded) => (known = loaded).resource(name));
  async function getList(name: string, params: GetListParams) {
    const resource = await resourceOf(name);
    if (pagesByNumber(resource)) return pageList(http, listPath(resource), params);
    // The answer's headers, seen on the way: an estimated total (large PostgreSQL lists) is shown as "about N".
    let estimated = false;
    const seeing: typeof http = async (url, options) => {
      const answer = await http(url, options);
      estimated = answer.headers.get(ESTIMATED_HEADER) === 'true';
      return answer;
    };
    const result = await simpleRestProvider('', seeing).getList(listPath(resource), params);
    return estimated ? { ...result, meta: { ...result.meta, totalEstimated: true } } : result;
  }

  async function getMany(name: string, params: GetManyParams) {
    const resource = await resourceOf(name);
    if (!pagesByNumber(resource)) return rest.getMany(listPath(resource), params);
    if (!params.ids.length) return { data: [] };
    const { data } = await pageList(http, listPath(resource), {
      pagination: { page: 1, perPage: params.ids.length },
      filter: { id: params.ids },
      signal: params.signal,
    });
    return { data };
  }

  async function getManyReference(name: string, params: GetManyReferenceParams) {
    const resource = await resourceOf(name);
    if (!pagesByNumber(resource)) return rest.getManyReference(listPath(resource), params);
    return pageList(http, listPath(resource), { ...params, filter: { ...params.filter, [params.target]: params.id } });
  }

  async function getOne(name: string, params: GetOneParams) {
    const resource = await resourceOf(name);
    const one = oneByIdCall(resource);
    if (one) {
      const { json } = await http(urlOf(fillPath(one.path, { [one.params[0]]: params.id })), { signal: params.signal });
      return { data: json };
    }
    // Not every resource declares a one-read; the list answers `filter={"id":[…]}` for all of them.
    const { data } = await getMany(name, { ids: [params.id], signal: params.signal, meta: params.meta });
    const record = data.find((r) => String(r.id) === String(params.id));
    if (!record) throw new HttpError(`${resource.label} not found`, 404, { message: `${resource.label} not found` });
    return { data: record };
  }

  return {
    // react-query's signal reaches every read (each passes `params.signal` on): a search typed further, a
    // page turned again or a screen left cancels the request it no longer needs (issue 51.10), so the
    // answers that matter are not queued behind stale ones (a browser opens six connections to a host).
    supportAbortSignal: true,
    getList,
    getMany,
    getManyReference,
    getOne,
    create: writesGoThroughDialogs('create'),
    update: writesGoThroughDialogs('update'),
    updateMany: writesGoThroughDialogs('updateMany'),
    delete: writesGoThroughDialogs('delete'),
    deleteMany: writesGoThroughDialogs('deleteMany'),
  };
}
