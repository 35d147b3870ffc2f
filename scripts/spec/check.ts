/**
 * The spec check's logic, pure: manifests (a registry) against the catalogue, as a report. A catalogue
 * property left undefined is never compared. "Declared" per kind:
 * - dialog: `registry.dialog(type)` exists;
 * - entity: a resource's label equals the entity's name or an alias (ignoring case and punctuation);
 * - message: a field rule gives it (probed), or it is a dialog's success/failure/missing text; but when
 *   the entity's resource declares the field, that field's rule must give it (a mismatch otherwise);
 *   a widget's message (§5 Upload) is declared when a manifest uses the widget (a field or a list
 *   that uploads) and the widget's texts (src/manifest/uploads.ts) give it;
 * - endpoint: a dialog or read call has the same method and path (params, query, trailing slash ignored);
 * - error text: a dialog text, a shared text of src/manifest/messages.ts, or a rule message.
 * A declared call the spec lacks is information, except a mutation on a path the spec mutates with
 * another verb, or a call the spec puts under the other base: those contradict it.
 */
import { messages as sharedMessages } from '../../src/manifest/messages.ts';
import { uploadMessages } from '../../src/manifest/uploads.ts';

/** The upload widget's texts as the spec writes them, with 'N' for the count. */
const { validationTitle, totalExceeded, tooMany, noFilesTitle, noFiles, selectWarning } = uploadMessages;
const uploadTexts = [validationTitle, totalExceeded('N' as never), tooMany('N' as never), noFilesTitle, noFiles, selectWarning('N' as never)];
import type { DialogDef, Registry, ResourceDef } from '../../src/manifest/index.ts';
import { callKey, keyPath, labelKey, sameText } from './normalise.ts';
import { generalProbes, ruleMessages } from './probe.ts';
import type { Catalogue, SpecDialog, SpecEntity, SpecMessage } from './types.ts';

export const KINDS = ['dialogs', 'entities', 'messages', 'endpoints', 'errors'] as const;
export type Kind = (typeof KINDS)[number];

export interface Coverage {
  total: number;
  declared: string[];
  missing: string[];
}

export interface Finding {
  kind: 'dialog' | 'entity' | 'message' | 'endpoint' | 'resource';
  /** What it is about: a dialog type, an entity, a call. */
  subject: string;
  detail: string;
}

export type SpecReport = Record<Kind, Coverage> & { mismatches: Finding[]; extras: Finding[] };

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * What is declared outside the manifests: the hand-written routes (documented in the OpenAPI document's
 * fixed routes: sign-in, the storefront's sliders) and texts of hand-written parts (the sliders' load
 * errors). Counted as declared like a manifest's; never compared field by field.
 */
export interface HandWritten {
  /** Calls as `'GET /api/front/sliders'` (relative to the admin base, or under `/api/`), with who serves them. */
  calls?: readonly { call: string; owner: string }[];
  texts?: readonly string[];
  /**
   * §3 shapes served by hand-written code rather than a resource (the slider entries a front route
   * answers, the referral record kept in browser storage), each with the fields its code declares: a
   * spec field the code does not declare is a mismatch, as for a resource.
   */
  entities?: readonly { name: string; owner: string; fields: readonly string[] }[];
  /**
   * §2 dialog types drawn by hand-written code outside the record dialogs (the search modal: it calls
   * nothing and opens with no record; it navigates to the shop's results).
   */
  dialogs?: readonly { type: string; owner: string }[];
}

export function checkSpec(registry: Pick<Registry, 'resources' | 'dialog'>, catalogue: Catalogue, handWritten: HandWritten = {}): SpecReport {
  const mismatches: Finding[] = [];
  const extras: Finding[] = [];
  const ctx = declaredModel(registry, catalogue);
  for (const { call, owner } of handWritten.calls ?? []) {
    const entry = ctx.calls.get(callKey(call)) ?? { call, owners: [] };
    entry.owners.push(owner);
    ctx.calls.set(callKey(call), entry);
  }
  for (const text of handWritten.texts ?? []) ctx.dialogTexts.add(text);
  return {
    dialogs: checkDialogs(registry, catalogue, mismatches, extras, handWritten.dialogs ?? []),
    entities: checkEntities(ctx, catalogue, mismatches, extras, handWritten.entities ?? []),
    messages: checkMessages(ctx, catalogue, mismatches, extras),
    endpoints: checkEndpoints(ctx, catalogue, mismatches, extras),
    errors: checkErrors(ctx, catalogue),
    mismatches,
    extras,
  };
}

