/**
 * The one list screen every resource gets, fed by its manifest: columns, filters, sort, pagination,
 * an empty state, and every dialog the role may open on it (spec §2: no page routes): creates in the
 * toolbar, Edit, Details, Delete and a "More actions" menu on each row (list-dialogs.ts says which),
 * and the list behaviours it declares: reorder, toggle, upload, a failure alert, a default
 * record and row operations (each in a file of its own beside this one). And what react-admin users
 * expect of a list: a click on a row opens its record, bulk delete over selected rows where a delete
 * dialog exists, Export to CSV, a column chooser and saved queries; on a phone, cards instead of a
 * table (each in a file of its own too).
 */
import { useMemo, type ReactElement } from 'react';
import { Box, Typography, useMediaQuery, type Theme } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { BulkActionsToolbar, Button, Datagrid, FilterButton, List, TopToolbar, usePermissions } from 'react-admin';
import { labelOf, type RemoveDialog, type ResourceDef } from '../../manifest/index.ts';
import { useOpenDialog } from '../dialogs/context.ts';
import { UploadButton } from '../widgets/UploadButton.tsx';
import { allows } from './access.ts';
import { listDialogs, type Offered } from './list-dialogs.ts';
import { listColumns } from './columns.tsx';
import { DefaultMark, MakeDefaultButton, mayChangeDefault } from './default-record.tsx';
import { listFilters } from './filters.tsx';
import { ListFailure } from './list-failure.tsx';
import { ListError, ListPagination } from './list-error.tsx';
import { ReorderDatagrid } from './reorder.tsx';
import { RowActions } from './row-actions.tsx';
import { OperationButton, rowOperations } from './row-operations.tsx';
import { ToggleField, toggleDialog } from './toggle.tsx';
import { HistoryButton, offersHistory } from './history.tsx';
import { SortedHeader } from './header.tsx';
import { inSentence } from '../dialogs/titles.ts';
import { BulkDeleteButton } from './bulk-delete.tsx';
import { CardList } from './card-list.tsx';
import { ColumnsButton, columnOf, useHiddenColumns, type Column } from './column-chooser.tsx';
import { ExportButton } from './export.tsx';
import { useRowClick } from './row-click.ts';
import { SavedQueriesButton } from './saved-queries.tsx';
import { SelectRowField } from './selection.tsx';

/** Spec's page size; the server answers `Content-Range: … 0-24/…` for the first page. */
const PER_PAGE = 25;

/** A failed list shows its alert, not a toast as well. */
const quietErrors = { onError: () => {} };

/** The toolbar's creates: the create dialog ('Create'), then the actions that make a record ('Create agent'). */
function CreateButtons({ creates }: { creates: Offered[] }) {
  const openDialog = useOpenDialog();
  return (
    <>
      {creates.map((c) => (
        <Button key={c.type} label={c.label} onClick={() => openDialog(c.type)}>
          <AddIcon />
        </Button>
      ))}
    </>
  );
}

interface ToolbarProps {
  resource: ResourceDef;
  creates: Offered[];
  canWrite: boolean;
  /** The column chooser's columns (none: no chooser, as on a phone's cards). */
  columns?: Column[];
  hidden?: string[];
  onToggleColumn?: (key: string) => void;
}

function Toolbar({ resource, creates, canWrite, columns, hidden = [], onToggleColumn }: ToolbarProps) {
  const upload = resource.list?.upload;
  return (
    <TopToolbar>
      {/* The filters not always shown (the date ranges: 'Created from', …); saved queries have their own button. */}
      <FilterButton disableSaveQuery />
      <SavedQueriesButton />
      {columns && onToggleColumn && <ColumnsButton columns={columns} hidden={hidden} onToggle={onToggleColumn} />}
      <ExportButton resource={resource} />
      {upload && canWrite && <UploadButton upload={upload} />}
      <CreateButtons creates={creates} />
    </TopToolbar>
  );
}

function EmptyState({ resource, creates, canWrite }: { resource: ResourceDef; creates: Offered[]; canWrite: boolean }) {
  const upload = resource.list?.upload;
  return (
    <Box sx={{ textAlign: 'center', py: 6, px: 2, width: '100%', boxSizing: 'border-box' }}>
      <Typography variant="h6" component="h2" color="text.secondary" gutterBottom>
        No {inSentence(resource.plural)} yet
      </Typography>
      {upload && canWrite && <UploadButton upload={upload} />}
      <CreateButtons creates={creates} />
    </Box>
  );
}

