/** Read builders: the GET calls of a resource. */
import type { Call, GroupedRead, ListRead, OneRead, OperationDef, SelfRead } from './types.ts';
import type { HandlerName } from './handlers.ts';

export const read = {
  /** A paged, sorted, filtered list (ra-data-simple-rest: `sort`, `range`, `filter`, `Content-Range`). */
  list: (call: Call, opts: Omit<ListRead, 'kind' | 'call'> = {}): ListRead => ({ kind: 'list', call, ...opts }),
  /** One record by the path parameter (`{id}`, or the field named in `by`). */
  one: (call: Call, opts: Omit<OneRead, 'kind' | 'call'> = {}): OneRead => ({ kind: 'one', call, ...opts }),
  /** The signed-in user's own record. */
  self: (call: Call, opts: Omit<SelfRead, 'kind' | 'call'> = {}): SelfRead => ({ kind: 'self', call, ...opts }),
  /** Every record grouped by the field `by`: `{ [value]: records }`. */
  grouped: (call: Call, by: string, opts: Omit<GroupedRead, 'kind' | 'call' | 'by'> = {}): GroupedRead => ({
    kind: 'grouped',
    call,
    by,
    ...opts,
  }),
};

/** A call carried out by the named server handler `handler` (see `OperationDef`). */
export function operation(call: Call, handler: HandlerName, opts: Omit<OperationDef, 'kind' | 'call' | 'handler'> = {}): OperationDef {
  return { kind: 'operation', call, handler, ...opts };
}
