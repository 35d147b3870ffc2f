/**
 * `defineResource` fills a resource's defaults and refuses a manifest that contradicts itself
 * (a dialog picking a field that does not exist, a call without its path parameter), so a mistake
 * fails when the manifest loads rather than at a user's click.
 */
import { parseCall } from './call.ts';
import { checkJobs } from './jobs.ts';
import { checkStates, transitionsOf } from './states.ts';
import { itemsProblem } from './items.ts';
import { isFilterable, isSortable, TIMESTAMP_FIELDS, timestampFields } from './list.ts';
import { withImplicitDetails } from './offers.ts';
import { UPLOAD_ENDPOINTS, type ActionDialog, type CreateDialog, type UpdateDialog, type DialogDef, type FieldDef, type NotifyDef, type Embed, type ReadDef, type ResourceDef, type ResourceInput } from './types.ts';

export function defineResource(input: ResourceInput): ResourceDef {
  const title = input.title ?? 'name';
  const titleField = input.fields.find((f) => f.name === title);
  const r: ResourceDef = {
    title: 'name',
    // By the title when the list sorts by it (a title the list does not show is not sortable), else by id.
    sort: { field: !titleField || isSortable(titleField) ? title : 'id', order: 'ASC' },
    reads: {},
    dialogs: {},
    operations: {},
    ...input,
  };
  const fieldNames = new Set(r.fields.map((f) => f.name));
  const fail = (what: string) => {
    throw new Error(`Manifest '${r.name}': ${what}`);
  };
  if (fieldNames.has('id')) fail(`'id' is implicit; do not declare it`);
  if (fieldNames.size !== r.fields.length) fail('a field is declared twice');
  const known = (name: string) => name === 'id' || fieldNames.has(name);
  if (!known(r.title)) fail(`title field '${r.title}' is not declared`);
  if (!known(r.sort.field)) fail(`sort field '${r.sort.field}' is not declared`);
  // The list asks for its default order on every load: a field the server will not sort by would
  // answer every list 400 ('Cannot sort by …').
  const sortField = [...r.fields, ...timestampFields(r)].find((f) => f.name === r.sort.field);
  if (r.reads.list && sortField && !isSortable(sortField)) fail(`sort field '${r.sort.field}' is not sortable`);
  for (const f of r.fields) {
    if (f.kind === 'slug' && !(f.from && fieldNames.has(f.from))) fail(`slug '${f.name}' comes from an unknown field`);
    if (f.kind === 'select' && !f.options?.length) fail(`select '${f.name}' has no options`);
    if (f.kind === 'reference' && !f.reference) fail(`reference '${f.name}' names no resource`);
    if (f.kind === 'items' && itemsProblem(f)) fail(itemsProblem(f)!);
    if (f.kind === 'items' && f.items?.fields.some((sub) => sub.dependsOn)) fail(`items '${f.name}': a sub-field cannot depend on another`);
    if (f.upload && !UPLOAD_ENDPOINTS.includes(f.upload.endpoint)) fail(`field '${f.name}' uploads to unknown endpoint`);
    if (f.upload && f.kind !== 'image' && f.kind !== 'file') fail(`field '${f.name}': only image and file fields upload`);
    if (f.fill && !fieldNames.has(f.fill.from)) fail(`field '${f.name}' is filled from an unknown field`);
    if (f.drawn && !(f.upload && fieldNames.has(f.drawn.from))) fail(`field '${f.name}' is drawn without upload or source`);
    if (f.dependsOn) {
      // Whether the target holds the parent as `via` is the registry's to check (it knows the target).
      const on = r.fields.find((x) => x.name === f.dependsOn!.field);
      if (f.kind !== 'reference') fail(`field '${f.name}': only a reference depends on another`);
      if (on?.kind !== 'reference' || on === f) fail(`field '${f.name}' depends on '${f.dependsOn.field}', which is not another reference of it`);
    }
  }
  const fieldOf = (name: string) => r.fields.find((f) => f.name === name);
  const { reorder, toggle, upload } = r.list ?? {};
  if (reorder && fieldOf(reorder.field)?.kind !== 'number') fail(`list reorder field '${reorder.field}' must be a number`);
  if (toggle && fieldOf(toggle)?.kind !== 'boolean') fail(`list toggle '${toggle}' must be a boolean field`);
  if (toggle && !Object.values(r.dialogs).some((d) => d.kind === 'update' && d.pick.includes(toggle)))
    fail(`list toggle '${toggle}' needs an update dialog that picks it`);
  if (upload && !UPLOAD_ENDPOINTS.includes(upload.endpoint)) fail('list upload names an unknown endpoint');
  // Another resource's dialogs only (the registry checks they exist and act on a row): the list offers its own anyway.
  const rowDialogs = r.list?.rowDialogs ?? [];
  if (new Set(rowDialogs).size !== rowDialogs.length) fail('list rowDialogs names a dialog twice');
  for (const type of rowDialogs) if (type in r.dialogs) fail(`list rowDialogs names its own dialog '${type}'`);
  for (const [name, op] of Object.entries(r.operations)) {
    parseCall(op.call); // throws on a malformed call
    if (!op.handler) fail(`operation ${name} names no handler`);
  }
  for (const [type, d] of Object.entries(r.dialogs)) {
    checkDialog(type, d, known, fail);
    if ('pick' in d) checkOnly(type, d, r.fields, fail);
  }
  for (const [name, declared] of [...Object.entries(r.dialogs), ...Object.entries(r.operations)])
    if ('notify' in declared && declared.notify) checkNotify(r, name, declared.notify, fail);
  // Ownership is part of the one access declaration; a manifest outside the typecheck may still say it apart.
  if ('owner' in input) fail(`'owner' is declared inside 'access' (access: { read, write, owner })`);
  if (r.access.owner) {
    const { field: ownerField, via } = r.access.owner;
    if (via ? fieldOf(via)?.kind !== 'reference' : !fieldNames.has(ownerField))
      fail(via ? `owner goes via '${via}', which is not a reference field` : `owner field '${ownerField}' is not declared`);
  }
  for (const f of r.fields)
    if (f.computed) for (const from of f.computed.from) if (!fieldNames.has(from)) fail(`field '${f.name}' is computed from unknown field '${from}'`);
  // The bin keeps the whole row to restore it; a password hash has no business being kept there.
  if (Object.values(r.dialogs).some((d) => d.kind === 'remove' && d.recycle) && r.fields.some((f) => f.secret))
    fail('a resource with a password cannot be recycled');
  for (const [name, read] of Object.entries(r.reads)) checkRead(name, read, known, fail);
  checkJobs(r.jobs, fieldNames, fail);
  checkStates(r, fail);
  for (const { transition: t } of transitionsOf(r)) if (t.notify) checkNotify(r, `transition ${t.name}`, t.notify, fail);
  for (const w of r.waiting ?? [])
    for (const name of Object.keys(w.filter)) {
      const f = r.fields.find((x) => x.name === name);
      if (!f || !isFilterable(f)) fail(`waiting '${w.label}': '${name}' is not a filterable field`);
    }
  if (r.single) {
    const { field: one, while: holds } = r.single;
    if (!fieldNames.has(one) || !r.access.owner || r.access.owner.via) fail(`single '${one}' needs a declared field and an owner field of its own`);
    for (const name of Object.keys(holds)) if (!fieldNames.has(name)) fail(`single: while names unknown field '${name}'`);
  }
  // Every list's rows open something (issue 51): a listed resource without a details dialog gets one.
  r.dialogs = withImplicitDetails(r);
  return r;
}

