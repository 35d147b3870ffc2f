/**
 * The one list screen every resource gets, fed by its manifest: columns, filters, sort, pagination,
 * an empty state, and create/edit/delete that open the resource's dialogs (spec §2: no page routes).
 */
import type { ReactElement } from 'react';
import { Box, IconButton, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { Button, Datagrid, List, TopToolbar, usePermissions, useRecordContext } from 'react-admin';
import type { DialogDef, ResourceDef } from '../../manifest/index.ts';
import { useOpenDialog } from '../dialogs/context.ts';
import { dialogFor } from './access.ts';
import { listColumns } from './columns.tsx';
import { listFilters } from './filters.tsx';

type Found = [type: string, dialog: DialogDef] | undefined;

/** Spec's page size; the server answers `Content-Range: … 0-24/…` for the first page. */
const PER_PAGE = 25;

function CreateButton({ create }: { create: Found }) {
  const openDialog = useOpenDialog();
  if (!create) return null;
  return (
    <Button label="Create" onClick={() => openDialog(create[0])}>
      <AddIcon />
    </Button>
  );
}

function Toolbar({ create }: { create: Found }) {
  return (
    <TopToolbar>
      <CreateButton create={create} />
    </TopToolbar>
  );
}

function EmptyState({ resource, create }: { resource: ResourceDef; create: Found }) {
  return (
    <Box sx={{ textAlign: 'center', m: 6, width: '100%' }}>
      <Typography variant="h6" color="text.secondary" gutterBottom>
        No {resource.plural.toLowerCase()} yet
      </Typography>
      <CreateButton create={create} />
    </Box>
  );
}

interface RowActionsProps {
  /** Read by Datagrid for the column header. */
  label: string;
  textAlign: 'right';
  update: Found;
  remove: Found;
  details: Found;
}

function RowActions({ update, remove, details }: RowActionsProps) {
  const record = useRecordContext();
  const openDialog = useOpenDialog();
  if (!record) return null;
  const action = (found: Found, label: string, icon: ReactElement, color?: 'error') =>
    found && (
      <Tooltip title={label}>
        <IconButton size="small" aria-label={label} color={color} onClick={() => openDialog(found[0], { ...record })}>
          {icon}
        </IconButton>
      </Tooltip>
    );
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', whiteSpace: 'nowrap' }}>
      {action(details, 'Details', <VisibilityIcon fontSize="small" />)}
      {action(update, 'Edit', <EditIcon fontSize="small" />)}
      {action(remove, 'Delete', <DeleteIcon fontSize="small" />, 'error')}
    </Box>
  );
}

export function ListScreen({ resource }: { resource: ResourceDef }) {
  const { permissions } = usePermissions();
  const create = dialogFor(resource, 'create', permissions);
  const update = dialogFor(resource, 'update', permissions);
  const remove = dialogFor(resource, 'remove', permissions);
  const details = dialogFor(resource, 'details', permissions);
  return (
    <List
      resource={resource.name}
      title={resource.plural}
      filters={listFilters(resource)}
      actions={<Toolbar create={create} />}
      empty={<EmptyState resource={resource} create={create} />}
      perPage={PER_PAGE}
      sort={resource.sort}
      exporter={false}
    >
      <Datagrid rowClick={false} bulkActionButtons={false}>
        {listColumns(resource)}
        {(update || remove || details) && <RowActions label="Actions" textAlign="right" update={update} remove={remove} details={details} />}
      </Datagrid>
    </List>
  );
}
