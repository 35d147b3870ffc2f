/**
 * The one list screen every resource gets, fed by its manifest: columns, filters, sort, pagination,
 * an empty state, and every dialog the role may open on it (spec §2: no page routes): creates in the
 * toolbar, Edit, Details, Delete and a "More actions" menu on each row (list-dialogs.ts says which),
 * and the list behaviours it declares: reorder, toggle, upload, a failure alert, a default
 * record and row operations (each in a file of its own beside this one). And what react-admin users
 * expect of a list: a click on a row opens its record, bulk delete over selected rows where a delete
 * dialog exists, Export to CSV, a column chooser and saved queries; on a phone, cards instead of a
 * table (each in a file of its own too). A table fits its screen: columns that do not fit are left
 * out (still in the column chooser), the row actions stay in sight in a sticky last column, and long
 * text is cut to a line (fit-columns.ts, cell-text.ts). The keyboard reaches each row that opens a
 * record (Enter opens it), and the bulk toolbar, folded away, takes no focus.
 */
import { transitionsOf, type Role } from '../../manifest/index.ts';
import { mayCall } from './access.ts';
import { useMemo, type KeyboardEvent, type ReactElement } from 'react';
import { Box, Typography, useMediaQuery, type Theme } from '@mui/material';
import type { SystemStyleObject } from '@mui/system';
import AddIcon from '@mui/icons-material/Add';
import {
  BulkActionsToolbar,
  BulkActionsToolbarClasses,
  Button,
  Datagrid,
  ListBase,
  ListView,
  Loading,
  TopToolbar,
  usePermissions,
} from 'react-admin';
import { labelOf, type Registry, type RemoveDialog, type ResourceDef } from '../../manifest/index.ts';
import { useOpenDialog } from '../dialogs/context.ts';
import { UploadButton } from '../widgets/UploadButton.tsx';
import { listDialogs, type Offered } from './list-dialogs.ts';
import { fieldWeight, listColumns } from './columns.tsx';
import { DefaultMark, MakeDefaultButton, mayChangeDefault } from './default-record.tsx';
import { listFilters } from './filters.tsx';
import { ListFailure } from './list-failure.tsx';
import { ListError, ListPagination } from './list-error.tsx';
import { ReorderDatagrid } from './reorder.tsx';
import { ROW_ACTIONS_COLUMN, RowActions } from './row-actions.tsx';
import { OperationButton, rowOperations } from './row-operations.tsx';
import { ToggleField, toggleDialog } from './toggle.tsx';
import { useRegistry } from '../registry/context.tsx';
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
import { MoreFiltersButton } from './more-filters.tsx';
import { useFitColumns } from './fit-columns.ts';
import { cellTextSx, showCutText } from './cell-text.ts';
import { emptyText } from './empty-text.ts';
import { PrefetchNextPage } from './next-page.tsx';
import { listFreshness, listSort, PER_PAGE } from './read-ahead.ts';
import { SignedInProvider } from './signed-in.tsx';
import { PageReferencesProvider } from './page-references.tsx';
import { SearchAhead } from './search-ahead.tsx';
import { FILTER_DEBOUNCE_MS } from '../shell/theme.ts';
import { PathOnlyLocation } from '../shell/path-only-location.tsx';
import { ListBody, listBodySx } from './list-body.tsx';
import { RowIconButtonStyles } from '../widgets/RowIconButton.tsx';
import { CellTextStyles } from './cell-displays.tsx';

/** A page read a moment ago (read ahead from the menu) is not read again as the list mounts (read-ahead.ts). */
const listQuery = { staleTime: listFreshness };
/** A failed list shows its alert, not a toast as well. */
const quietErrors = { ...listQuery, onError: () => {} };
/** What react-admin's <List> shows while the session is checked (its `authLoading` default). */
const AUTH_LOADING = <Loading />;

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
  /** The filters behind the Filters button. */
  moreFilters: ReactElement[];
  /** The column chooser's columns (none: no chooser, as on a phone's cards). */
  columns?: Column[];
  hidden?: string[];
  onToggleColumn?: (key: string, shown: boolean) => void;
}

function Toolbar({ resource, creates, canWrite, moreFilters, columns, hidden = [], onToggleColumn }: ToolbarProps) {
  const upload = resource.list?.upload;
  return (
    <TopToolbar>
      <MoreFiltersButton filters={moreFilters} />
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
        {emptyText(resource)}
      </Typography>
      {upload && canWrite && <UploadButton upload={upload} />}
      <CreateButtons creates={creates} />
    </Box>
  );
}

