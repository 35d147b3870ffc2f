/**
 * The one list screen every resource gets, fed by its manifest: columns, filters, sort, pagination,
 * an empty state, create/edit/delete/details that open the resource's dialogs (spec §2: no page
 * routes), and the list behaviours it declares: reorder, toggle, upload, a failure alert, a default
 * record and row operations (each in a file of its own beside this one).
 */
import type { ReactElement } from 'react';
import { Box, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { Button, Datagrid, List, TopToolbar, usePermissions } from 'react-admin';
import { labelOf, type ResourceDef } from '../../manifest/index.ts';
import { useOpenDialog } from '../dialogs/context.ts';
import { UploadButton } from '../widgets/UploadButton.tsx';
import { allows, dialogFor } from './access.ts';
import { listColumns } from './columns.tsx';
import { DefaultMark, MakeDefaultButton, mayChangeDefault } from './default-record.tsx';
import { listFilters } from './filters.tsx';
import { ListFailure } from './list-failure.tsx';
import { ReorderDatagrid } from './reorder.tsx';
import { RowActions, type Found } from './row-actions.tsx';
import { OperationButton, rowOperations } from './row-operations.tsx';
import { ToggleField, toggleDialog } from './toggle.tsx';
import { inSentence } from '../dialogs/titles.ts';

/** Spec's page size; the server answers `Content-Range: … 0-24/…` for the first page. */
const PER_PAGE = 25;

/** A failed list shows its alert, not a toast as well. */
const quietErrors = { onError: () => {} };

function CreateButton({ create }: { create: Found }) {
  const openDialog = useOpenDialog();
  if (!create) return null;
  return (
    <Button label="Create" onClick={() => openDialog(create[0])}>
      <AddIcon />
    </Button>
  );
}

function Toolbar({ resource, create, canWrite }: { resource: ResourceDef; create: Found; canWrite: boolean }) {
  const upload = resource.list?.upload;
  return (
    <TopToolbar>
      {upload && canWrite && <UploadButton upload={upload} />}
      <CreateButton create={create} />
    </TopToolbar>
  );
}

function EmptyState({ resource, create, canWrite }: { resource: ResourceDef; create: Found; canWrite: boolean }) {
  const upload = resource.list?.upload;
  return (
    <Box sx={{ textAlign: 'center', m: 6, width: '100%' }}>
      <Typography variant="h6" color="text.secondary" gutterBottom>
        No {inSentence(resource.plural)} yet
      </Typography>
      {upload && canWrite && <UploadButton upload={upload} />}
      <CreateButton create={create} />
    </Box>
  );
}

/** The columns, with the toggle's switch in place of its field and the default's mark after the title. */
function columnsOf(resource: ResourceDef, role: unknown): ReactElement[] {
  const behaviour = resource.list ?? {};
  const toggle = behaviour.toggle;
  const toggling = toggle ? toggleDialog(resource, toggle, role) : undefined;
  const columns = listColumns(resource, {
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
  const create = dialogFor(resource, 'create', permissions);
  const update = dialogFor(resource, 'update', permissions);
  const remove = dialogFor(resource, 'remove', permissions);
  const details = dialogFor(resource, 'details', permissions);
  const canWrite = allows(resource.access.write, permissions);
  const operations = rowOperations(resource, permissions);
  const makeDefault = mayChangeDefault(resource, permissions);
  const { reorder, failure } = resource.list ?? {};

  const columns = columnsOf(resource, permissions);
  const hasActions = update || remove || details || operations.length > 0 || makeDefault;
  const actions = hasActions && (
    <RowActions key="actions" label="Actions" textAlign="right" update={update} remove={remove} details={details}>
      {operations.map((op) => (
        <OperationButton key={op.call} operation={op} />
      ))}
      {makeDefault && <MakeDefaultButton resource={resource} />}
    </RowActions>
  );

  return (
    <List
      resource={resource.name}
      title={resource.plural}
      filters={listFilters(resource)}
      actions={<Toolbar resource={resource} create={create} canWrite={canWrite} />}
      empty={<EmptyState resource={resource} create={create} canWrite={canWrite} />}
      perPage={PER_PAGE}
      sort={reorder ? { field: reorder.field, order: 'ASC' } : resource.sort}
      exporter={false}
      error={failure ? <ListFailure failure={failure} /> : undefined}
      queryOptions={failure ? quietErrors : undefined}
    >
      {reorder ? (
        <ReorderDatagrid manifest={resource} reorder={reorder} rowClick={false} bulkActionButtons={false}>
          {columns}
          {actions}
        </ReorderDatagrid>
      ) : (
        <Datagrid rowClick={false} bulkActionButtons={false}>
          {columns}
          {actions}
        </Datagrid>
      )}
    </List>
  );
}

