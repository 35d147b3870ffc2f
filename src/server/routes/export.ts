/**
 * Every list read also answers as CSV: `GET <list call>?format=csv` (a list screen's Export button).
 * The rows are those the list itself would answer, through the same route, guard, query parser and
 * scope (so the same sorts, filters, search and roles), but all of them, not one page: the `range`
 * (or `page`/`limit`) is checked and then left aside. The rows are read EXPORT_PAGE at a time and
 * streamed as they come: the next page is read only when the client has taken the last one, so no
 * answer holds a whole table in memory however large it grows. Never cached (an answer may be large).
 *
 * The pages are read one after another, not in one snapshot: a row written while an export runs may
 * be in it or not (a long read transaction would hold SQLite's one connection for its whole length).
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FieldDef, Registry, ResourceDef } from '../../manifest/index.ts';
import type { ListQuery } from '../db/list-query.ts';
import { referenceLabels } from '../db/labels.ts';
import { listQueries, toRecord, type Db, type Narrow, type Scope } from '../db/repository.ts';
import { badRequest } from '../errors.ts';
import { csvLine, UTF8_BOM } from './csv.ts';

/** The query parameter that asks a list read for CSV, and its values. */
export const FORMAT_PARAM = 'format';
export const FORMATS = ['json', 'csv'] as const;

/** Rows read per query while exporting: large enough to be quick, small enough to hold at once. */
export const EXPORT_PAGE = 500;

/** Whether a list request asks for CSV (`format=csv`); `json` or no `format` is the usual page. */
export function wantsCsv(query: Record<string, unknown>): boolean {
  const format = query[FORMAT_PARAM];
  if (format === undefined || format === '' || format === 'json') return false;
  if (format === 'csv') return true;
  throw badRequest(`'${FORMAT_PARAM}' must be ${FORMATS.join(' or ')}.`);
}

/** The header of the column holding a reference's label, beside its id: `category label`. */
export const labelColumn = (f: Pick<FieldDef, 'name'>) => `${f.name} label`;

/**
 * The columns of a resource's CSV, as its records name them: the id, every field (secrets never: a
 * password's hash is not a field's value), and when the record was made and last changed. Beside each
 * reference of `labelled` (those the reader may read: db/labels.ts `labelledReferences`), the record it
 * points at by its title (`category`, `category label`): an id alone reads as nothing in a spreadsheet.
 */
export function csvColumns(r: ResourceDef, labelled: readonly FieldDef[] = []): string[] {
  const named = new Set(labelled.map((f) => f.name));
  // An `items` field's sub-records are no cell's value: the CSV holds the records' own columns.
  const fields = r.fields.filter((f) => !f.secret && f.kind !== 'items').flatMap((f) => (named.has(f.name) ? [f.name, labelColumn(f)] : [f.name]));
  return [...new Set(['id', ...fields, 'createdAt', 'updatedAt'])];
}

/** The references whose labels an export writes, and where it reads them (`labelledReferences`). */
export interface CsvLabels {
  registry: Registry;
  fields: readonly FieldDef[];
}

/**
 * The CSV text of every row the query selects, in its sort, as chunks: the header first, then one
 * chunk per page read. Lazy: each page is read when the chunk before it has been taken. With `labels`,
 * each page's references are looked up in one query per referenced resource (never one per row).
 */
export async function* csvChunks(db: Db, r: ResourceDef, query: ListQuery, scope?: Scope, narrow?: Narrow, labels?: CsvLabels): AsyncGenerator<string> {
  const labelled = labels?.fields ?? [];
  const columns = csvColumns(r, labelled);
  const labelOf = new Map(labelled.map((f) => [labelColumn(f), f.name]));
  yield UTF8_BOM + csvLine(columns);
  for (let start = 0; ; start += EXPORT_PAGE) {
    // The list's own queries (same filters, search, order and tie-break), one page further each time.
    const { page } = listQueries(db, r, { ...query, start, end: start + EXPORT_PAGE - 1 }, scope, narrow);
    const rows = await page.execute();
    const found = labels && labelled.length && rows.length ? await referenceLabels(db, labels.registry, labelled, rows) : undefined;
    if (rows.length)
      yield rows
        .map((row) => {
          const record = toRecord(r, row)!;
          return csvLine(
            columns.map((c) => {
              const field = labelOf.get(c);
              if (field === undefined) return record[c];
              const value = record[field];
              return typeof value === 'string' ? found?.get(field)?.get(value) : undefined;
            }),
          );
        })
        .join('');
    if (rows.length < EXPORT_PAGE) return;
  }
}

/** The file name the browser saves: the resource and the day (`categories-2026-05-01.csv`). */
export function csvFileName(r: ResourceDef, now = new Date()): string {
  return `${r.name}-${now.toISOString().slice(0, 10)}.csv`;
}

/** Sends the rows as a CSV download, streamed (chunked: no length is known before the last row). */
export function sendCsv(reply: FastifyReply, r: ResourceDef, chunks: AsyncIterable<string>) {
  return reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${csvFileName(r)}"`)
    .header('Cache-Control', 'no-store')
    .send(Readable.from(chunks));
}
