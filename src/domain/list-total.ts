/**
 * The header a list answer carries when its total (`Content-Range`'s last number) is an estimate
 * (src/server/db/count.ts): the server sets it, the data provider reads it, the list says "about N".
 */
export const ESTIMATED_HEADER = 'X-Total-Estimated';
