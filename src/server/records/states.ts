/**
 * Declared states on the server (src/manifest/states.ts): the records service asks here, inside the
 * write's transaction, whether a create or update that changes a states field makes a transition the
 * manifest allows: from the stored value (a create: the field's initial one), for the writer's role (the
 * server's own writes: from and to only), guard passing, required fields sent. Anything else is refused:
 * 409 naming the current state, or 400 under a missing required field.
 */
import { initialState, judgeChange, stateFields, type ResourceDef, type TransitionDef } from '../../manifest/index.ts';
import { HttpError } from '../errors.ts';
import type { Row } from '../db/types.ts';

/** The writer as the states check sees it: a role, or none for the server's own work. */
export interface StateWriter {
  role?: unknown;
}

/**
 * Checks the states fields `data` changes. `current` is the stored record (undefined on create), `user`
 * the writer (undefined: the server itself), `named` a transition asked for by name (its route), which
 * must then be the one made. Answers the transitions made (for the audit entry), or throws.
 */
export function checkTransitions(r: ResourceDef, data: Row, current: Row | undefined, user: StateWriter | undefined, named?: string): TransitionDef[] {
  const role = user ? (typeof user.role === 'string' ? user.role : '') : undefined;
  const made: TransitionDef[] = [];
  let namedFound = named === undefined;
  for (const f of stateFields(r)) {
    const from = current ? current[f.name] : initialState(f);
    const sent = f.name in data && data[f.name] !== undefined ? data[f.name] : undefined;
    const named_ = named !== undefined && f.states!.transitions.some((t) => t.name === named) ? named : undefined;
    if (sent === undefined && named_ === undefined) continue;
    const to = sent ?? from;
    const judged = judgeChange(r, f, from, to, data, current ?? {}, role, named_);
    if (!judged.ok) throw new HttpError(judged.status, judged.message, judged.errors);
    if (judged.transition) made.push(judged.transition);
    if (named_ !== undefined) namedFound = true;
  }
  if (!namedFound) throw new HttpError(404, `No transition named '${named}'.`);
  return made;
}

/** The audit entry's action for a write that made `made`: `transition:<name>`, or undefined for none. */
export function transitionAction(made: readonly TransitionDef[]): string | undefined {
  return made.length ? `transition:${made.map((t) => t.name).join('+')}` : undefined;
}
