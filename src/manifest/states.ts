/**
 * Declared states: a `select` field may declare the transitions between its values (`states` on the field),
 * who may make each, what it must be sent with, a guard and a notification. Pure and shared: the server's
 * records service refuses any other change of the field (src/server/records/states.ts), the generic route
 * `POST <list path>/{id}/transitions/<name>` makes one, and the client offers only what
 * `allowedTransitions` answers for a record and a role, so the two sides cannot disagree.
 *
 * Example (a document's review):
 * `field.select('status', STATUSES, { createdWith: 'PENDING', states: { transitions: [
 *   { name: 'approve', label: 'Approve', from: ['PENDING'], to: 'APPROVED', roles: ['admin'] },
 *   { name: 'reject', label: 'Reject', from: ['PENDING'], to: 'REJECTED', roles: ['admin'], requires: ['note'] },
 * ] } })`.
 */
import type { z } from 'zod';
import { parseCall } from './call.ts';
import { labelOf, ruleOf } from './schema.ts';
import type { Call, FieldDef, NotifyDef, ResourceDef, Role, UpdateDialog } from './types.ts';

/** A record as stored, or the values a write sends (field name → value). */
export type StateValues = Readonly<Record<string, unknown>>;

/** One declared move of a states field from some values to another. */
export interface TransitionDef {
  /**
   * Its name: the last segment of its route (`POST /products/{id}/transitions/approve`) and of its audit
   * entry's action (`transition:approve`). Unique within the resource, in lowerCamelCase.
   */
  name: string;
  /** The action's words, on its button and menu item and as its form's title ('Approve', 'Send again'). */
  label: string;
  /** The values it leaves from; `'*'`: any value. */
  from: readonly string[] | '*';
  /** The value it goes to: one of the field's `options`. */
  to: string;
  /**
   * The roles that may make it (the server's own writes, without a user, are not asked). Which records a
   * role reaches is still the resource's `access.owner`: a seller resubmits only its own document. None (`[]`):
   * only the server's own work makes it (a job expiring an order at its time).
   */
  roles: readonly Role[];
  /**
   * A pure check of the record as stored and the values sent with the transition: answers why it is
   * refused (the 409's message), or nothing. On the client, what lists offer, it is asked without
   * `input`: a guard judges what it can from the record, and what depends on the input once it is sent.
   */
  guard?: (record: StateValues, input?: StateValues) => string | undefined | void;
  /**
   * Fields the transition must be sent with, not empty (a reason, an amount): each judged by its field's
   * own rule. Its route's body is these fields and no other; a generic update making the transition
   * without one of them is refused (400, under the field).
   */
  requires?: readonly string[];
  /** Values stored with the transition besides `to` (clear the old reason on approval: `{ note: null }`). */
  set?: Readonly<Record<string, string | number | boolean | null>>;
  /** Notifications sent after the transition committed through its route (see `NotifyDef`). */
  notify?: NotifyDef | readonly NotifyDef[];
  /** The 'Success!' toast's description. Default: '<label>: done.'. */
  success?: string;
  /** The red toast's title when it fails. Default: 'Unable to <label>!'. */
  failure?: string;
}

/** The states of a `select` field: its transitions, and the value records start in. */
export interface StatesDef {
  /** The value a record is created in (a create sending another must be a transition from it). Default: the field's `createdWith`. */
  initial?: string;
  /** Every allowed move; any other change of the field is refused (409). */
  transitions: readonly TransitionDef[];
}

/** A transition with the field it moves. */
export interface FieldTransition {
  field: FieldDef;
  transition: TransitionDef;
}

/** The fields of `r` that declare states. */
export function stateFields(r: ResourceDef): FieldDef[] {
  return r.fields.filter((f) => f.states);
}

/** Every transition `r` declares, with its field. */
export function transitionsOf(r: ResourceDef): FieldTransition[] {
  return stateFields(r).flatMap((field) => field.states!.transitions.map((transition) => ({ field, transition })));
}

/** The value a record of `field` starts in. */
export function initialState(field: FieldDef): string | undefined {
  const initial = field.states?.initial ?? field.createdWith;
  return initial === undefined || initial === null ? undefined : String(initial);
}

/** Whether `t` leaves from `state`. */
export function leavesFrom(t: TransitionDef, state: unknown): boolean {
  return t.from === '*' || t.from.includes(String(state));
}

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** The required fields of `t` that `input` leaves out or empty. */
export function missingRequired(t: TransitionDef, input: StateValues): string[] {
  return (t.requires ?? []).filter((name) => isEmpty(input[name]));
}

/**
 * The transitions of `field` a user of `role` may make on `record` now, in declaration order: leaving
 * from its value, to another, for that role, and not refused by a guard judging the record alone.
 * What the lists and details dialogs offer; the server asks the same, with the input, when one is made.
 */
export function allowedTransitions(resource: ResourceDef, field: string, record: StateValues, role: unknown): TransitionDef[] {
  const f = resource.fields.find((x) => x.name === field);
  const state = record[field];
  return (f?.states?.transitions ?? []).filter(
    (t) => leavesFrom(t, state) && t.to !== String(state) && typeof role === 'string' && t.roles.includes(role as Role) && !t.guard?.(record),
  );
}

/** The refusal of a change no transition allows, naming the current state. */
export function refusedChange(field: FieldDef, from: unknown, to: unknown): string {
  return `Cannot change ${labelOf(field)} from ${String(from ?? 'nothing')} to ${String(to)}.`;
}