/** What the manifests declare, gathered once. */
interface Declared {
  resources: readonly ResourceDef[];
  resourcesOf(entity: SpecEntity): ResourceDef[];
  /** Declared calls by comparison key, with who declares them (`categories.list`, `createCategory`). */
  calls: Map<string, { call: string; owners: string[] }>;
  /** Custom rule messages and the `resource.field`s whose rule gives them. */
  ruleMessages: Map<string, Set<string>>;
  /** Success, failure and missing texts of every dialog. */
  dialogTexts: Set<string>;
  /** The texts of the widgets the manifests use, by the catalogue's name of the widget ('Upload'). */
  widgetTexts: Map<string, readonly string[]>;
}

function declaredModel(registry: Pick<Registry, 'resources'>, catalogue: Catalogue): Declared {
  const resources = registry.resources;
  const probes = [...generalProbes, ...catalogue.messages.flatMap((m) => m.probes ?? [])];
  const calls = new Map<string, { call: string; owners: string[] }>();
  const rules = new Map<string, Set<string>>();
  const dialogTexts = new Set<string>();
  const widgetTexts = new Map<string, readonly string[]>();
  const addCall = (call: string, owner: string) => {
    const entry = calls.get(callKey(call)) ?? { call, owners: [] };
    entry.owners.push(owner);
    calls.set(callKey(call), entry);
  };
  for (const r of resources) {
    for (const f of r.fields) {
      if (!f.rule) continue;
      for (const message of ruleMessages(f.rule, probes)) {
        const owners = rules.get(message) ?? new Set<string>();
        owners.add(`${r.name}.${f.name}`);
        rules.set(message, owners);
      }
    }
    for (const [type, d] of Object.entries(r.dialogs)) {
      if ('call' in d) addCall(d.call, type);
      for (const text of dialogTextsOf(d)) dialogTexts.add(text);
    }
    for (const [name, read] of Object.entries(r.reads)) {
      addCall(read.call, `${r.name}.${name}`);
      if (read.kind === 'one' && read.notFound) dialogTexts.add(read.notFound);
    }
    for (const [name, op] of Object.entries(r.operations ?? {})) addCall(op.call, `${r.name}.${name}`);
    if (r.defaultRecord) {
      addCall(r.defaultRecord.read, `${r.name}.defaultRecord`);
      addCall(r.defaultRecord.write, `${r.name}.defaultRecord`);
    }
    if (r.list?.reorder) addCall(r.list.reorder.call, `${r.name}.reorder`);
    if (r.list?.failure) dialogTexts.add(r.list.failure.title).add(r.list.failure.message);
    if (r.list?.upload || r.fields.some((f) => f.upload)) widgetTexts.set('Upload', uploadTexts);
  }
  return {
    resources,
    resourcesOf: (entity) => {
      const names = new Set([entity.name, ...(entity.aliases ?? [])].map(labelKey));
      return resources.filter((r) => names.has(labelKey(r.label)));
    },
    calls,
    ruleMessages: rules,
    dialogTexts,
    widgetTexts,
  };
}

function dialogTextsOf(d: DialogDef): string[] {
  const texts: (string | undefined)[] = [];
  if ('success' in d) texts.push(d.success);
  if ('failure' in d) texts.push(d.failure);
  if ('missing' in d) texts.push(d.missing);
  if ('pick' in d) texts.push(d.successTitle, d.failureFallback, d.already?.title, d.already?.message);
  return texts.filter((t): t is string => typeof t === 'string');
}

// ---- dialogs ----------------------------------------------------------------------------------

function checkDialogs(
  registry: Pick<Registry, 'resources' | 'dialog'>,
  catalogue: Catalogue,
  mismatches: Finding[],
  extras: Finding[],
  handWritten: NonNullable<HandWritten['dialogs']>,
): Coverage {
  const coverage = emptyCoverage(catalogue.dialogs.length);
  for (const spec of catalogue.dialogs) {
    const found = registry.dialog(spec.type);
    if (!found && handWritten.some((h) => h.type === spec.type)) {
      coverage.declared.push(spec.type);
      continue;
    }
    if (!found) {
      coverage.missing.push(spec.type);
      continue;
    }
    coverage.declared.push(spec.type);
    for (const detail of compareDialog(spec, found.dialog, catalogue.missingPattern))
      mismatches.push({ kind: 'dialog', subject: spec.type, detail });
  }
  for (const r of registry.resources)
    for (const type of Object.keys(r.dialogs)) {
      if (catalogue.dialogs.some((d) => d.type === type)) continue;
      // The spec's type names are misspelled on purpose (qrcodedeatils); point at a near miss.
      // A type of our own (CRUD the spec names calls for but no dialog) is information; a near miss
      // of a spec name is a misspelling that would leave the spec's type unopenable, so it is a mismatch.
      const near = nearest(type, catalogue.dialogs.map((d) => d.type));
      if (near)
        mismatches.push({ kind: 'dialog', subject: type, detail: `declared by ${r.name} but not a spec dialog type (the spec spells it '${near}')` });
      else extras.push({ kind: 'dialog', subject: type, detail: `declared by ${r.name}; not a spec dialog type` });
    }
  return coverage;
}

