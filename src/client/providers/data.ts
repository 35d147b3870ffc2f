/**
 * The stock ra-data-simple-rest provider, told where each resource lives: a resource's list is its
 * declared `reads.list` call (childCategories → `categories/child`), not a path made from its name.
 * Writes never come through here: dialogs send their own declared calls (see dialogs/outcome.ts).
 * The registry may be given as a loader: the app's first chunk then holds no manifest (and no zod).
 */
import simpleRestProvider from 'ra-data-simple-rest';
import { HttpError, type DataProvider, type GetOneParams } from 'react-admin';
import { fillPath, parseCall, urlOf, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { httpClient } from './http.ts';

/** The URL path of a resource's list read, without its leading slash (the provider adds it). */
export function listPath(resource: ResourceDef): string {
  const list = resource.reads.list;
  if (list?.kind !== 'list') throw new Error(`Resource '${resource.name}' declares no list read`);
  const { path, params } = parseCall(list.call);
  if (params.length) throw new Error(`Resource '${resource.name}': its list read needs '${params[0]}'`);
  return urlOf(path).slice(1);
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
  const resourceOf = async (name: string) => (typeof registry === 'function' ? await registry() : registry).resource(name);
  const path = async (name: string) => listPath(await resourceOf(name));

  async function getOne(name: string, params: GetOneParams) {
    const resource = await resourceOf(name);
    const one = oneByIdCall(resource);
    if (one) {
      const { json } = await http(urlOf(fillPath(one.path, { [one.params[0]]: params.id })), { signal: params.signal });
      return { data: json };
    }
    // Not every resource declares a one-read; the list answers `filter={"id":[…]}` for all of them.
    const { data } = await rest.getMany(await path(name), { ids: [params.id], signal: params.signal, meta: params.meta });
    const record = data.find((r) => String(r.id) === String(params.id));
    if (!record) throw new HttpError(`${resource.label} not found`, 404, { message: `${resource.label} not found` });
    return { data: record };
  }

  return {
    getList: async (name, params) => rest.getList(await path(name), params),
    getMany: async (name, params) => rest.getMany(await path(name), params),
    getManyReference: async (name, params) => rest.getManyReference(await path(name), params),
    getOne,
    create: writesGoThroughDialogs('create'),
    update: writesGoThroughDialogs('update'),
    updateMany: writesGoThroughDialogs('updateMany'),
    delete: writesGoThroughDialogs('delete'),
    deleteMany: writesGoThroughDialogs('deleteMany'),
  };
}
