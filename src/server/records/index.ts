/**
 * What features (src/features/) take from the database room: the records service, through which they
 * read and write, and the few names of stored rows they write in an `operation` of their own. Features
 * import these from here, never from `src/server/db/` (scripts/check-imports.ts holds them to it), so
 * the query layer and the engines can change without a feature noticing.
 */
export { RecordsService } from './service.ts';
export type { Db, Row } from '../db/types.ts';
/** A record's version column (one more on each write; answered as its ETag). */
export { VERSION } from '../db/tables.ts';
/** A new record id. */
export { newId } from '../db/id.ts';
/** A stored flag (SQLite's 0/1, PostgreSQL's boolean) as a boolean. */
export { fromStoredBoolean } from '../db/repository.ts';
/** The labels of the records reference fields name, read in one query per referenced resource. */
export { referenceLabels, type ReferenceLabels } from '../db/labels.ts';
// What a write's transaction read of its parents, titles among them (declared notifications name them).
export { parentKey, parentsReadIn } from './parents.ts';
/** A write in an `operation` whose result nothing waits on: sent with the transaction's next statement (PostgreSQL). */
export { writeBehind } from '../db/write-behind.ts';
/** The insert of one row, its text compiled once per table and set of columns (for `writeBehind`). */
export { insertQuery } from '../db/compiled-queries.ts';
