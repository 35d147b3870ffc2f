/**
 * All resources together: lookups by name and by dialog type, and the checks only the whole set can
 * make (references point at declared resources, dialog types and calls are declared once).
 */
import { parseCall } from './call.ts';
import type { Call, DialogDef, Embed, ResourceDef } from './types.ts';

export interface Registry {
  resources: readonly ResourceDef[];
  resource(name: string): ResourceDef;
  /** The dialog declared under a type name, with the resource that declares it. */
  dialog(type: string): { resource: ResourceDef; dialog: DialogDef } | undefined;
  /** Resources whose reference fields point at `name`: who counts as a child of it. */
  childrenOf(name: string): { resource: ResourceDef; field: string }[];
}

export function createRegistry(resources: readonly ResourceDef[]): Registry {
  const byName = new Map(resources.map((r) => [r.name, r]));
  const dialogs = new Map<string, { resource: ResourceDef; dialog: DialogDef }>();
  const calls = new Map<string, string>();
  const fail = (what: string) => {
    throw new Error(`Manifests: ${what}`);
  };
  if (byName.size !== resources.length) fail('a resource name is declared twice');
  const claim = (call: Call, owner: string) => {
    const { method, path } = parseCall(call);
    const key = `${method} ${path.replace(/\{\w+\}/g, '{}')}`;
    if (calls.has(key)) fail(`${call} is declared by both ${calls.get(key)} and ${owner}`);
    calls.set(key, owner);
  };
  for (const r of resources) {
    for (const f of r.fields) {
      if (f.kind !== 'reference') continue;
      const target = byName.get(f.reference!);
      if (!target) fail(`${r.name}.${f.name} points at unknown '${f.reference}'`);
      const by = f.referenceBy;
      if (by && !target!.fields.some((x) => x.name === by && x.unique)) fail(`${r.name}.${f.name}: '${by}' is not a unique field of ${target!.name}`);
      if (f.dependsOn) {
        // The target's `via` must hold what the parent field holds: the same resource by the same key,
        // and be filterable (the form asks the target's list filtered by it).
        const on = r.fields.find((x) => x.name === f.dependsOn!.field)!;
        const via = target!.fields.find((x) => x.name === f.dependsOn!.via);
        if (via?.kind !== 'reference' || via.reference !== on.reference || (via.referenceBy ?? 'id') !== (on.referenceBy ?? 'id') || !via.filterable)
          fail(`${r.name}.${f.name}: '${f.dependsOn.via}' of ${target!.name} is not a filterable reference to what '${on.name}' holds`);
      }
    }
    if (r.access.owner) {
      // Owners are accounts; a team is a field of the accounts naming the one it works under.
      const accounts = byName.get('users');
      const { via, field } = r.access.owner;
      const holder = via ? byName.get(r.fields.find((f) => f.name === via)!.reference!) : r;
      if (!holder?.fields.some((f) => f.name === field)) fail(`${r.name}: owner field '${field}' is not a field of ${holder?.name}`);
      for (const reach of Object.values(r.access.owner.roles)) {
        if (reach && typeof reach === 'object' && 'team' in reach && !accounts?.fields.some((f) => f.name === reach.team))
          fail(`${r.name}: owner team '${reach.team}' is not a field of users`);
        // A party is named by a reference to the accounts in the record itself.
        if (reach && typeof reach === 'object' && 'party' in reach) {
          const f = r.fields.find((x) => x.name === reach.party);
          if (f?.kind !== 'reference' || f.reference !== 'users') fail(`${r.name}: owner party '${reach.party}' is not a reference to users`);
        }
        if (reach && typeof reach === 'object' && 'through' in reach) {
          // Owned through sub-records: an items field, a reference sub-field, the owner field of its target.
          const { items, via: sub, field: held } = reach.through;
          // A list read from another resource has no child table to reach through.
          const list = r.fields.find((f) => f.name === items && f.kind === 'items' && !f.items?.related);
          const ref = list?.items?.fields.find((f) => f.name === sub && f.kind === 'reference');
          const target = ref && byName.get(ref.reference!);
          if (!target?.fields.some((f) => f.name === held)) fail(`${r.name}: owner through '${items}.${sub}' does not reach a field '${held}'`);
        }
      }
    }
    for (const f of r.fields) {
      const from = f.items?.related;
      if (!from) continue;
      // A list read from another resource: that resource's reference to this one, and its fields.
      const source = byName.get(from.resource);
      const by = source?.fields.find((x) => x.name === from.by);
      if (!source || by?.kind !== 'reference' || by.reference !== r.name) fail(`${r.name}.${f.name}: '${from.resource}.${from.by}' is not a reference to ${r.name}`);
      for (const sub of f.items!.fields)
        if (sub.name !== 'id' && !source!.fields.some((x) => x.name === sub.name && x.kind !== 'items'))
          fail(`${r.name}.${f.name}: '${sub.name}' is not a field of ${from.resource}`);
    }
    for (const [name, read] of Object.entries(r.reads)) {
      const through = read.kind === 'list' ? read.scope?.through : undefined;
      if (!through || read.kind !== 'list') continue;
      const f = r.fields.find((x) => x.name === read.scope!.field);
      if (f?.reference !== 'users' || !byName.get('users')?.fields.some((x) => x.name === through))
        fail(`${r.name}.${name}: a scope through '${through}' needs a field referencing users, which has '${through}'`);
    }
    for (const [type, d] of Object.entries(r.dialogs)) {
      if (dialogs.has(type)) fail(`dialog type '${type}' is declared twice`);
      dialogs.set(type, { resource: r, dialog: d });
      if ('call' in d) claim(d.call, `${r.name}.${type}`);
    }
    for (const [name, op] of Object.entries(r.operations)) claim(op.call, `${r.name}.${name}`);
    if (r.defaultRecord) {
      claim(r.defaultRecord.read, `${r.name}.defaultRecord`);
      claim(r.defaultRecord.write, `${r.name}.defaultRecord`);
    }
    if (r.list?.reorder) claim(r.list.reorder.call, `${r.name}.reorder`);
    for (const [name, read] of Object.entries(r.reads)) {
      claim(read.call, `${r.name}.${name}`);
      if ('embed' in read && read.embed) checkEmbed(r, read.embed);
    }
  }
  // A list's row dialogs of other resources (ListBehaviour.rowDialogs): each must act on one row of it.
  for (const r of resources)
    for (const type of r.list?.rowDialogs ?? []) {
      const found = dialogs.get(type);
      if (!found) fail(`${r.name}: list rowDialogs names unknown dialog '${type}'`);
      const d = found!.dialog;
      if (d.kind === 'details' ? !d.view : !(d.kind === 'update' || d.kind === 'action') || !parseCall(d.call).params.includes('id'))
        fail(`${r.name}: row dialog '${type}' must be an update or action whose call has {id}, or a details dialog with a view`);
      // A dialog acting on another resource's record (`on`) is offered by that resource's list, and the
      // list it opens with must hold what its `already` reads.
      if (d.kind === 'action' && d.on && d.on !== r.name) fail(`${r.name}: row dialog '${type}' acts on ${d.on}'s records`);
      if ('pick' in d && d.already && !r.fields.some((f) => f.name === d.already!.field && f.kind === 'items'))
        fail(`${r.name}: row dialog '${type}' reads '${d.already.field}', not an items field of ${r.name}`);
    }
  for (const [type, { dialog: d }] of dialogs)
    if (d.kind === 'action' && d.on && !byName.has(d.on)) fail(`dialog ${type}: on names unknown resource '${d.on}'`);
  function checkEmbed(r: ResourceDef, embed: Embed) {
    for (const [key, e] of Object.entries(embed)) {
      const f = r.fields.find((x) => x.name === e.via);
      if (f?.kind !== 'reference') fail(`${r.name}: embed '${key}' must go via a reference field`);
      if (e.embed) checkEmbed(byName.get(f!.reference!)!, e.embed);
    }
  }
  return {
    resources,
    resource(name) {
      const r = byName.get(name);
      if (!r) throw new Error(`Unknown resource '${name}'`);
      return r;
    },
    dialog: (type) => dialogs.get(type),
    childrenOf: (name) =>
      resources.flatMap((r) =>
        r.fields.filter((f) => f.kind === 'reference' && f.reference === name).map((f) => ({ resource: r, field: f.name })),
      ),
  };
}