/** The columns, with the toggle's switch in place of its field and the default's mark after the title. */
function columnsOf(resource: ResourceDef, role: unknown): ReactElement[] {
  const behaviour = resource.list ?? {};
  const toggle = behaviour.toggle;
  const toggling = toggle ? toggleDialog(resource, toggle, role) : undefined;
  const columns = listColumns(resource, {
    role,
    sortable: !behaviour.reorder,
    replace: (f) =>
      f.name === toggle && toggling ? (
        <ToggleField key={f.name} source={f.name} label={labelOf(f)} sortable={false} resource={resource} dialog={toggling} />
      ) : undefined,
  });
  if (resource.defaultRecord) {
    const at = columns.findIndex((c) => c.key === resource.title);
    columns.splice(at < 0 ? columns.length : at + 1, 0, <DefaultMark key="default-record" label="Default" resource={resource} />);
  }
  return columns;
}

export function ListScreen({ resource }: { resource: ResourceDef }) {
  const { permissions } = usePermissions();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const { creates, edit, more, remove, details } = useMemo(() => listDialogs(resource, permissions), [resource, permissions]);
  const canWrite = allows(resource.access.write, permissions);
  const operations = rowOperations(resource, permissions);
  const makeDefault = mayChangeDefault(resource, permissions);
  const history = offersHistory(resource, permissions);
  const { reorder, failure } = resource.list ?? {};
  const { hidden, toggle } = useHiddenColumns(resource);
  // A click on a row (or a card's title) opens the record: its Edit dialog, else its details.
  const { rowClick, onClickCapture, openRecord } = useRowClick(edit ?? details, resource.name);

  const all = columnsOf(resource, permissions);
  const chooser = all.map(columnOf);
  const columns = all.filter((c) => !hidden.includes(columnOf(c).key));
  const hasActions = edit || more.length > 0 || remove || details || operations.length > 0 || makeDefault || history;
  const actions = hasActions && (
    <RowActions
      key="actions"
      label="Actions"
      textAlign="right"
      resource={resource.name}
      edit={edit}
      more={more}
      remove={remove}
      details={details}
    >
      {operations.map((op) => (
        <OperationButton key={op.call} operation={op} />
      ))}
      {makeDefault && <MakeDefaultButton resource={resource} />}
      {history && <HistoryButton resource={resource} />}
    </RowActions>
  );
  // Cards on a phone; a reorderable list keeps its table (its rows are what is dragged), scrolled sideways in its own box.
  const cards = phone && !reorder;
  // Selection only where the role may delete, and only in the table.
  const bulk = remove && !cards && (
    <BulkActionsToolbar>
      <BulkDeleteButton resource={resource} dialog={remove.dialog as RemoveDialog} />
    </BulkActionsToolbar>
  );
  const select = bulk ? [<SelectRowField key="select" label="Select" sortable={false} titleSource={resource.title} />] : [];
  const grid = {
    rowClick,
    bulkActionButtons: false as const,
    // The bulk toolbar stands above the scroll box below (which would clip it), not in the table.
    bulkActionsToolbar: <></>,
    header: SortedHeader,
  };

  return (
    <List
      resource={resource.name}
      title={resource.plural}
      filters={listFilters(resource, permissions)}
      actions={
        <Toolbar
          resource={resource}
          creates={creates}
          canWrite={canWrite}
          {...(cards ? {} : { columns: chooser, hidden, onToggleColumn: toggle })}
        />
      }
      empty={<EmptyState resource={resource} creates={creates} canWrite={canWrite} />}
      perPage={PER_PAGE}
      sort={reorder ? { field: reorder.field, order: 'ASC' } : resource.sort}
      exporter={false}
      error={failure ? <ListFailure failure={failure} /> : <ListError title={`Unable to load ${inSentence(resource.plural)}`} />}
      pagination={<ListPagination />}
      queryOptions={failure ? quietErrors : undefined}
    >
      {cards ? (
        <CardList resource={resource} columns={columns} actions={actions} onOpen={openRecord} />
      ) : (
        <>
          {bulk}
          {/* Wider than the screen (a phone's reorderable table), the table scrolls in its own box: taking no
              width of its own (`width: 0`, then the whole width it is given), it never widens the page. */}
          <Box onClickCapture={onClickCapture} sx={{ overflowX: 'auto', width: 0, minWidth: '100%' }}>
            {reorder ? (
              <ReorderDatagrid manifest={resource} reorder={reorder} {...grid}>
                {select}
                {columns}
                {actions}
              </ReorderDatagrid>
            ) : (
              <Datagrid {...grid}>
                {select}
                {columns}
                {actions}
              </Datagrid>
            )}
          </Box>
        </>
      )}
    </List>
  );
}