/** The spec name within two edits of `name` (case and punctuation aside), if any. */
function nearest(name: string, names: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of names) {
    const distance = editDistance(labelKey(name), labelKey(candidate));
    if (distance <= 2 && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** Form, delete and view are different things; create, update and action are all forms. */
const family = (kind: string) => (kind === 'remove' || kind === 'details' ? kind : 'form');
const list = (xs: readonly string[]) => `[${xs.join(', ')}]`;

function compareDialog(spec: SpecDialog, d: DialogDef, missingPattern: RegExp): string[] {
  const out: string[] = [];
  if (spec.kind && family(spec.kind) !== family(d.kind)) out.push(`kind: spec ${spec.kind}, declared ${d.kind}`);
  if (spec.call) {
    if (!('call' in d)) out.push(`call: spec '${spec.call}', declared none`);
    else if (callKey(spec.call) !== callKey(d.call)) out.push(`call: spec '${spec.call}', declared '${d.call}'`);
  }
  if (spec.fields) {
    const declared = 'pick' in d ? d.pick : 'show' in d ? d.show : [];
    const lacking = spec.fields.filter((f) => !declared.includes(f));
    // A field beyond the spec's is no mismatch when the dialog may leave it out (`optional`): the body
    // the spec names is still taken as it is (a sub-child category's update may also move it).
    const optional: readonly string[] = ('optional' in d && d.optional) || [];
    const surplus = declared.filter((f) => !spec.fields!.includes(f) && !optional.includes(f));
    if (lacking.length || surplus.length)
      out.push(`fields: spec ${list(spec.fields)}, declared ${list(declared)}`);
  }
  const declared = {
    failure: 'failure' in d ? d.failure : undefined,
    success: 'success' in d ? d.success : undefined,
    missing: 'missing' in d ? d.missing : undefined,
  };
  for (const name of ['failure', 'success', 'missing'] as const) {
    const expected = spec[name];
    if (expected !== undefined && declared[name] !== expected)
      out.push(`${name}: spec '${expected}', declared ${quote(declared[name])}`);
  }
  if (d.kind === 'remove' && !spec.missing && !missingPattern.test(d.missing))
    out.push(`missing: '${d.missing}' is not of the spec's form '... is missing.'`);
  return out;
}

const quote = (v: unknown) => (typeof v === 'string' ? `'${v}'` : 'none');

// ---- entities ---------------------------------------------------------------------------------

function checkEntities(
  ctx: Declared,
  catalogue: Catalogue,
  mismatches: Finding[],
  extras: Finding[],
  handWritten: NonNullable<HandWritten['entities']>,
): Coverage {
  const coverage = emptyCoverage(catalogue.entities.length);
  const specFieldsOf = new Map<ResourceDef, Set<string>>();
  for (const entity of catalogue.entities) {
    const resources = ctx.resourcesOf(entity);
    const shapes = handWritten.filter((h) => labelKey(h.name) === labelKey(entity.name));
    (resources.length || shapes.length ? coverage.declared : coverage.missing).push(entity.name);
    for (const shape of shapes)
      for (const f of entity.fields)
        if (!shape.fields.includes(f))
          mismatches.push({ kind: 'entity', subject: entity.name, detail: `field '${f}' is not declared by ${shape.owner}` });
    for (const r of resources) {
      const known = specFieldsOf.get(r) ?? new Set<string>();
      // An entity whose fields are not shown says nothing about the resource's fields.
      if (!entity.fieldsShown) known.add('*');
      for (const f of entity.fields) {
        known.add(f);
        if (f !== 'id' && !r.fields.some((x) => x.name === f))
          mismatches.push({
            kind: 'entity',
            subject: entity.name,
            detail: `field '${f}' is not declared by resource ${r.name}`,
          });
      }
      specFieldsOf.set(r, known);
    }
  }
  for (const r of ctx.resources) {
    const known = specFieldsOf.get(r);
    if (!known) {
      extras.push({ kind: 'resource', subject: r.name, detail: `label '${r.label}' names no §3 entity` });
      continue;
    }
    if (known.has('*')) continue;
    const surplus = r.fields.map((f) => f.name).filter((f) => !known.has(f));
    if (surplus.length)
      extras.push({ kind: 'entity', subject: r.label, detail: `fields not in §3 on ${r.name}: ${surplus.join(', ')}` });
  }
  return coverage;
}

// ---- messages ---------------------------------------------------------------------------------

export function messageName(m: SpecMessage): string {
  return `${m.entity ?? m.widget}${m.field ? `.${m.field}` : ''}: ${m.message}`;
}

function checkMessages(ctx: Declared, catalogue: Catalogue, mismatches: Finding[], extras: Finding[]): Coverage {
  const coverage = emptyCoverage(catalogue.messages.length);
  const producersOf = (message: string) =>
    [...ctx.ruleMessages].filter(([text]) => sameText(message, text)).flatMap(([, owners]) => [...owners]);
  for (const m of catalogue.messages) {
    const name = messageName(m);
    const producers = producersOf(m.message);
    // The resource fields that should carry it: the entity's declared field(s).
    const entity = catalogue.entities.find((e) => e.name === m.entity);
    const homes = (entity ? ctx.resourcesOf(entity) : []).flatMap((r) =>
      r.fields.filter((f) => !m.field || f.name === m.field).map((f) => `${r.name}.${f.name}`),
    );
    let declared: boolean;
    if (homes.length) {
      declared = homes.some((h) => producers.includes(h));
      if (!declared)
        mismatches.push({ kind: 'message', subject: name, detail: `no rule of ${homes.join(' / ')} gives it` });
    } else {
      const texts = [...ctx.dialogTexts, ...((m.widget && ctx.widgetTexts.get(m.widget)) || [])];
      declared = producers.length > 0 || texts.some((t) => sameText(m.message, t));
    }
    (declared ? coverage.declared : coverage.missing).push(name);
  }
  const specTexts = [...catalogue.messages.map((m) => m.message), ...catalogue.errors.map((e) => e.text)];
  for (const [text, owners] of ctx.ruleMessages)
    if (!specTexts.some((s) => sameText(s, text)))
      extras.push({ kind: 'message', subject: [...owners].join(', '), detail: `'${text}' is not a spec message` });
  return coverage;
}

// ---- endpoints --------------------------------------------------------------------------------

function checkEndpoints(ctx: Declared, catalogue: Catalogue, mismatches: Finding[], extras: Finding[]): Coverage {
  const coverage = emptyCoverage(catalogue.endpoints.length);
  const spec = new Map(catalogue.endpoints.map((e) => [callKey(`${e.method} ${e.path}`), e]));
  for (const [key, e] of spec) (ctx.calls.has(key) ? coverage.declared : coverage.missing).push(`${e.method} ${e.path}`);
  const methodsOf = (path: string) =>
    [...spec.keys()].filter((k) => keyPath(k) === path).map((k) => k.slice(0, k.indexOf(' ')));
  // Dialogs whose call the catalogue knows are compared as dialogs; do not report them twice.
  const comparedDialogs = new Set(catalogue.dialogs.filter((d) => d.call).map((d) => d.type));
  for (const [key, { call, owners }] of ctx.calls) {
    if (spec.has(key) || owners.every((o) => comparedDialogs.has(o))) continue;
    const method = key.slice(0, key.indexOf(' '));
    const path = keyPath(key);
    const finding = (detail: string): Finding => ({
      kind: 'endpoint',
      subject: call,
      detail: `declared by ${owners.join(', ')}; ${detail}`,
    });
    // A read added beside a spec mutation is an extension; a mutation the spec makes with another
    // verb is a contradiction.
    const otherMutations = methodsOf(path).filter((m) => MUTATIONS.has(m));
    // The same call under the other base: '/api/...' paths are outside the admin base.
    const [otherBase, baseName] = path.startsWith('/api/') ? [path.slice(4), 'the admin base'] : [`/api${path}`, '/api'];
    if (MUTATIONS.has(method) && otherMutations.length)
      mismatches.push(finding(`the spec has ${otherMutations.join('/')} for this path`));
    else if (spec.has(`${method} ${otherBase}`))
      mismatches.push(finding(`the spec has it under ${baseName}: ${method} ${otherBase}`));
    else extras.push(finding('not a §7 call'));
  }
  return coverage;
}

// ---- error texts ------------------------------------------------------------------------------

function checkErrors(ctx: Declared, catalogue: Catalogue): Coverage {
  const coverage = emptyCoverage(catalogue.errors.length);
  const texts = [...ctx.dialogTexts, ...Object.values(sharedMessages), ...uploadTexts, ...ctx.ruleMessages.keys()];
  for (const { text } of catalogue.errors)
    (texts.some((t) => sameText(text, t)) ? coverage.declared : coverage.missing).push(text);
  return coverage;
}

function emptyCoverage(total: number): Coverage {
  return { total, declared: [], missing: [] };
}
