/**
 * The names of the server's handlers (for `action` dialogs and `operations`), as a type the checker
 * enforces: a manifest naming a handler nobody wrote fails `npm run typecheck`, and start-up
 * (src/server/routes/index.ts checks every name against the map it is given).
 *
 * The manifest layer cannot import the server (manifests load in the browser too), so the names come by
 * declaration merging: src/server/handlers.ts, which gathers every feature's handlers into one map, adds
 * that map's keys to `HandlerNames`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface HandlerNames {}

/** A name of a handler in the server's map (src/server/handlers.ts). */
export type HandlerName = Extract<keyof HandlerNames, string>;