/** What a change of a states field is judged to be (see `judgeChange`). */
export type Judgement =
  | { ok: true; transition?: TransitionDef }
  | { ok: false; status: 400 | 409; message: string; errors?: Record<string, string[]> };

/**
 * Judges a write that moves `field` from `from` to `to`, of `resource`, with `input` the values it sends and `record` the
 * stored record (empty on create). `role` undefined: the server's own write, held to from/to only.
 * `named`: the transition the caller asked for by name (its route). Answers the transition made, or why
 * not: 409 when none leaves from `from` to `to` for the role, or a guard refuses; 400 when the one that
 * would is missing a required field.
 */
export function judgeChange(
  resource: ResourceDef,
  field: FieldDef,
  from: unknown,
  to: unknown,
  input: StateValues,
  record: StateValues,
  role: string | undefined,
  named?: string,
): Judgement {
  if (named === undefined && String(from) === String(to)) return { ok: true };
  const refused = { ok: false as const, status: 409 as const, message: refusedChange(field, from, to) };
  const moves = (field.states?.transitions ?? []).filter(
    (t) => (named === undefined || t.name === named) && leavesFrom(t, from) && t.to === String(to) && (role === undefined || t.roles.includes(role as Role)),
  );
  if (!moves.length) return refused;
  const complete = moves.filter((t) => missingRequired(t, input).length === 0);
  if (!complete.length) {
    const errors = Object.fromEntries(missingRequired(moves[0], input).map((name) => [name, [`${labelOf(resource.fields.find((f) => f.name === name)!)} is required.`]]));
    return { ok: false, status: 400, message: 'Validation failed.', errors };
  }
  let guarded: string | undefined;
  for (const t of complete) {
    const said = t.guard?.(record, input);
    if (!said) return { ok: true, transition: t };
    guarded ??= said;
  }
  return { ok: false, status: 409, message: guarded! };
}

/** The base path of `r`'s records: its list read's path (`/sellers/documents`). */
export function recordsPath(r: ResourceDef): string | undefined {
  const list = r.reads.list;
  return list ? parseCall(list.call).path.replace(/\/$/, '') : undefined;
}

/** The call of a transition's route: `POST <list path>/{id}/transitions/<name>`. */
export function transitionCall(r: ResourceDef, t: TransitionDef): Call {
  return `POST ${recordsPath(r)}/{id}/transitions/${t.name}` as Call;
}

/**
 * A required field's rule: its own, refusing the field left out, and (where its own takes one) empty too;
 * a rule that refuses an empty value already says so in the field's own words.
 */
function isRequired(rule: z.ZodType, label: string): z.ZodType {
  const message = `${label} is required.`;
  const takesEmpty = [undefined, null, ''].some((v) => rule.safeParse(v).success);
  return (takesEmpty ? rule.refine((v: unknown) => !isEmpty(v), { message }) : rule).nonoptional({ error: message });
}

/**
 * A transition as a form dialog, for the machinery every dialog shares: the body rule (strict: its
 * required fields, each by its own rule and not empty), the form, its toasts. Answered with the resource
 * as the form sees it: the required fields writable there, though the resource shows them read-only.
 */
export function transitionForm(r: ResourceDef, ft: FieldTransition): { resource: ResourceDef; dialog: UpdateDialog } {
  const { transition: t } = ft;
  const requires = new Set(t.requires ?? []);
  const resource: ResourceDef = {
    ...r,
    fields: r.fields.map((f) => (requires.has(f.name) ? { ...f, readOnly: false, rule: isRequired(ruleOf(f), labelOf(f)) } : f)),
  };
  const dialog: UpdateDialog = {
    kind: 'update',
    title: t.label,
    pick: [...requires],
    call: transitionCall(r, t),
    access: t.roles,
    success: t.success ?? `${t.label}: done.`,
    failure: t.failure ?? `Unable to ${t.label.toLowerCase()}!`,
  };
  return { resource, dialog };
}

/**
 * Refuses a states declaration that contradicts its resource (called by `defineResource`): states on a
 * field that is not a select, values not among its options, a required field not declared, a name used
 * twice, transitions without a list read to hang their route on.
 */
export function checkStates(r: ResourceDef, fail: (what: string) => never): void {
  const names = new Set<string>();
  for (const f of stateFields(r)) {
    const { transitions, initial } = f.states!;
    if (f.kind !== 'select') fail(`field '${f.name}' declares states but is not a select`);
    const options = new Set(f.options ?? []);
    const known = (state: string, what: string) => {
      if (!options.has(state)) fail(`field '${f.name}': ${what} '${state}' is not one of its options`);
    };
    if (initial !== undefined) known(initial, 'initial state');
    if (!transitions.length) fail(`field '${f.name}' declares states without transitions`);
    for (const t of transitions) {
      if (!/^[a-z][a-zA-Z0-9]*$/.test(t.name)) fail(`transition '${t.name}' must be named in lowerCamelCase`);
      if (names.has(t.name)) fail(`transition '${t.name}' is declared twice`);
      names.add(t.name);
      known(t.to, `transition ${t.name} goes to`);
      if (t.from !== '*') for (const s of t.from) known(s, `transition ${t.name} leaves from`);
      for (const name of t.requires ?? [])
        if (name === f.name || !r.fields.some((x) => x.name === name)) fail(`transition '${t.name}' requires unknown field '${name}'`);
      for (const name of Object.keys(t.set ?? {}))
        if (name === f.name || !r.fields.some((x) => x.name === name)) fail(`transition '${t.name}' sets unknown field '${name}'`);
    }
  }
  if (names.size && !recordsPath(r)) fail('a resource with states needs a list read: its transitions’ routes are under its path');
}
