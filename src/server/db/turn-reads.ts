/**
 * Records read one at a time, with the others asked for in the same turn of the event loop, each engine
 * its own way: SQLite runs a turn's reads one after another on its connection (sqlite/group-commit.ts
 * `readInTurn`); PostgreSQL reads a turn's get-ones of one table and field in one statement
 * (postgres/record-batches.ts). The layers above reach both through here, never through an engine's
 * folder (scripts/check-imports.ts).
 */
export { readInTurn } from './sqlite/group-commit.ts';
export { batchesRecords, recordInTurn } from './postgres/record-batches.ts';