/** The columns, with the toggle's switch in place of its field and the default's mark after the title. */
function columnsOf(registry: Registry, resource: ResourceDef, role: unknown): ReactElement[] {
  const behaviour = resource.list ?? {};
  const toggle = behaviour.toggle;
  const toggling = toggle ? toggleDialog(resource, toggle, role) : undefined;
  const columns = listColumns(resource, {
    role,
    registry,
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

/** Enter on a focused row opens it, as a click does (the row's own handler: row-click.ts). */
function openFocusedRow(e: KeyboardEvent) {
  const row = e.target;
  if (e.key !== 'Enter' || !(row instanceof HTMLTableRowElement) || !row.closest('tbody')) return;
  e.preventDefault();
  row.click();
}

/**
 * The table's looks: the row actions (its last column) stay in sight at the right edge when the table
 * is wider than its box, on the card's own background; a focused row shows a ring; long text is cut;
 * on a phone, cells are closer together.
 */
function tableSx(stickyActions: boolean, narrow: boolean) {
  return (theme: Theme): SystemStyleObject<Theme> => ({
    // The rows' and cells' own looks (list-body.tsx draws them as plain elements).
    ...listBodySx(theme),
    ...(narrow && { '& .MuiTableCell-root': { px: 1 } }),
    '& tbody tr:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: '-2px' },
    ...cellTextSx,
    ...(stickyActions && {
      '& td:last-of-type, & th:last-of-type': {
        position: 'sticky',
        right: 0,
        zIndex: 1,
        bgcolor: 'background.paper',
        // A dark card's paper is lightened by an overlay (MUI's `--Paper-overlay`): the cell wears the same.
        backgroundImage: 'var(--Paper-overlay)',
      },
      // A row's menu is drawn inside its sticky cell (no portal): that cell must sit above the cells of
      // the rows below, which are sticky at the same level and later in the page.
      '& td:last-of-type:focus-within, & td:last-of-type:has([aria-expanded="true"])': { zIndex: 3 },
      '& tbody tr:hover > td:last-of-type': {
        backgroundImage: `linear-gradient(${theme.palette.action.hover}, ${theme.palette.action.hover}), var(--Paper-overlay, none)`,
      },
    }),
  });
}

export function ListScreen({ resource }: { resource: ResourceDef }) {
  const { permissions } = usePermissions();
  const registry = useRegistry();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const { creates, edit, more, remove, details } = useMemo(() => listDialogs(registry, resource, permissions), [registry, resource, permissions]);
  const canWrite = mayCall(permissions, resource, 'write');
  const operations = useMemo(() => rowOperations(resource, permissions), [resource, permissions]);
  const makeDefault = mayChangeDefault(resource, permissions);
  const history = offersHistory(registry, resource, permissions);
  const { reorder, failure } = resource.list ?? {};
  const { hidden, kept, toggle } = useHiddenColumns(resource);
  const filters = useMemo(() => listFilters(registry, resource, permissions, phone), [registry, resource, permissions, phone]);
  // A click on a row (or a card's title) opens the record: its Edit dialog, else its details.
  const { rowClick, onClickCapture, openRecord } = useRowClick(edit ?? details, resource.name);

  const all = useMemo(() => columnsOf(registry, resource, permissions), [registry, resource, permissions]);
  const chooser = useMemo(() => all.map(columnOf), [all]);
  // Keyed by content: the stored lists are new arrays at every drawing.
  const hiddenKey = hidden.join('\n');
  const chosen = useMemo(() => all.filter((c) => !hiddenKey.split('\n').includes(columnOf(c).key)), [all, hiddenKey]);
  // What may be left out to fit: any chosen column but the title and those the user ticked on; plain
  // columns go before states and amounts (`fieldWeight`), each from the list's end.
  const weightOf = (key: string) => fieldWeight(resource.fields.find((f) => f.name === key));
  const { dropped, boxRef } = useFitColumns(
    chosen
      .map((c) => columnOf(c).key)
      .filter((key) => key !== resource.title && !kept.includes(key))
      .sort((a, b) => weightOf(a) - weightOf(b)),
  );
  // A transition the role may make on some record is a row action too (offered per row by its state).
  const transitions = transitionsOf(resource).some(({ transition }) => typeof permissions === 'string' && transition.roles.includes(permissions as Role));
  const hasActions = edit || more.length > 0 || remove || details || operations.length > 0 || makeDefault || history || transitions;
  const actions = useMemo(
    () =>
      hasActions && (
        <RowActions
          key="actions"
          label="Actions"
          textAlign="right"
          source={ROW_ACTIONS_COLUMN}
          sortable={false}
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
      ),
    [hasActions, resource, edit, more, remove, details, operations, makeDefault, history],
  );
  // Cards on a phone; a reorderable list keeps its table (its rows are what is dragged), scrolled sideways in its own box.
  const cards = phone && !reorder;
  // A card shows what matters of every chosen column (card-list.tsx); a table what fits.
  const droppedKey = dropped.join('\n');
  const columns = useMemo(
    () => (cards ? chosen : chosen.filter((c) => !droppedKey.split('\n').includes(columnOf(c).key))),
    [cards, chosen, droppedKey],
  );
  // Selection only where the role may delete, and only in a wide table (a phone's reorderable one has no room).
  const bulk = remove && !phone && (
    // Folded away (nothing selected) it is still there, moved out of sight: hidden, it takes no focus.
    <Box sx={{ [`& .${BulkActionsToolbarClasses.collapsed}`]: { visibility: 'hidden' } }}>
      <BulkActionsToolbar>
        <BulkDeleteButton resource={resource} dialog={remove.dialog as RemoveDialog} />
      </BulkActionsToolbar>
    </Box>
  );
  const selecting = !!bulk;
  const select = useMemo(
    () => (selecting ? [<SelectRowField key="select" label="Select" sortable={false} titleSource={resource.title} />] : []),
    [selecting, resource.title],
  );
  const grid = {
    rowClick,
    bulkActionButtons: false as const,
    // The bulk toolbar stands above the scroll box below (which would clip it), not in the table.
    bulkActionsToolbar: <></>,
    header: SortedHeader,
    sx: tableSx(!!hasActions, phone),
  };
  const focusableRows = !!openRecord;
  // The table's cells as one array, the same while they stay the same (the rows compare it: list-body.tsx).
  const cells = useMemo(() => [select, columns, actions], [select, columns, actions]);
  const body = useMemo(() => <ListBody focusableRows={focusableRows} />, [focusableRows]);

  return (
    // Who is signed in, asked once for the whole list: its rows read it (signed-in.tsx).
    <SignedInProvider>
      {/* react-admin's <List> taken apart (as it puts them together: ListBase, then ListView) so that the
          filter form's calls pass through SearchAhead, which reads a search's page as it is applied. */}
      <ListBase
        resource={resource.name}
        perPage={PER_PAGE}
        // A filter set by code with a delay waits as long as one typed (the typed ones: theme.ts).
        debounce={FILTER_DEBOUNCE_MS}
        // (The page a menu entry reads ahead is worked out from the same: read-ahead.ts.)
        sort={listSort(resource)}
        exporter={false}
        queryOptions={failure ? quietErrors : listQuery}
        authLoading={AUTH_LOADING}
        offline={false}
      >
        <SearchAhead resource={resource}>
          <ListView
            title={resource.plural}
            filters={filters.inline}
            actions={
              <Toolbar
                resource={resource}
                creates={creates}
                canWrite={canWrite}
                moreFilters={filters.more}
                {...(cards ? {} : { columns: chooser, hidden: [...hidden, ...dropped], onToggleColumn: toggle })}
              />
            }
            empty={<EmptyState resource={resource} creates={creates} canWrite={canWrite} />}
            error={failure ? <ListFailure failure={failure} /> : <ListError title={`Unable to load ${inSentence(resource.plural)}`} />}
            pagination={<ListPagination />}
          >
            {/* The looks of the rows' buttons and text, drawn light (RowIconButton.tsx, cell-displays.tsx): once for every row. */}
            {RowIconButtonStyles}
            {CellTextStyles}
            {/* The next page is read while this one is looked at (next-page.tsx). */}
            <PrefetchNextPage resource={resource} />
            {/* The page's references, read once for the page (page-references.tsx). */}
            <PageReferencesProvider resource={resource}>
              {cards ? (
                <CardList resource={resource} columns={columns} actions={actions} onOpen={openRecord} />
              ) : (
                <>
                  {bulk}
                  {/* Wider than the screen (a phone's reorderable table), the table scrolls in its own box: taking no
                      width of its own (`width: 0`, then the whole width it is given), it never widens the page. */}
                  <Box
                    ref={boxRef}
                    onClickCapture={onClickCapture}
                    onKeyDown={openFocusedRow}
                    onPointerOver={showCutText}
                    sx={{ overflowX: 'auto', width: 0, minWidth: '100%' }}
                  >
                    {reorder ? (
                      <ReorderDatagrid manifest={resource} reorder={reorder} focusableRows={focusableRows} {...grid}>
                        {select}
                        {columns}
                        {actions}
                      </ReorderDatagrid>
                    ) : (
                      // Its cells' links (records, references) are whole paths: a page, sort or search written into
                      // the address redraws none of them (path-only-location.tsx).
                      <PathOnlyLocation>
                        <Datagrid {...grid} body={body}>
                          {cells}
                        </Datagrid>
                      </PathOnlyLocation>
                    )}
                  </Box>
                </>
              )}
            </PageReferencesProvider>
          </ListView>
        </SearchAhead>
      </ListBase>
    </SignedInProvider>
  );
}
