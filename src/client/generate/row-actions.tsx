/** The actions column of a list row: Details, Edit and Delete open the resource's dialogs; more may follow. */
import type { ReactElement, ReactNode } from 'react';
import { Box, IconButton } from '@mui/material';
import { RowTooltip } from '../widgets/RowTooltip.tsx';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { useRecordContext } from 'react-admin';
import type { DialogDef } from '../../manifest/index.ts';
import { useOpenDialog } from '../dialogs/context.ts';

export type Found = [type: string, dialog: DialogDef] | undefined;

interface RowActionsProps {
  /** Read by Datagrid for the column header. */
  label: string;
  textAlign: 'right';
  update: Found;
  remove: Found;
  details: Found;
  /** Row actions of the list's behaviours (operations, Make default), before the dialogs'. */
  children?: ReactNode;
}

export function RowActions({ update, remove, details, children }: RowActionsProps) {
  const record = useRecordContext();
  const openDialog = useOpenDialog();
  if (!record) return null;
  const action = (found: Found, label: string, icon: ReactElement, color?: 'error') =>
    found && (
      <RowTooltip title={label}>
        <IconButton size="small" aria-label={label} color={color} onClick={() => openDialog(found[0], { ...record })}>
          {icon}
        </IconButton>
      </RowTooltip>
    );
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', whiteSpace: 'nowrap' }}>
      {children}
      {action(details, 'Details', <VisibilityIcon fontSize="small" />)}
      {action(update, 'Edit', <EditIcon fontSize="small" />)}
      {action(remove, 'Delete', <DeleteIcon fontSize="small" />, 'error')}
    </Box>
  );
}
