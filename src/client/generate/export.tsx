/**
 * Export: the list's current filter and sort, every page of it, as a CSV file. The server streams it
 * (`GET <list call>?format=csv`, src/server/routes/export.ts); the button is a plain download link,
 * so the browser saves the rows as they arrive and nothing is gathered in the page.
 */
import DownloadIcon from '@mui/icons-material/Download';
import { Button, useListContext } from 'react-admin';
import type { ResourceDef } from '../../manifest/index.ts';
import { listPath } from '../providers/data.ts';

/** The CSV address of a list read with a filter and a sort, as the list itself would ask for them. */
export function exportUrl(resource: ResourceDef, filter: Record<string, unknown>, sort?: { field: string; order: string }): string {
  const query = new URLSearchParams({ format: 'csv' });
  if (sort?.field) query.set('sort', JSON.stringify([sort.field, sort.order]));
  query.set('filter', JSON.stringify(filter ?? {}));
  return `/${listPath(resource)}?${query}`;
}

export function ExportButton({ resource }: { resource: ResourceDef }) {
  const { filterValues, sort, total } = useListContext();
  // Nothing to export: a disabled button (a link cannot be disabled; a greyed one would still be read as one).
  if (total === 0)
    return (
      <Button label="Export" aria-label="Export" disabled>
        <DownloadIcon />
      </Button>
    );
  return (
    <Button<'a'> component="a" label="Export" aria-label="Export" href={exportUrl(resource, filterValues, sort)} download>
      <DownloadIcon />
    </Button>
  );
}