function checkDialog(type: string, d: DialogDef, known: (n: string) => boolean, fail: (w: string) => never) {
  if ('pick' in d) for (const p of d.pick) if (!known(p)) fail(`dialog ${type} picks unknown field '${p}'`);
  // A details dialog may also show when the record was made or changed: every record has both.
  if ('show' in d) for (const p of d.show) if (!known(p) && !TIMESTAMP_FIELDS.some((t) => t.name === p)) fail(`dialog ${type} shows unknown field '${p}'`);
  if (d.component !== undefined && typeof d.component !== 'function') fail(`dialog ${type}: component must be a loader (() => import(…))`);
  if ('pick' in d) {
    for (const p of d.optional ?? []) if (!d.pick.includes(p)) fail(`dialog ${type}: optional '${p}' is not picked`);
    for (const p of Object.keys(d.wire ?? {})) if (!d.pick.includes(p)) fail(`dialog ${type}: wire '${p}' is not picked`);
  }
  if ('call' in d) {
    const { params } = parseCall(d.call);
    if ((d.kind === 'update' || d.kind === 'remove') && !params.includes('id')) fail(`dialog ${type} call has no {id}`);
    if (d.kind === 'create' && params.length) fail(`dialog ${type}: a create call takes no path parameter`);
  }
}

