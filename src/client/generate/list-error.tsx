/**
 * What a list shows when its call fails (a filter the server refuses, a lost connection): the
 * server's own message where the rows were, a way back (clear the filters), and no pagination, so no
 * total from an earlier answer, or a made-up one, stays on screen beside an error. react-admin keeps
 * its Pagination under the list whatever happened and, without an error element, shows "No … found
 * using the current filters" above a range like "1-25 of 25": both wrong when nothing was answered.
 */
import { Alert, AlertTitle, Button } from '@mui/material';
import { Pagination, useListContext } from 'react-admin';

/** The message a failed call carries: the server's `{ message }`, else the error's own. */
export function errorMessage(error: unknown): string {
  const body = (error as { body?: { message?: unknown } } | null)?.body;
  if (typeof body?.message === 'string' && body.message) return body.message;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message ? message : 'Something went wrong.';
}

/** The alert in place of the rows: the server's message, and Clear filters when filters are set. */
export function ListError({ title }: { title: string }) {
  const { error, filterValues, setFilters } = useListContext();
  const filtered = Object.keys(filterValues ?? {}).length > 0;
  return (
    <Alert
      severity="error"
      sx={{ m: 2 }}
      action={
        filtered ? (
          <Button color="inherit" size="small" onClick={() => setFilters({}, {})}>
            Clear filters
          </Button>
        ) : undefined
      }
    >
      <AlertTitle>{title}</AlertTitle>
      {errorMessage(error)}
    </Alert>
  );
}

/**
 * react-admin's Pagination, shown only while the list has an answer to count: never beside an error.
 * A total the server estimated (`meta.totalEstimated`, see providers/data.ts) reads "1-25 of about 1,000,000".
 */
export function ListPagination() {
  const { error, meta } = useListContext();
  if (error) return null;
  // Pagination passes its other props on to MUI's TablePagination (after its own label), though its type leaves this one out.
  return meta?.totalEstimated ? <Pagination {...({ labelDisplayedRows: aboutRange } as object)} /> : <Pagination />;
}

function aboutRange({ from, to, count }: { from: number; to: number; count: number }) {
  return `${from}-${to} of about ${count.toLocaleString('en')}`;
}