/** A dialog's `only` narrows a picked select field to some of its options, never to none or to others. */
function checkOnly(type: string, d: CreateDialog | UpdateDialog | ActionDialog, fields: readonly FieldDef[], fail: (w: string) => never) {
  for (const [name, only] of Object.entries(d.only ?? {})) {
    const f = fields.find((x) => x.name === name);
    if (!f || !d.pick.includes(name) || f.kind !== 'select' || !f.options) fail(`dialog ${type}: only '${name}' is not a picked select field`);
    if (!only.values.length) fail(`dialog ${type}: only '${name}' offers no value`);
    for (const v of only.values) if (!f.options.includes(v)) fail(`dialog ${type}: only '${name}' offers '${v}', which the field does not allow`);
  }
}

function checkRead(name: string, read: ReadDef, known: (n: string) => boolean, fail: (w: string) => never) {
  const { method, params } = parseCall(read.call);
  if (method !== 'GET') fail(`read ${name} is not a GET`);
  if (read.kind === 'one' && params.length !== (read.value === undefined ? 1 : 0))
    fail(`read ${name} needs exactly one path parameter, or none with a fixed value`);
  if (read.kind === 'grouped' && !known(read.by)) fail(`read ${name} groups by unknown field '${read.by}'`);
  if (read.kind === 'one' && read.by && !known(read.by)) fail(`read ${name} looks up unknown field '${read.by}'`);
  if (read.kind === 'list' && read.scope && !known(read.scope.field)) fail(`read ${name} scopes by unknown field`);
  if ('embed' in read && read.embed) checkEmbed(read.embed, known, fail);
}

function checkEmbed(embed: Embed, known: (n: string) => boolean, fail: (w: string) => never) {
  // Only the first level can be checked here; deeper levels name fields of other resources (registry checks).
  for (const [key, e] of Object.entries(embed)) if (!known(e.via)) fail(`embed '${key}' goes via unknown field`);
}

/**
 * A notification's declaration: `'owner'` needs an owner found on the record itself, and no text may
 * name a secret field (a password must never reach a notification).
 */
function checkNotify(r: ResourceDef, name: string, notify: NotifyDef | readonly NotifyDef[], fail: (w: string) => never) {
  const secrets = new Set(r.fields.filter((f) => f.secret).map((f) => f.name));
  for (const n of Array.isArray(notify) ? notify : [notify as NotifyDef]) {
    if (n.to === 'owner' && (!r.access.owner || r.access.owner.via)) fail(`${name} notifies the owner, but the resource declares no owner field of its own`);
    if (typeof n.to === 'object' && !n.to.field) fail(`${name} notifies a field but names none`);
    if (!n.title.trim() || !n.message.trim() || !n.category.trim()) fail(`${name} notifies without a title, message or category`);
    for (const [, field] of `${n.title} ${n.message}`.matchAll(/\{(\w+)\}/g))
      if (secrets.has(field)) fail(`${name} notifies with the secret field '${field}'`);
  }
}
